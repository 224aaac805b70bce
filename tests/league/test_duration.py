"""A pushed result's ``started_at`` on a real PostgreSQL: accepted and stored (corrected
with the table's clock), refused when after ``finished_at``, and the league's BG Stats
exports (a player's and the whole league's) give each play's ``durationMin`` from it."""

from __future__ import annotations

import json
from typing import Any

from league import queries
from tests.league.conftest import joined, result

T = 1.7e9
NOW = T + 30 * 86400.0


def _push(lg: Any, token: str, body: Any) -> Any:
    return lg.client.post("/api/v1/results", json=body,
                          headers={"Authorization": f"Bearer {token}"})


def _started(lg: Any) -> dict[str, Any]:
    with lg.pool.connection() as conn:
        return dict(conn.execute("SELECT game_id, started_at FROM games").fetchall())


def test_a_start_is_stored_and_gives_the_duration(league: Any) -> None:
    league.app.extensions["league"].wall = lambda: NOW
    _, token = joined(league)
    long = result("g1", ["Ana", "Ben"], [1, 2], t=T + 3000, scores=[30, 20], game="illegal")
    long["started_at"] = T + 300  # 45 minutes
    r = _push(league, token, long)
    assert r.status_code == 201, r.get_json()
    short = result("g2", ["Ana", "Cem"], [2, 1], t=T + 4000)
    short["started_at"] = T + 4000 - 89.5  # 1.49 minutes: 1
    assert _push(league, token, short).status_code == 201
    older = result("g3", ["Ben", "Cem"], [1, 2], t=T + 5000)  # a table from before
    assert _push(league, token, older).status_code == 201

    late = result("g4", ["Ana", "Ben"], [1, 2], t=T + 3600, seq=5)
    late["started_at"] = T + 3601
    r = _push(league, token, late)
    assert r.status_code == 400
    reason = r.get_json()["reason"]
    assert "'started_at' is after 'finished_at'" in reason, reason
    assert reason.endswith("Nothing was stored.") and "{" not in reason, reason
    for bad in (True, "1700000000", -5):
        r = _push(league, token, {**late, "started_at": bad})
        assert r.status_code == 400 and "'started_at' must be a time" in \
            r.get_json()["reason"], (bad, r.get_json())

    assert _started(league) == {"g1": T + 300, "g2": T + 4000 - 89.5, "g3": None}
    # a game pushed again with more events (a higher seq) keeps its new start
    again = {**long, "seq": 20, "started_at": T + 600}
    assert _push(league, token, again).status_code == 201
    assert _started(league)["g1"] == T + 600
    league.app.extensions["league"].rate_now()

    whole = json.loads(league.client.get("/plays.bgsplay").data)
    by_game = {g["id"]: g["name"] for g in whole["games"]}
    minutes = sorted((by_game[p["gameRefId"]], p["durationMin"]) for p in whole["plays"])
    assert minutes == [("Illegal", 40), ("The Nasty 7", 0), ("The Nasty 7", 1)]
    ids = {n: i for i, n in queries.find_players(league.pool)}
    mine = json.loads(league.client.get(f"/players/{ids['Ana']}/plays.bgsplay").data)
    assert sorted(p["durationMin"] for p in mine["plays"]) == [1, 40]


def test_a_start_is_corrected_with_the_tables_clock(league: Any) -> None:
    league.app.extensions["league"].wall = lambda: NOW
    _, token = joined(league)
    behind = 3 * 86400.0  # the Pi booted without its clock: three days behind
    body = result("g1", ["Ana", "Ben"], [1, 2], t=NOW - behind - 600)
    body["started_at"] = NOW - behind - 600 - 1800
    body["sent_at"] = NOW - behind
    assert _push(league, token, body).status_code == 201
    with league.pool.connection() as conn:
        row = conn.execute("SELECT started_at, finished_at, clock_offset FROM games").fetchone()
    assert row is not None
    started, finished, offset = row
    assert abs(offset - behind) < 1e-3
    assert abs(finished - (NOW - 600)) < 1e-3 and abs(started - (NOW - 2400)) < 1e-3
    league.app.extensions["league"].rate_now()
    whole = json.loads(league.client.get("/plays.bgsplay").data)
    assert [p["durationMin"] for p in whole["plays"]] == [30]
