"""Picking up league players at a table: the league's list fetched through the table's
link and kept for offline, a seat picked by card (the join page, or the card's QR text),
a name chosen from the list; the pushed result then names the league player, so one
person at two tables is one player in the league. The card QR's text, and the camera's
scans."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.outbox import Link, Outbox
from companion.players import Scans, card_code
from companion.store import SqliteStore
from league import queries, store
from tests.league.conftest import joined, result
from tests.league.tables import FINISHED, record_lines, seats_of, store_game
from tests.league.test_outbox import LeagueSender


class LeagueFetch:
    """Fetches the players through the league's test client; can be away."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.away = False
        self.calls = 0

    def __call__(self, link: Link) -> list[tuple[str, str]]:
        self.calls += 1
        if self.away:
            raise ConnectionRefusedError("connection refused")
        r = self.client.get("/api/v1/players", headers={"Authorization": f"Bearer {link.token}"})
        assert r.status_code == 200, r.get_json()
        return [(p["name"], p["card"]) for p in r.get_json()["players"]]


def _cards(lg: Any) -> dict[str, str]:
    return {n: c for n, c in queries.player_cards(lg.pool)}


def test_the_players_list_needs_a_table_token(league: Any) -> None:
    assert league.client.get("/api/v1/players").status_code == 401
    _, token = joined(league)
    r = league.client.post("/api/v1/results", json=result("g1", ["Ana", "Ben"], [1, 2]),
                           headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201
    got = league.client.get("/api/v1/players", headers={"Authorization": f"Bearer {token}"})
    assert [p["name"] for p in got.get_json()["players"]] == ["Ana", "Ben"]


def test_a_picked_player_is_one_player_at_two_tables(league: Any, tmp_path: Path) -> None:
    # the league knows Ana and Ben from another table
    _, other = joined(league, "Other table")
    league.client.post("/api/v1/results", json=result("o1", ["Ana", "Ben"], [1, 2]),
                       headers={"Authorization": f"Bearer {other}"})
    cards = _cards(league)
    key, token = joined(league, "Window")
    box = Outbox(tmp_path / "outbox.sqlite3")
    fetch = LeagueFetch(league.client)
    assert box.refresh_players(0.0, fetch) is False  # no league linked yet: nothing asked
    box.set_link(Link("http://league", key, token, "Window"), 0.0)
    assert box.refresh_players(0.0, fetch) is True and fetch.calls == 1
    assert box.refresh_players(60.0, fetch) is False  # fresh enough: not asked again
    assert box.league_players() == [("Ana", cards["Ana"]), ("Ben", cards["Ben"])]
    fetch.away = True  # offline: the list stays
    assert box.refresh_players(10**6, fetch) is False and len(box.league_players()) == 2

    # at this table the seats were typed "Player 1", "ben" and "Cem"
    game, name = FINISHED[0]
    n = seats_of(game, name)
    seats = ["Player 1", "ben", "Cem", "Dee", "Eli", "Fay"][:n]
    events = SqliteStore(tmp_path / "events.sqlite3")
    info = store_game(events, record_lines(game, name, seats))
    # seat 1's phone picks Ana by her card's QR text (any league address: the code counts)
    assert box.pick(info.game_id, 0, f"http://club-laptop:8090/c/{cards['Ana']}") == "Ana"
    try:
        box.pick(info.game_id, 2, "http://league/c/000000000000")
    except ValueError as exc:
        assert "not in the league's list" in str(exc)
    else:
        raise AssertionError("an unknown card was picked")
    assert box.collect(events) == 1
    body = json.loads(box._db.execute("SELECT body FROM outbox").fetchone()[0])
    pushed = {s["name"]: s.get("card") for s in body["seats"]}
    assert pushed["Ana"] == cards["Ana"] and "Player 1" not in pushed
    assert pushed["Ben"] == cards["Ben"]  # a name from the list: the card goes with it
    assert pushed["Cem"] is None
    assert box.push_due(10.0, LeagueSender(league.client)) == 1
    league.app.extensions["league"].rate_now()
    lines = {s.name: s.played for s in queries.standings(league.pool)}
    assert lines["Ana"] == 2 and lines["Ben"] == 2  # one player each, at two tables
    assert "Player 1" not in lines
    box.close()
    events.close()


def test_a_card_names_its_player_after_a_merge(league: Any) -> None:
    _, token = joined(league)
    push = lambda body: league.client.post(  # noqa: E731
        "/api/v1/results", json=body, headers={"Authorization": f"Bearer {token}"})
    push(result("g1", ["Ana", "Ben"], [1, 2]))
    push(result("g2", ["Anna", "Ben"], [1, 2], t=1.7e9 + 60))
    cards = _cards(league)
    ids = {n: i for i, n in queries.find_players(league.pool)}
    store.merge(league.pool, ids["Ana"], ids["Anna"])
    # a table still holding Anna's card: the game is Ana's
    body = result("g3", ["Anna", "Ben"], [2, 1], t=1.7e9 + 120)
    body["seats"][0]["card"] = cards["Anna"]
    assert push(body).status_code == 201
    both = result("g4", ["Anna", "Ana"], [1, 2], t=1.7e9 + 180)
    both["seats"][0]["card"] = cards["Anna"]
    refused = push(both)
    assert refused.status_code == 400 and "same league player" in refused.get_json()["reason"]
    league.app.extensions["league"].rate_now()
    lines = {s.name: s.played for s in queries.standings(league.pool)}
    assert lines == {"Ana": 3, "Ben": 3}


def test_a_card_qr_text_and_the_camera_scans() -> None:
    assert card_code("http://club:8090/c/0a1b2c3d4e5f") == "0a1b2c3d4e5f"
    assert card_code("https://league.example/club/c/abc123/") == "abc123"
    for not_a_card in ("0a1b2c3d4e5f", "http://club:8090/players/3", "N7-042-1",
                       "http://club/c/has space", "javascript:/c/x"):
        assert card_code(not_a_card) is None, not_a_card
    t = [0.0]
    scans = Scans(clock=lambda: t[0])
    assert scans.saw("http://club/c/aaa") and scans.saw("http://club/c/bbb")
    assert not scans.saw("N7-042-1")
    assert scans.saw("http://club/c/aaa")  # seen again: newest last, once
    assert scans.recent() == ["bbb", "aaa"]
    t[0] = 10**6
    assert scans.recent() == []


def test_a_card_shown_to_the_camera_seats_its_player(tmp_path: Path) -> None:
    import re

    from companion.config import WebConfig
    from companion.inputs import TagSeen
    from companion.outbox import outbox_path
    from companion.players import SCANS
    from companion.table import Table
    from web import create_app as create_web
    from web.auth import host_token

    SCANS.clear()
    events = SqliteStore(tmp_path / "events.sqlite3")
    table = Table(events)
    table.start()
    try:
        seen = table.submit(TagSeen("http://club:8090/c/0a1b2c3d4e5f", at=1.0)).result(600)
        assert seen.accepted and seen.ignored and SCANS.recent() == ["0a1b2c3d4e5f"]
        other = table.submit(TagSeen("no card of ours", at=2.0)).result(600)
        assert not other.accepted and SCANS.recent() == ["0a1b2c3d4e5f"]
        app = create_web(table, web_config=WebConfig(port=8080), state_dir=tmp_path,
                         testing=True)
        box = Outbox(outbox_path(tmp_path, events))
        box.set_link(Link("http://league", "t1", "token", "Window"), 0.0)
        box.set_players([("Ana", "0a1b2c3d4e5f"), ("Ben", "bbbbbbbbbbbb")], 0.0)
        box.close()
        client = app.test_client()
        client.get(f"/host?token={host_token(tmp_path)}")
        html = client.get("/host/setup").get_data(as_text=True)
        assert re.search(r'id="player-1" name="player" value="Ana"', html), html[:2000]
        assert html.count('<option value="Ben">') == 1  # the list to type from
    finally:
        table.stop()
        events.close()
        SCANS.clear()
