"""The push API on a real PostgreSQL: join codes, table tokens, idempotent pushes,
refused pushes that store nothing, size and rate limits, migrations."""

from __future__ import annotations

from typing import Any

import psycopg

from league import queries, store
from league.db import migrate, migrations
from tests.league.conftest import joined, result


def _push(lg: Any, token: str, body: Any, **kw: Any) -> Any:
    return lg.client.post("/api/v1/results", json=body,
                          headers={"Authorization": f"Bearer {token}"}, **kw)


def _count(lg: Any, sql: str) -> int:
    with lg.pool.connection() as conn:
        row = conn.execute(sql).fetchone()
    return int(row[0])


def test_join_code_works_once(league: Any) -> None:
    code = store.new_join_code(league.pool, "Window")
    first = league.client.post("/api/v1/join", json={"code": code[:4] + "-" + code[4:]})
    assert first.status_code == 201
    assert first.get_json()["name"] == "Window"
    again = league.client.post("/api/v1/join", json={"code": code})
    assert again.status_code == 400
    assert "used already" in again.get_json()["reason"]
    wrong = league.client.post("/api/v1/join", json={"code": "ZZZZZZZZ"})
    assert "not known" in wrong.get_json()["reason"]


def test_push_is_idempotent_per_table_game_seq(league: Any) -> None:
    _, token = joined(league)
    body = result("g1", ["Ana", "Ben", "Cem"], [1, 2, 3])
    assert _push(league, token, body).get_json()["outcome"] == "stored"
    again = _push(league, token, body)
    assert again.status_code == 200 and again.get_json()["outcome"] == "already stored"
    assert _count(league, "SELECT count(*) FROM games") == 1
    league.app.extensions["league"].rate_now()  # the rater folds the standings
    lines = {s.name: s for s in queries.standings(league.pool)}
    assert (lines["Ana"].played, lines["Ana"].wins) == (1, 1)
    newer = result("g1", ["Ana", "Ben", "Cem"], [2, 1, 3], seq=11)
    assert _push(league, token, newer).get_json()["outcome"] == "replaced"
    league.app.extensions["league"].rate_now()
    lines = {s.name: s for s in queries.standings(league.pool)}
    assert (lines["Ana"].played, lines["Ana"].wins, lines["Ben"].wins) == (1, 0, 1)


def test_a_table_writes_only_its_own_games(league: Any) -> None:
    _, token_a = joined(league, "A")
    _, token_b = joined(league, "B")
    body = result("same-id", ["Ana", "Ben"], [1, 2])
    assert _push(league, token_a, body).status_code == 201
    # table B pushing a game with the same id is B's own game, never A's
    other = result("same-id", ["Ana", "Ben"], [2, 1])
    assert _push(league, token_b, other).get_json()["outcome"] == "stored"
    rows = {r.table: r.result.seats[0].place for r in queries.everything(league.pool)}
    assert rows == {"t1": 1, "t2": 2}


def test_unknown_token_and_no_token_are_refused(league: Any) -> None:
    body = result("g1", ["Ana", "Ben"], [1, 2])
    r = _push(league, "not-a-token", body)
    assert r.status_code == 401 and "join it again" in r.get_json()["reason"]
    r = league.client.post("/api/v1/results", json=body)
    assert r.status_code == 401
    assert _count(league, "SELECT count(*) FROM games") == 0


def test_bad_push_is_refused_and_nothing_stored(league: Any) -> None:
    _, token = joined(league)
    bad: list[tuple[Any, str]] = [
        ({**result("g", ["Ana", "Ben"], [1, 2]), "game": "chess"}, "chess"),
        (result("g", ["Ana", "ana"], [1, 2]), "same player name"),
        (result("g", ["Ana", "Ben"], [1, 5]), "place must be a whole number from 1 to 2"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "version": 9}, "result version"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "seats": []}, "2 to 12 players"),
        (result("g", ["Ana"], [1]), "at least two"),
        (result("g", ["Ana B", "ana  b"], [1, 2]), "same player name"),
        (result("g", ["Ana\x00", "Ben"], [1, 2]), "control character"),
        (result("g", ["Ana\ud800", "Ben"], [1, 2]), "control character"),
        ({**result("g\n1", ["Ana", "Ben"], [1, 2])}, "control character"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "lower_wins": "no"}, "true or false"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "colour": "red"}, "does not know (colour)"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "seq": "10"}, "whole number"),
        (result("g", ["Ana", "Ben"], [2, 2]), "nobody has place 1"),
        (result("g", ["Ana", "Ben", "Cem"], [1, 3, 3]), "place 3 follows only 1"),
        (result("g", ["A" * 41, "Ben"], [1, 2]), "1 to 40 characters"),
        (result("g", ["Ana", "Ben"], [1, 2], t=2e9 + 3600), "in the future"),
        ({**result("g", ["Ana", "Ben"], [1, 2]), "finished_at": 5.0}, "before the year 2000"),
        ([1, 2], "one JSON object"),
    ]
    league.app.extensions["league"].wall = lambda: 2e9
    seat = result("g", ["Ana", "Ben"], [1, 2])
    seat["seats"][0]["colour"] = "red"
    bad.append((seat, "seat 1 has fields the league does not know"))
    for body, why in bad:
        r = _push(league, token, body)
        assert r.status_code == 400, body
        reason = r.get_json()["reason"]
        assert why in reason, reason
        assert "{" not in reason and "Traceback" not in reason
        assert reason.endswith("Nothing was stored."), reason
    assert _count(league, "SELECT count(*) FROM games") == 0
    assert _count(league, "SELECT count(*) FROM players") == 0


def test_request_size_and_rate_limits(league: Any) -> None:
    _, token = joined(league)
    big = result("g", ["Ana", "Ben"], [1, 2])
    big["pad"] = "x" * 20000
    r = _push(league, token, big)
    assert r.status_code == 413 and "nothing was stored" in r.get_json()["reason"]
    codes = [_push(league, token, result(f"g{i}", ["Ana", "Ben"], [1, 2])).status_code
             for i in range(40)]
    # the refused big push counted as one of the burst of 30
    assert codes[:29] == [201] * 29 and codes[29:] == [429] * 11
    league.clock.t += 5.0  # two a second come back
    assert _push(league, token, result("later", ["Ana", "Ben"], [1, 2])).status_code == 201
    assert _count(league, "SELECT count(*) FROM games") == 30


def test_join_attempts_are_rate_limited(league: Any) -> None:
    codes = [league.client.post("/api/v1/join", json={"code": "WRONGCODE"}).status_code
             for _ in range(7)]
    assert codes[:5] == [400] * 5 and codes[5:] == [429, 429]


def test_migrations_apply_once(league_dsn: str) -> None:
    with psycopg.connect(league_dsn) as conn:
        assert migrate(conn) == [name for _, name, _ in migrations()]
        assert migrate(conn) == []  # a second start applies nothing
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == [v for v, _, _ in migrations()]


def test_ratings_follow_game_order_whatever_the_arrival(league: Any) -> None:
    from companion.results import GameResult
    from companion.stats import ratings

    _, token = joined(league)
    bodies = [result(f"g{i}", ["Ana", "Ben", "Cem"], p, t=1.7e9 + i)
              for i, p in enumerate([[1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 3, 2]])]
    for b in bodies[1:]:
        _push(league, token, b)
    league.app.extensions["league"].rate_now()
    _push(league, token, bodies[0])  # arrives late: sorts before every rated game
    league.app.extensions["league"].rate_now()
    want = ratings([("t1", GameResult.from_json(b)) for b in bodies])
    for line in queries.standings(league.pool):
        mu, sigma = want.get("all", line.name.casefold())
        assert abs(line.mu - mu) < 1e-9 and abs(line.sigma - sigma) < 1e-9


def test_a_game_being_played_counts_only_once_final(league: Any) -> None:
    _, token = joined(league)
    live = {**result("g1", ["Ana", "Ben"], [1, 1], seq=3), "final": False}
    assert _push(league, token, live).get_json()["outcome"] == "stored"
    assert [p.result.game_id for p in queries.playing_now(league.pool)] == ["g1"]
    league.app.extensions["league"].rate_now()  # the rater counts final games only
    assert queries.standings(league.pool) == []
    later = {**live, "seq": 5}
    assert _push(league, token, later).get_json()["outcome"] == "stored"
    final = result("g1", ["Ana", "Ben"], [1, 2], seq=9)
    assert _push(league, token, final).get_json()["outcome"] == "stored"
    late_live = {**live, "seq": 12}  # a live update that arrives after the end
    assert _push(league, token, late_live).get_json()["outcome"] == "already stored"
    assert queries.playing_now(league.pool) == []
    league.app.extensions["league"].rate_now()
    lines = {s.name: s for s in queries.standings(league.pool)}
    assert (lines["Ana"].played, lines["Ana"].wins, lines["Ben"].wins) == (1, 1, 0)
    assert _count(league, "SELECT count(*) FROM games") == 1
