"""The rater: the one writer of the standings, the ratings and the rating history.

A push only inserts its game and results (``games.counted`` and ``games.rated`` false),
so pushes never wait on shared rows. The rater (a thread of the server, woken by each
push) then, in **one transaction per pass**, so a reader sees the old standings until
the new ones are whole:

1. **checks** every game not counted yet, and **quarantines** one it cannot rate (one
   seat, two seats that are one player, a time after the league received it, a game the
   league does not know) with a one-sentence reason (``games.quarantine``, shown on the
   admin page): it is kept, counted nowhere, and the rater goes on with the rest;
2. **counts** every other new game into ``player_stats`` (played, wins, sum of places
   per game and overall: sums, in any order; one SQL statement) and gives each new
   (game, player) its starting rating;
3. **rewinds**, when a game sorts before the last one rated (a table offline for
   hours), a result was replaced, a game voided or restored or players merged (a row in
   ``rerate_requests`` with where it starts): only the rating history from that game on
   is taken away, and each player touched gets back the rating they had just before it;
4. **rates** games in ``order_key`` order (when the game finished, then table and game
   id) with openskill (``companion.stats.rate``), writing ``ratings`` and one
   ``rating_history`` row per seat, so the same games always give the same ratings,
   whatever order they arrived in.

A game sorting after the last one rated is rated once it has been in the league
``settle_s`` seconds (games that ended a moment apart at different tables arrive in any
order), and never past an earlier such game still settling; a late game (sorting before
the last one rated) is rated at once, and the pass then goes at least as far as the last
one rated before, so a pass never shows fewer games rated than the one before it. The
rater row is locked for a pass, so two servers never rate at once; the admin's changes
(``league.store``) take the same lock.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool

from companion import games as registry
from companion.stats import MU, OVERALL, SIGMA, rate

BATCH = 500
#: how long a pushed game waits before it is rated (on the server; the tests rate at once)
SETTLE_S = 10.0
#: a game may end at most this long after the league received it (15 minutes: clocks
#: differ a little, and a table stamps a game with its last action)
MAX_SKEW_S = 900.0
#: a game's place in the rating order: (finished_at, table key, game id)
Key = tuple[float, str, str]

RATEABLE = "g.final AND g.voided_at IS NULL AND g.quarantine IS NULL"

#: every rateable game not yet counted, added to the stats lines in one statement
_COUNT = (
    "WITH c AS (UPDATE games g SET counted = true WHERE " + RATEABLE + " AND NOT g.counted "
    "RETURNING g.id, g.game), "
    "l AS (SELECT v.g, r.player_id AS p, r.place AS q FROM c JOIN results r "
    "ON r.game_ref = c.id, LATERAL (VALUES (c.game), ('all')) v(g)), "
    "s AS (INSERT INTO player_stats (game, player_id, played, wins, place_sum) "
    "SELECT g, p, count(*), count(*) FILTER (WHERE q = 1), sum(q) FROM l GROUP BY g, p "
    "ORDER BY g, p ON CONFLICT (game, player_id) DO UPDATE SET "
    "played = player_stats.played + excluded.played, "
    "wins = player_stats.wins + excluded.wins, "
    "place_sum = player_stats.place_sum + excluded.place_sum RETURNING game, player_id) "
    "INSERT INTO ratings (game, player_id, mu, sigma) SELECT game, player_id, %s, %s FROM s "
    "ORDER BY game, player_id ON CONFLICT (game, player_id) DO NOTHING")

#: the games of ``ids`` taken out of the stats lines (voided, quarantined, replaced...)
_UNCOUNT = (
    "WITH c AS (UPDATE games SET counted = false WHERE id = ANY(%s) AND counted "
    "RETURNING id, game), "
    "l AS (SELECT v.g, r.player_id AS p, r.place AS q FROM c JOIN results r "
    "ON r.game_ref = c.id, LATERAL (VALUES (c.game), ('all')) v(g)) "
    "UPDATE player_stats s SET played = s.played - d.n, wins = s.wins - d.w, "
    "place_sum = s.place_sum - d.ps FROM (SELECT g, p, count(*) AS n, "
    "count(*) FILTER (WHERE q = 1) AS w, sum(q) AS ps FROM l GROUP BY g, p) d "
    "WHERE s.game = d.g AND s.player_id = d.p")

#: what the rater checks of each new game before counting it
_CHECK = (
    "SELECT g.id, g.game, g.finished_at > extract(epoch FROM g.received_at) + %s, "
    "count(r.seat), count(DISTINCT r.player_id) FROM games g "
    "LEFT JOIN results r ON r.game_ref = g.id WHERE " + RATEABLE + " AND NOT g.counted "
    "GROUP BY g.id")

#: the earliest game after ``p`` (in rating order) still settling: nothing after it is
#: rated yet
_SETTLING = (
    "SELECT finished_at, table_key, game_id FROM games g WHERE NOT rated AND " + RATEABLE +
    " AND received_at > now() - make_interval(secs => %(s)s) AND (%(f)s::float8 IS NULL OR "
    "(finished_at, table_key, game_id) > (%(f)s::float8, %(t)s::text COLLATE \"C\", "
    "%(g)s::text COLLATE \"C\")) ORDER BY finished_at, table_key, game_id LIMIT 1")
_NEXT = (
    "SELECT id, game, finished_at, table_key, game_id FROM games g WHERE NOT rated AND "
    + RATEABLE + " AND (%(f)s::float8 IS NULL OR (finished_at, table_key, game_id) < "
    "(%(f)s::float8, %(t)s::text COLLATE \"C\", %(g)s::text COLLATE \"C\")) "
    "ORDER BY finished_at, table_key, game_id LIMIT %(n)s")
#: the earliest rateable game not rated that sorts before the last one rated
_LATE = (
    "SELECT finished_at, table_key, game_id FROM games g WHERE NOT rated AND " + RATEABLE +
    " AND (finished_at, table_key, game_id) < (%s::float8, %s::text COLLATE \"C\", "
    "%s::text COLLATE \"C\") ORDER BY finished_at, table_key, game_id LIMIT 1")


def uncount(conn: Connection[Any], ids: Sequence[int]) -> None:
    """Take the games ``ids`` out of the stats lines (the caller holds the rater lock)."""
    if ids:
        conn.execute(_UNCOUNT, (list(ids),))


def lock(conn: Connection[Any]) -> Key | None:
    """Take the rater's lock for this transaction; the key of the last game rated."""
    row = conn.execute("SELECT finished_at, table_key, game_id FROM rater WHERE id = 1 "
                       "FOR UPDATE").fetchone()
    if row is None or row[0] is None:
        return None
    return (float(row[0]), str(row[1]), str(row[2]))


def request_rerate(conn: Connection[Any], start: Key | None) -> None:
    """Ask the rater to rate again from ``start`` (None: from the first game)."""
    f, t, g = start if start is not None else (None, None, None)
    conn.execute("INSERT INTO rerate_requests (from_at, from_table, from_game) "
                 "VALUES (%s, %s, %s)", (f, t, g))


def reason_for(game: str, seats: int, players: int, future: bool) -> str | None:
    """Why a game cannot be rated, in one sentence; None when it can."""
    if game not in registry.available():
        return (f"The league does not know the game '{game}': void it, or update the "
                "league so it knows this game.")
    if seats < 2:
        return ("It has only one seat; a league game needs at least two players: void "
                "it, or push it again from the table with every player.")
    if players < seats:
        return ("Two of its seats are the same player: change one seat's player, or "
                "void it.")
    if future:
        return ("It ended after the league received it (the table's clock was ahead): "
                "set the table's clock and push it again, or void it.")
    return None


def _check(conn: Connection[Any]) -> int:
    """Quarantine each new game that cannot be rated; how many."""
    bad = []
    for gid, game, future, seats, players in conn.execute(_CHECK, (MAX_SKEW_S,)):
        why = reason_for(str(game), int(seats), int(players), bool(future))
        if why is not None:
            bad.append((why, int(gid)))
    if bad:
        conn.cursor().executemany("UPDATE games SET quarantine = %s WHERE id = %s", bad)
    return len(bad)


def _rewind(conn: Connection[Any], start: Key | None) -> None:
    """Take away the rating history from ``start`` on (None: all of it); every player
    touched gets back the rating they had just before it."""
    f, t, g = start if start is not None else (None, None, None)
    since = ("(%(f)s::float8 IS NULL OR (g.finished_at, g.table_key, g.game_id) >= (%(f)s::float8, "
             "%(t)s::text COLLATE \"C\", %(g)s::text COLLATE \"C\"))")
    args = {"f": f, "t": t, "g": g}
    conn.execute("UPDATE games g SET rated = false WHERE rated AND " + since, args)
    gone = conn.execute(  # by the games' order (an admin's change unrated some already)
        "DELETE FROM rating_history h USING games g WHERE h.game_ref = g.id AND " + since +
        " RETURNING h.player_id, h.scope", args).fetchall()
    pairs = sorted({(int(p), str(s)) for p, s in gone})
    if pairs:
        conn.execute(
            "UPDATE ratings r SET mu = coalesce(b.mu, %s), sigma = coalesce(b.sigma, %s) "
            "FROM unnest(%s::bigint[], %s::text[]) AS x(p, s) LEFT JOIN LATERAL ("
            "SELECT h.mu, h.sigma FROM rating_history h JOIN games gg ON gg.id = h.game_ref "
            "WHERE h.player_id = x.p AND h.scope = x.s ORDER BY h.finished_at DESC, "
            "gg.table_key DESC, gg.game_id DESC LIMIT 1) b ON true "
            "WHERE r.player_id = x.p AND r.game = x.s",
            (MU, SIGMA, [p for p, _ in pairs], [s for _, s in pairs]))
    last = conn.execute(
        "SELECT finished_at, table_key, game_id FROM games WHERE rated "
        "ORDER BY finished_at DESC, table_key DESC, game_id DESC LIMIT 1").fetchone()
    conn.execute("UPDATE rater SET finished_at = %s, table_key = %s, game_id = %s WHERE id = 1",
                 (None, None, None) if last is None else tuple(last))


def _rate_all(lines: list[tuple[int, int]], game: str,
              known: dict[tuple[str, int], tuple[float, float]]
              ) -> dict[str, list[tuple[float, float]]] | str:
    """The new ratings of one game's seats per scope, or why they cannot be computed."""
    out = {}
    for scope in (game, OVERALL):
        try:
            new = rate([known.get((scope, pid), (MU, SIGMA)) for pid, _ in lines],
                       [place for _, place in lines])
        except (ValueError, ArithmeticError, TypeError) as exc:
            return (f"The rater could not rate it ({str(exc)[:120]}): check its places, "
                    "or void it.")
        if not all(math.isfinite(x) for v in new for x in v):
            return "The rater got no finite rating for it: check its places, or void it."
        out[scope] = new
    return out


def _batch(conn: Connection[Any], before: Key | None) -> tuple[int, int]:
    """Rate the next batch of games (those sorting before ``before``): how many games
    were looked at, and how many of them were quarantined."""
    f, t, g = before if before is not None else (None, None, None)
    games = conn.execute(_NEXT, {"f": f, "t": t, "g": g, "n": BATCH}).fetchall()
    if not games:
        return 0, 0
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for ref, pid, place in conn.execute(
            "SELECT game_ref, player_id, place FROM results WHERE game_ref = ANY(%s) "
            "ORDER BY game_ref, seat", ([g[0] for g in games],)):
        seats[int(ref)].append((int(pid), int(place)))
    players = sorted({pid for lines in seats.values() for pid, _ in lines})
    known: dict[tuple[str, int], tuple[float, float]] = {
        (str(g), int(p)): (float(m), float(s)) for g, p, m, s in conn.execute(
            "SELECT game, player_id, mu, sigma FROM ratings WHERE player_id = ANY(%s)",
            (players,))}
    changed: set[tuple[str, int]] = set()
    history: list[tuple[int, str, int, float, float, float]] = []
    bad: list[tuple[str, int]] = []
    for ref, game, finished, *_ in games:
        lines = seats.get(int(ref), [])
        new = _rate_all(lines, str(game), known)
        if isinstance(new, str):
            bad.append((new, int(ref)))
            continue
        for scope, values in new.items():
            for (pid, _), v in zip(lines, values, strict=True):
                known[(scope, pid)] = v
                changed.add((scope, pid))
                history.append((pid, scope, int(ref), float(finished), *v))
    rows = sorted(changed)
    conn.execute(
        "INSERT INTO ratings (game, player_id, mu, sigma) SELECT * FROM unnest("
        "%s::text[], %s::bigint[], %s::float8[], %s::float8[]) "
        "ON CONFLICT (game, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
        ([r[0] for r in rows], [r[1] for r in rows], [known[r][0] for r in rows],
         [known[r][1] for r in rows]))
    with conn.cursor().copy("COPY rating_history (player_id, scope, game_ref, finished_at, mu, "
                            "sigma) FROM STDIN") as cp:
        for h in history:
            cp.write_row(h)
    if bad:
        conn.cursor().executemany("UPDATE games SET quarantine = %s WHERE id = %s", bad)
        uncount(conn, [ref for _, ref in bad])
    bad_ids = {ref for _, ref in bad}
    done = [int(g[0]) for g in games if int(g[0]) not in bad_ids]
    conn.execute("UPDATE games SET rated = true WHERE id = ANY(%s)", (done,))
    last = next((g for g in reversed(games) if int(g[0]) not in bad_ids), None)
    if last is not None:
        conn.execute("UPDATE rater SET finished_at = %s, table_key = %s, game_id = %s "
                     "WHERE id = 1", (last[2], last[3], last[4]))
    return len(games), len(bad)


def _start(conn: Connection[Any], position: Key | None) -> tuple[bool, Key | None]:
    """Whether the pass rewinds, and from where (None: from the first game)."""
    starts: list[Key | None] = []
    for f, t, g in conn.execute("DELETE FROM rerate_requests "
                                "RETURNING from_at, from_table, from_game").fetchall():
        starts.append(None if f is None else (float(f), str(t), str(g)))
    if position is not None:
        row = conn.execute(_LATE, position).fetchone()
        if row is not None:
            starts.append((float(row[0]), str(row[1]), str(row[2])))
    if not starts:
        return False, None
    if any(s is None for s in starts):
        return True, None
    return True, min(s for s in starts if s is not None)


def rate_pending(pool: ConnectionPool, settle_s: float = 0.0,
                 step: Callable[[str], None] | None = None) -> int:
    """One pass, in one transaction: check and count every new game, rewind where a
    change asks it, and rate those settled; how many games were rated. ``step`` is
    called between the pass's steps, the transaction open (the tests read the standings
    there, from another connection)."""
    total = 0
    said = step or (lambda _: None)
    with pool.connection() as conn:
        position = lock(conn)
        _check(conn)
        said("checked")
        conn.execute(_COUNT, (MU, SIGMA))
        said("counted")
        rewind, start = _start(conn, position)
        if rewind:
            _rewind(conn, start)
            said("rewound")
        f, t, g = position if position is not None else (None, None, None)
        settling = conn.execute(_SETTLING, {"s": settle_s, "f": f, "t": t, "g": g}).fetchone()
        bound: Key | None = None if settling is None else (
            float(settling[0]), str(settling[1]), str(settling[2]))
        while True:
            n, bad = _batch(conn, bound)
            total += n - bad
            said("rated")
            if n < BATCH:
                return total


def quarantined(pool: ConnectionPool, limit: int = 200) -> list[dict[str, Any]]:
    """The games the rater left out, newest first: reference, table, game, when, seats
    (names) and the reason."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT g.id, t.name, g.game, g.finished_at, g.quarantine, "
            "array_agg(p.name ORDER BY r.seat) FILTER (WHERE p.name IS NOT NULL) "
            "FROM games g JOIN league_tables t ON t.id = g.table_id "
            "LEFT JOIN results r ON r.game_ref = g.id LEFT JOIN players p ON p.id = r.player_id "
            "WHERE g.quarantine IS NOT NULL AND g.voided_at IS NULL "
            "GROUP BY g.id, t.name ORDER BY g.finished_at DESC LIMIT %s", (limit,)).fetchall()
    return [{"ref": int(i), "table": str(tn), "game": str(gm), "at": float(at),
             "reason": str(why), "names": [str(n) for n in (names or [])]}
            for i, tn, gm, at, why, names in rows]


__all__ = ["BATCH", "MAX_SKEW_S", "SETTLE_S", "Key", "lock", "quarantined", "rate_pending",
           "reason_for", "request_rerate", "uncount"]
