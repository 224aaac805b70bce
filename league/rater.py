"""The rater: the one writer of the standings, the ratings and the rating history.

A push only inserts its game and results (``games.counted`` and ``games.rated`` false),
so pushes never wait on shared rows. The rater (a thread of the server, woken by each
push) then, in one transaction per pass:

1. **counts** every final game not counted yet into ``player_stats`` (played, wins,
   sum of places per game and overall: sums, in any order; one SQL statement) and gives
   each new (game, player) its starting rating;
2. **rates** games in ``order_key`` order (when the game finished, then table and game
   id) with openskill (``companion.stats.rate``), writing ``ratings`` and one
   ``rating_history`` row per seat, so the same games always give the same ratings,
   whatever order they arrived in.

A game is rated once it has been in the league ``settle_s`` seconds (pushes of games
that ended a moment apart arrive in any order), and never past an earlier game still
settling. A game that still arrives late (it sorts before the last one rated: a table
offline for days), a replaced final result or a merge (a row in ``rerate_requests``)
makes the next pass compute everything again, in that same one transaction: readers see
the old standings until the new ones are complete. The rater row is locked for a pass,
so two servers never rate at once.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool

from companion.stats import MU, OVERALL, SIGMA, rate

BATCH = 500
#: how long a pushed game waits before it is rated (on the server; the tests rate at once)
SETTLE_S = 10.0

#: every final game not yet counted, added to the stats lines in one statement
_COUNT = (
    "WITH c AS (UPDATE games SET counted = true WHERE final AND NOT counted "
    "RETURNING id, game), "
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

#: the earliest game (in rating order) still settling: nothing after it is rated yet
_SETTLING = ("SELECT finished_at, table_key, game_id FROM games WHERE NOT rated AND final "
             "AND received_at > now() - make_interval(secs => %s) "
             "ORDER BY finished_at, table_key, game_id LIMIT 1")
_NEXT = ("SELECT id, game, finished_at, table_key, game_id FROM games WHERE NOT rated AND final "
         "AND (%(f)s::float8 IS NULL OR (finished_at, table_key, game_id) < "
         "(%(f)s::float8, %(t)s::text COLLATE \"C\", %(g)s::text COLLATE \"C\")) "
         "ORDER BY finished_at, table_key, game_id LIMIT %(n)s")
#: whether an unrated game sorts before the last game rated (then all are rated again)
_LATE = ("SELECT EXISTS (SELECT 1 FROM games g, rater r WHERE NOT g.rated AND g.final "
         "AND r.id = 1 AND "
         "(g.finished_at, g.table_key, g.game_id) < (r.finished_at, r.table_key, r.game_id))")


def _reset(conn: Connection[Any]) -> None:
    """Forget every stats line, rating and history row: the pass computes them again."""
    conn.execute("DELETE FROM rating_history")
    conn.execute("DELETE FROM ratings")
    conn.execute("DELETE FROM player_stats")
    conn.execute("UPDATE games SET rated = false, counted = false WHERE rated OR counted")
    conn.execute("UPDATE rater SET finished_at = NULL, table_key = NULL, game_id = NULL, "
                 "dirty = false WHERE id = 1")


def _batch(conn: Connection[Any], before: tuple[Any, ...] | None) -> int:
    """Rate the next batch of games (those sorting before ``before``); how many."""
    f, t, g = before if before is not None else (None, None, None)
    games = conn.execute(_NEXT, {"f": f, "t": t, "g": g, "n": BATCH}).fetchall()
    if not games:
        return 0
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
    for ref, game, finished, *_ in games:
        lines = seats.get(int(ref), [])
        for scope in (str(game), OVERALL):
            new = rate([known.get((scope, pid), (MU, SIGMA)) for pid, _ in lines],
                       [place for _, place in lines])
            for (pid, _), v in zip(lines, new, strict=True):
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
    with conn.cursor().copy("COPY rating_history (player_id, scope, game_ref, finished_at, mu, sigma) "
                            "FROM STDIN") as cp:
        for h in history:
            cp.write_row(h)
    conn.execute("UPDATE games SET rated = true WHERE id = ANY(%s)", ([g[0] for g in games],))
    last = games[-1]
    conn.execute("UPDATE rater SET finished_at = %s, table_key = %s, game_id = %s WHERE id = 1",
                 (last[2], last[3], last[4]))
    return len(games)


def rate_pending(pool: ConnectionPool, settle_s: float = 0.0) -> int:
    """Count every new game and rate those settled (all again when needed), in one
    transaction; how many games were rated."""
    total = 0
    with pool.connection() as conn:
        conn.execute("SELECT 1 FROM rater WHERE id = 1 FOR UPDATE")
        asked = conn.execute("DELETE FROM rerate_requests RETURNING id").fetchall()
        late = conn.execute(_LATE).fetchone()
        if asked or (late and late[0]):
            _reset(conn)
        conn.execute(_COUNT, (MU, SIGMA))
        settling = conn.execute(_SETTLING, (settle_s,)).fetchone()
        while True:
            n = _batch(conn, None if settling is None else tuple(settling))
            total += n
            if n < BATCH:
                return total


__all__ = ["BATCH", "SETTLE_S", "rate_pending"]
