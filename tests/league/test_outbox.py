"""The table's outbox against a real league on PostgreSQL: every finished game reaches
the league once, through a league that is away, a lost answer (a power cut between the
league storing and the table hearing it) and a table restart; backoff on a fake clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.outbox import Link, Outbox, backoff
from companion.results import result_of_store
from companion.store import SqliteStore
from league import queries, store
from tests.league.tables import FINISHED, NAMES, record_lines, store_finished, store_game


def _table(tmp: Path) -> SqliteStore:
    return store_finished(SqliteStore(tmp / "events.sqlite3"))


class LeagueSender:
    """Sends through the league's test client; can be away, or lose the answers."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.away = False
        self.lose_answers = False
        self.sent = 0

    def __call__(self, url: str, token: str, body: dict[str, Any]) -> tuple[int, str]:
        if self.away:
            raise ConnectionRefusedError("connection refused")
        r = self.client.post("/api/v1/results", json=body,
                             headers={"Authorization": f"Bearer {token}"})
        self.sent += 1
        if self.lose_answers:  # stored by the league, the answer never arrived
            raise TimeoutError("timed out")
        return r.status_code, (r.get_json() or {}).get("reason", "")


def _games(lg: Any) -> int:
    with lg.pool.connection() as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def test_every_game_reaches_the_league_once(league: Any, tmp_path: Path) -> None:
    events = _table(tmp_path)
    code = store.new_join_code(league.pool, "Window")
    joined = league.client.post("/api/v1/join", json={"code": code}).get_json()
    box = Outbox(tmp_path / "outbox.sqlite3")
    assert box.collect(events) == 3 and box.collect(events) == 0
    send = LeagueSender(league.client)
    assert box.push_due(0.0, send) == 0  # no league yet: nothing sent
    box.set_link(Link("http://league", joined["table"], joined["token"], "Window"), 0.0)

    send.away = True
    assert box.push_due(100.0, send) == 0
    status = box.status()
    assert status.pending == 3 and "cannot be reached" in status.last_error
    send.away = False
    assert box.push_due(100.0 + backoff(1) - 0.001, send) == 0  # still waiting
    assert send.sent == 0

    send.lose_answers = True  # the league stores the first, the table never hears it
    assert box.push_due(100.0 + backoff(1), send) == 0
    assert _games(league) == 1
    box.close()  # the table loses power; it comes back with the same outbox file
    box = Outbox(tmp_path / "outbox.sqlite3")
    send.lose_answers = False
    assert box.push_due(100.0 + backoff(1) + backoff(2), send) == 3, box.status()
    assert _games(league) == 3  # the retried game was "already stored", not counted twice
    assert box.status().pushed == 3 and box.status().pending == 0
    assert box.push_due(10**9, send) == 0

    mine = {r.game_id: r for r in box.results()}
    for info in events.games():
        want = result_of_store(events, info.game_id)
        assert want is not None and mine[info.game_id].to_json() == want.to_json()
    played = sum(len(r.seats) for r in mine.values())
    league.app.extensions["league"].rate_now()  # the rater folds the standings
    assert sum(line.played for line in queries.standings(league.pool, "all")) == played
    box.close()


def test_backoff_doubles_to_an_hour() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [5.0, 10.0, 20.0, 40.0]
    assert backoff(30) == 3600.0


def test_a_refused_result_is_kept_and_says_why(league: Any, tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite3")
    events = _table(tmp_path)
    box.collect(events)
    box.set_link(Link("http://league", "t1", "wrong-token", "W"), 0.0)
    send = LeagueSender(league.client)
    assert box.push_due(0.0, send) == 0
    status = box.status()
    assert status.pending == 3 and "join it again" in status.last_error
    assert send.sent == 1  # an unknown token stops the round: no hammering
    box.close()


def test_the_host_may_share_the_game_being_played(league: Any, tmp_path: Path) -> None:
    events = SqliteStore(tmp_path / "events.sqlite3")
    game, name = FINISHED[0]
    lines = record_lines(game, name, NAMES)
    info = store_game(events, lines[:6], close=False)
    code = store.new_join_code(league.pool, "Window")
    joined = league.client.post("/api/v1/join", json={"code": code}).get_json()
    box = Outbox(tmp_path / "outbox.sqlite3")
    box.set_link(Link("http://league", joined["table"], joined["token"], "Window"), 0.0)
    send = LeagueSender(league.client)
    assert box.collect(events) == 0  # not shared unless the host says so
    box.set_live(True)
    assert box.collect(events) == 1
    assert box.push_due(0.0, send) == 1
    now = queries.playing_now(league.pool)
    assert [p.result.game_id for p in now] == [info.game_id]
    assert queries.standings(league.pool) == [] and box.results() == []
    assert box.status().pending == 0 and box.status().pushed == 0  # finished games only
    box.close()
    events.close()


class Answers:
    """A league that answers each push with the next code of a list (no network)."""

    def __init__(self, *codes: int) -> None:
        self.codes = list(codes)
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, url: str, token: str, body: dict[str, Any]) -> tuple[int, str]:
        self.bodies.append(body)
        code = self.codes.pop(0)
        return code, "" if code < 300 else f"reason {code}"


def test_a_4xx_refusal_is_final_and_push_now_ignores_the_wait(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite3", wall=lambda: 1.75e9)
    box.collect(_table(tmp_path))
    box.set_link(Link("http://league", "t1", "token", "W"), 0.0)
    send = Answers(422, 413, 429)
    assert box.push_due(0.0, send) == 0
    assert all(b["sent_at"] == 1.75e9 for b in send.bodies)  # the table's clock goes along
    waiting = box.waiting()
    assert [w.refused for w in waiting].count(True) == 2
    assert {w.last_error for w in waiting if w.refused} == {"reason 422", "reason 413"}
    late = next(w for w in waiting if not w.refused)
    assert late.next_try == backoff(1) and late.last_error == "reason 429"
    assert late.names and late.game
    assert box.push_due(1.0, Answers()) == 0  # not due yet, and refused ones never again
    assert box.push_due(1.0, Answers(201), force=True) == 1  # "Push now"
    assert box.status().pushed == 1 and box.status().refused == 2
    assert box.push_due(10**9, Answers()) == 0
    box.close()
