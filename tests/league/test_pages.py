"""The league's pages and admin on a real PostgreSQL: admin token and CSRF, merging
players, exports (a BG Stats play file checked against the format's fields, CSV),
and no secret or id shown to people."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from companion.exports import ABOUT
from league import queries
from league.auth import admin_token
from tests.core.bgstats_format import check_format
from tests.league.conftest import joined, result


def _push(lg: Any, token: str, body: Any) -> Any:
    return lg.client.post("/api/v1/results", json=body,
                          headers={"Authorization": f"Bearer {token}"})


def _seed(lg: Any) -> None:
    _, token = joined(lg)
    _push(lg, token, result("g1", ["Ana", "Ben", "Cem"], [1, 2, 3], t=1.7e9,
                            scores=[30, 20, 10], game="illegal"))
    _push(lg, token, result("g2", ["Ana", "Ben"], [2, 1], t=1.7e9 + 60))
    _push(lg, token, result("g3", ["Anna", "Cem"], [1, 2], t=1.7e9 + 120))
    lg.app.extensions["league"].rate_now()


def _csrf(client: Any, path: str) -> str:
    html = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert found, html[:300]
    return found.group(1)


def _ids(lg: Any) -> dict[str, int]:
    return {n: i for i, n in queries.find_players(lg.pool)}


def test_admin_needs_its_token_and_csrf(league: Any) -> None:
    c = league.client
    assert c.get("/admin").status_code == 403
    assert c.get("/admin?token=wrong").status_code == 403
    r = c.post("/admin/codes", data={"name": "Window"})
    assert r.status_code == 403
    assert c.get(f"/admin?token={admin_token(league.folder)}").status_code == 302
    no_csrf = c.post("/admin/codes", data={"name": "Window"})
    assert no_csrf.status_code == 403 and "security token" in no_csrf.get_data(as_text=True)
    token = _csrf(c, "/admin")
    made = c.post("/admin/codes", data={"name": "Window", "csrf_token": token})
    assert made.status_code == 200
    code = re.search(r'<p class="big">([A-Z2-9]{8})</p>', made.get_data(as_text=True))
    assert code is not None
    other_site = c.post("/admin/codes", data={"name": "W", "csrf_token": token},
                        headers={"Origin": "http://evil.example"})
    assert other_site.status_code == 403
    joined_r = c.post("/api/v1/join", json={"code": code.group(1)})
    assert joined_r.status_code == 201


def test_admin_merges_two_names_of_one_person(league: Any) -> None:
    _seed(league)
    ids = _ids(league)
    c = league.client
    c.get(f"/admin?token={admin_token(league.folder)}")
    token = _csrf(c, "/admin")
    same_game = c.post("/admin/merge", data={"keep": ids["Ana"], "gone": ids["Ben"],
                                              "csrf_token": token})
    assert same_game.status_code == 400
    assert "two people" in same_game.get_data(as_text=True)
    r = c.post("/admin/merge", data={"keep": ids["Ana"], "gone": ids["Anna"],
                                     "csrf_token": token})
    assert r.status_code == 302
    league.app.extensions["league"].rate_now()
    lines = {s.name: s for s in queries.standings(league.pool)}
    assert "Anna" not in lines
    assert (lines["Ana"].played, lines["Ana"].wins, lines["Ana"].place_sum) == (3, 2, 4)
    assert c.get(f"/players/{ids['Anna']}").status_code == 302  # follows to Ana
    played = queries.history(league.pool, ids["Ana"])
    assert [p.result.game_id for p in played] == ["g3", "g2", "g1"]


def test_pages_show_names_never_ids(league: Any) -> None:
    _seed(league)
    ids = _ids(league)
    for path in ("/", "/?game=illegal", f"/players/{ids['Ana']}",
                 f"/players/{ids['Ana']}/vs/{ids['Ben']}", f"/players/{ids['Ana']}/card"):
        r = league.client.get(path)
        assert r.status_code == 200, path
        text = re.sub(r"<[^>]+>", " ", r.get_data(as_text=True))
        assert "Ana" in text
        for bad in ("g1", "nasty7", "illegal ", "{", "Traceback", "None"):
            assert bad not in text, (path, bad)
    missing = league.client.get("/players/999999")
    assert missing.status_code == 404 and "No such player" in missing.get_data(as_text=True)


def test_bgstats_play_file_has_the_format_fields(league: Any) -> None:
    _seed(league)
    ids = _ids(league)
    r = league.client.get(f"/players/{ids['Ana']}/plays.bgsplay")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    data = json.loads(r.get_data(as_text=True))
    check_format(data)  # every field and type documented, readable (docs/league.md)
    assert data["about"] == ABOUT
    assert set(data) >= {"players", "locations", "games", "plays", "userInfo"}
    players = {p["id"]: p for p in data["players"]}
    games = {g["id"]: g for g in data["games"]}
    locations = {loc["id"] for loc in data["locations"]}
    for p in data["players"]:
        assert set(p) >= {"uuid", "id", "name", "isAnonymous", "modificationDate"}
    for g in data["games"]:
        assert set(g) >= {"uuid", "id", "name", "modificationDate", "cooperative",
                          "highestWins", "noPoints"}
    assert {g["name"] for g in data["games"]} == {"Illegal", "The Nasty 7"}
    assert len(data["plays"]) == 2  # Ana's two games, not Anna's
    for play in data["plays"]:
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
        assert play["gameRefId"] in games and play["locationRefId"] in locations
        for s in play["playerScores"]:
            assert s["playerRefId"] in players
            assert set(s) >= {"score", "winner", "newPlayer", "startPlayer", "rank",
                              "seatOrder"}
    illegal = next(p for p in data["plays"] if games[p["gameRefId"]]["name"] == "Illegal")
    ana = next(s for s in illegal["playerScores"] if players[s["playerRefId"]]["name"] == "Ana")
    assert (ana["score"], ana["winner"], ana["rank"]) == ("30", True, 1)
    assert players[data["userInfo"]["meRefId"]]["name"] == "Ana"
    again = json.loads(league.client.get(f"/players/{ids['Ana']}/plays.bgsplay").data)
    assert [p["uuid"] for p in again["plays"]] == [p["uuid"] for p in data["plays"]]
    # the table's name is the location; nobody made up as start player; points per game
    assert {loc["name"] for loc in data["locations"]} == {"Window table"}
    assert not any(s["startPlayer"] for p in data["plays"] for s in p["playerScores"])
    assert {g["name"]: g["noPoints"] for g in data["games"]} == {"Illegal": False,
                                                                 "The Nasty 7": True}
    whole = json.loads(league.client.get("/plays.bgsplay").data)
    check_format(whole)
    assert len(whole["plays"]) == 3 and whole["userInfo"]["meRefId"] == 0
    # The Nasty 7 is linked to BoardGameGeek (docs/league.md cites the id), Illegal not
    assert {g["name"]: g["bggId"] for g in whole["games"]} == {"Illegal": 0,
                                                               "The Nasty 7": 186302}
    assert {p["name"] for p in whole["players"]} == {"Ana", "Anna", "Ben", "Cem"}


def test_csv_lists_each_play(league: Any) -> None:
    _seed(league)
    ids = _ids(league)
    text = league.client.get(f"/players/{ids['Ben']}/plays.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["game"], r["place"], r["won"]) for r in rows] == [
        ("Illegal", "2", "no"), ("The Nasty 7", "1", "yes")]
    assert rows[0]["score"] == "20" and rows[0]["players"] == "Ana; Ben; Cem"


def test_admin_revokes_a_table_its_games_stay(league: Any) -> None:
    _seed(league)
    key, token = joined(league, "Lost table")
    assert _push(league, token, result("g9", ["Ana", "Dee"], [1, 2], t=1.7e9 + 300)
                 ).status_code == 201
    c = league.client
    c.get(f"/admin?token={admin_token(league.folder)}")
    page = c.get("/admin").get_data(as_text=True)
    assert 'aria-label="Revoke Lost table"' in page
    r = c.post(f"/admin/tables/{key}/revoke", data={"csrf_token": _csrf(c, "/admin")})
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert "Lost table is revoked" in text and "Revoked on" in text
    refused = _push(league, token, result("g10", ["Ana", "Dee"], [1, 2], t=1.7e9 + 400))
    assert refused.status_code == 401 and "join it again" in refused.get_json()["reason"]
    again = c.post(f"/admin/tables/{key}/revoke", data={"csrf_token": _csrf(c, "/admin")})
    assert again.status_code == 404 and "revoked already" in again.get_data(as_text=True)
    # its past games stay: in the standings and in the players' histories
    league.app.extensions["league"].rate_now()
    lines = {s.name: s for s in queries.standings(league.pool)}
    assert lines["Dee"].played == 1
    assert [p.result.game_id for p in queries.history(league.pool, _ids(league)["Dee"])] \
        == ["g9"]
    # a table revoked cannot be revoked by anyone but the admin
    other = league.app.test_client()
    assert other.post(f"/admin/tables/{key}/revoke").status_code == 403


def test_a_player_page_draws_the_rating_over_time(league: Any) -> None:
    from companion.stats import OVERALL, ratings

    _seed(league)
    ana = _ids(league)["Ana"]
    points = queries.rating_history(league.pool, ana)
    games = sorted(((p.table, p.result) for p in queries.everything(league.pool)),
                   key=lambda tr: tr[1].finished_at)
    assert [g.game_id for _, g in games] == ["g1", "g2", "g3"]
    # each point is Ana's rating after that game, as a recomputation from the games gives
    for (t, rating), upto in zip(points, (1, 2), strict=True):
        mu, sigma = ratings(games[:upto]).get(OVERALL, "ana")
        assert abs(rating - (mu - 3 * sigma)) < 1e-9
        assert t == games[upto - 1][1].finished_at
    line = next(s for s in queries.standings(league.pool) if s.name == "Ana")
    assert abs(points[-1][1] - line.rating) < 1e-9
    html = league.client.get(f"/players/{ana}").get_data(as_text=True)
    assert "<h2>Rating over time</h2>" in html
    assert 'aria-label="Rating after each of the last 2 games, oldest first"' in html
    assert f"{line.rating:.1f}" in html
