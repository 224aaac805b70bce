"""The rater on game night, against a real PostgreSQL: late, future-dated, one-seat and
name-colliding games among ordinary ones while a reader reads the standings between
every step of the rater's pass (its transaction open). No read sees a blank or partial
table; every ordinary game is rated; each bad game is refused at the door or
quarantined with its reason; the ratings match openskill run independently here; a late
game re-rates only from where it belongs. Void, restore, a seat's player changed, a
merge and a corrected table clock, each against the same independent recomputation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from companion.results import GameResult, SeatResult
from companion.stats import key_of
from league import queries, rater, store
from tests.league.conftest import joined, result

T0 = 1.7e9
NOW = T0 + 30 * 86400.0  # the league's clock in these tests
PEOPLE = ["Ana", "Ben", "Cem", "Dee", "Eli", "Fay", "Gus", "Hal"]


def _push(lg: Any, token: str, body: Any) -> Any:
    return lg.client.post("/api/v1/results", json=body,
                          headers={"Authorization": f"Bearer {token}"})


def _ordinary(i: int) -> dict[str, Any]:
    """Game ``i``: 2 to 4 of ``PEOPLE``, ten minutes after game ``i - 1``."""
    n = 2 + i % 3
    names = [PEOPLE[(i * 3 + j) % len(PEOPLE)] for j in range(n)]
    places = [1 + (j + i) % n for j in range(n)]
    return result(f"g{i}", names, places, t=T0 + 600.0 * i,
                  game=("nasty7", "illegal", "casablanca")[i % 3])


def independent(games: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, tuple[float, float]]:
    """Overall (mu, sigma) by folded name: openskill's Plackett-Luce, game after game in
    (finished_at, table, game id) order, written here without the league's code."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=25.0, sigma=25.0 / 3)
    now: dict[str, Any] = {}
    for _, body in sorted(games, key=lambda tb: (round(tb[1]["finished_at"], 3), tb[0],
                                                 tb[1]["game_id"])):
        keys = [" ".join(s["name"].split()).casefold() for s in body["seats"]]
        teams = [[now.get(k) or model.rating()] for k in keys]
        after = model.rate(teams, ranks=[float(s["place"]) for s in body["seats"]])
        for k, team in zip(keys, after, strict=True):
            now[k] = team[0]
    return {k: (float(r.mu), float(r.sigma)) for k, r in now.items()}


def _matches(lg: Any, games: list[tuple[str, dict[str, Any]]]) -> None:
    want = independent(games)
    lines = queries.standings(lg.pool, limit=1000)
    assert {key_of(x.name) for x in lines} == set(want)
    for x in lines:
        mu, sigma = want[key_of(x.name)]
        assert abs(x.mu - mu) < 1e-6 and abs(x.sigma - sigma) < 1e-6, x.name
    played = sum(len(b["seats"]) for _, b in games)
    assert sum(x.played for x in lines) == played


class Reader:
    """Reads the standings at each step of a pass; each read must be the whole table
    the last pass committed."""

    def __init__(self, lg: Any) -> None:
        self.lg = lg
        self.committed = self.read()
        self.reads = 0

    def read(self) -> list[Any]:
        return [queries.standings(self.lg.pool, g, limit=1000) for g in ("all", "nasty7")]

    def __call__(self, step: str) -> None:
        assert self.read() == self.committed, f"the standings changed during '{step}'"
        self.reads += 1

    def rate(self) -> int:
        n = rater.rate_pending(self.lg.pool, 0.0, step=self)
        self.committed = self.read()
        return n


def _history_rows(lg: Any, before: float) -> dict[tuple[int, str, int], str]:
    """Each rating-history row of games ending before ``before``, with the transaction
    that wrote it (``xmin``): an incremental re-rate leaves them as they were."""
    with lg.pool.connection() as conn:
        rows = conn.execute("SELECT player_id, scope, game_ref, xmin::text FROM rating_history "
                            "WHERE finished_at < %s", (before,)).fetchall()
    return {(int(p), str(s), int(g)): str(x) for p, s, g, x in rows}


def _quarantine(lg: Any) -> dict[str, str]:
    with lg.pool.connection() as conn:
        rows = conn.execute("SELECT game_id, quarantine FROM games "
                            "WHERE quarantine IS NOT NULL").fetchall()
    return {str(g): str(q) for g, q in rows}


def test_game_night_never_blanks_and_matches_openskill(league: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rater, "BATCH", 6)  # several batches a pass: more reads between
    league.app.extensions["league"].wall = lambda: NOW
    tables = [joined(league, f"Table {i}") for i in range(3)]
    pushed: list[tuple[str, dict[str, Any]]] = []
    reader = Reader(league)
    assert reader.committed == [[], []]

    for i in reversed(range(30)):  # they arrive in any order
        key, token = tables[i % 3]
        assert _push(league, token, _ordinary(i)).status_code == 201
        pushed.append((key, _ordinary(i)))
    assert reader.rate() == 30
    _matches(league, pushed)
    first = reader.committed
    assert len(first[0]) == len(PEOPLE) and first[1]

    # game night: refused at the door, each with its sentence, nothing stored
    key, token = tables[0]
    refused = {
        "future": result("f1", ["Ana", "Ben"], [1, 2], t=NOW + 86400.0),
        "one seat": result("s1", ["Ana"], [1], t=T0 + 601.0),
        "names": result("n1", ["Ana B", "ana  b"], [1, 2], t=T0 + 602.0),
    }
    for why, body in refused.items():
        r = _push(league, token, body)
        assert r.status_code == 400, why
        assert r.get_json()["reason"].endswith("Nothing was stored."), why
    # stored before the league checked at the door (an older league): the rater
    # quarantines them and goes on
    auth = store.TableAuth(1, tables[0][0], "Table 0")
    for gid, seats, at in (
            ("old-one-seat", (SeatResult("Ana", 1),), T0 + 603.0),
            ("old-same", (SeatResult("Cem D", 1), SeatResult("cem  d", 2)), T0 + 604.0),
            ("old-future", (SeatResult("Ana", 1), SeatResult("Ben", 2)), 4e9)):
        assert store.push(league.pool, auth, GameResult(gid, "nasty7", seats, at, 3)) == "stored"
    # a table offline for hours: its game belongs between games 5 and 6
    late = result("late", ["Ana", "Hal", "Dee"], [2, 1, 3], t=T0 + 600.0 * 5 + 30)
    key, token = tables[1]
    assert _push(league, token, late).status_code == 201
    pushed.append((key, late))
    untouched = _history_rows(league, late["finished_at"])
    for i in range(30, 40):
        key, token = tables[i % 3]
        assert _push(league, token, _ordinary(i)).status_code == 201
        pushed.append((key, _ordinary(i)))

    assert reader.rate() == 1 + 10 + 24  # the late game, the new ones, those after the late
    assert reader.reads >= 8
    _matches(league, pushed)
    assert _history_rows(league, late["finished_at"]) == untouched  # incremental
    why = _quarantine(league)
    assert set(why) == {"old-one-seat", "old-same", "old-future"}
    assert "only one seat" in why["old-one-seat"]
    assert "same player" in why["old-same"]
    assert "clock was ahead" in why["old-future"]
    assert all(w.endswith(".") and w.count(". ") == 0 for w in why.values())
    shown = {q["reason"] for q in rater.quarantined(league.pool)}
    assert shown == set(why.values())

    # and the next ordinary game is rated as usual; a pass with nothing new changes nothing
    key, token = tables[2]
    assert _push(league, token, _ordinary(40)).status_code == 201
    pushed.append((key, _ordinary(40)))
    assert reader.rate() == 1
    _matches(league, pushed)
    assert reader.rate() == 0


def test_the_checks_can_fail(league: Any) -> None:
    """The recomputation and the reader notice a wrong rating and a changed table."""
    key, token = joined(league)
    games = [(key, _ordinary(i)) for i in range(4)]
    for _, body in games:
        _push(league, token, body)
    reader = Reader(league)
    reader.rate()
    with pytest.raises(AssertionError):
        _matches(league, games[:3])
    with league.pool.connection() as conn:
        conn.execute("UPDATE ratings SET mu = mu + 0.001 WHERE game = 'all'")
    with pytest.raises(AssertionError):
        reader("after a change")


def _ref(lg: Any, game_id: str) -> int:
    with lg.pool.connection() as conn:
        row = conn.execute("SELECT id FROM games WHERE game_id = %s", (game_id,)).fetchone()
    return int(row[0])


def test_void_restore_seat_and_merge_rerate_from_the_game(league: Any) -> None:
    key, token = joined(league)
    games = [(key, _ordinary(i)) for i in range(12)]
    for _, body in games:
        assert _push(league, token, body).status_code == 201
    rater.rate_pending(league.pool)
    _matches(league, games)

    store.void(league.pool, _ref(league, "g4"), "Sam", "pushed twice by mistake")
    assert rater.rate_pending(league.pool) == 7  # g5..g11 again
    _matches(league, [g for g in games if g[1]["game_id"] != "g4"])
    with pytest.raises(store.ChangeError, match="void already"):
        store.void(league.pool, _ref(league, "g4"), "Sam", "again")
    with pytest.raises(store.ChangeError, match="who you are and why"):
        store.restore(league.pool, _ref(league, "g4"), "Sam", " ")
    store.restore(league.pool, _ref(league, "g4"), "Sam", "it was a real game")
    rater.rate_pending(league.pool)
    _matches(league, games)
    with league.pool.connection() as conn:
        log = conn.execute("SELECT action, by_whom, why FROM game_changes ORDER BY id").fetchall()
    assert log == [("void", "Sam", "pushed twice by mistake"),
                   ("restore", "Sam", "it was a real game")]

    # a seat's player changed: g7's first seat was someone not typed at that game
    ids = {n: i for i, n in queries.find_players(league.pool)}
    g7 = games[7][1]
    other = next(n for n in PEOPLE if n not in {s["name"] for s in g7["seats"]})
    store.set_seat(league.pool, _ref(league, "g7"), 0, ids[other], "Sam", "they sat there")
    rater.rate_pending(league.pool)
    g7["seats"][0]["name"] = other
    _matches(league, games)

    # a merge: two names of one person who never sat together
    pairs = [(a, b) for a in PEOPLE for b in PEOPLE if a < b and not any(
        {a, b} <= {s["name"] for s in body["seats"]} for _, body in games)]
    keep, gone = pairs[0]
    store.merge(league.pool, ids[keep], ids[gone])
    rater.rate_pending(league.pool)
    for _, body in games:
        for seat in body["seats"]:
            seat["name"] = keep if seat["name"] == gone else seat["name"]
    _matches(league, games)


def test_a_quarantined_game_is_freed_by_fixing_a_seat(league: Any) -> None:
    key, token = joined(league)
    games = [(key, _ordinary(i)) for i in range(3)]
    for _, body in games:
        _push(league, token, body)
    auth = store.TableAuth(1, key, "Window table")
    bad = GameResult("same", "nasty7", (SeatResult("Ana", 1), SeatResult("ana", 2)),
                     T0 + 60.0, 3)
    store.push(league.pool, auth, bad)
    rater.rate_pending(league.pool)
    assert "same player" in _quarantine(league)["same"]
    _matches(league, games)
    ids = {n: i for i, n in queries.find_players(league.pool)}
    store.set_seat(league.pool, _ref(league, "same"), 1, ids["Ben"], "Sam", "it was Ben")
    rater.rate_pending(league.pool)
    assert _quarantine(league) == {}
    fixed = result("same", ["Ana", "Ben"], [1, 2], t=T0 + 60.0)
    _matches(league, [*games, (key, fixed)])


def test_a_table_clock_that_is_off_is_corrected(league: Any) -> None:
    league.app.extensions["league"].wall = lambda: NOW
    key, token = joined(league)
    behind = 3 * 86400.0  # the Pi booted without its clock: three days behind
    body = result("g1", ["Ana", "Ben"], [1, 2], t=NOW - behind - 3600)
    body["sent_at"] = NOW - behind
    assert _push(league, token, body).status_code == 201
    ahead = result("g2", ["Ana", "Ben"], [2, 1], t=NOW + 86400.0 - 60)
    ahead["sent_at"] = NOW + 86400.0  # a day ahead: corrected, not refused
    assert _push(league, token, ahead).status_code == 201
    with league.pool.connection() as conn:
        rows = dict(conn.execute("SELECT game_id, finished_at - clock_offset FROM games "
                                 "WHERE clock_offset <> 0").fetchall())
        at = dict(conn.execute("SELECT game_id, finished_at FROM games").fetchall())
    assert set(rows) == {"g1", "g2"}
    assert abs(at["g1"] - (NOW - 3600)) < 1e-3 and abs(at["g2"] - (NOW - 60)) < 1e-3
    league.app.extensions["league"].rate_now()
    assert {x.name: x.wins for x in queries.standings(league.pool)} == {"Ana": 1, "Ben": 1}
