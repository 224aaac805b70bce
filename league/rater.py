"""Ratings kept in game order: openskill (``companion.stats.rate``) applied game after game.

Pushes only add results (``games.rated`` false); the rater folds them into ``ratings``
in ``order_key`` order (when the game finished, then table and game id), so the same
games always give the same ratings, whatever order they arrived in. An unrated game
that sorts before the last one rated (a table offline for days), a replaced result or
a merge makes the next pass rate every game again. One pass at a time (the rater row
is locked), in batches; a push never waits for the rater.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool

from companion.stats import MU, OVERALL, SIGMA, rate

BATCH = 200

_NEXT = ("SELECT id, game, finished_at, table_key, game_id FROM games WHERE NOT rated AND final "
         "ORDER BY finished_at, table_key, game_id LIMIT %s")
#: whether an unrated game sorts before the last game rated (then all are rated again)
_LATE = ("SELECT EXISTS (SELECT 1 FROM games g, rater r WHERE NOT g.rated AND g.final "
         "AND r.id = 1 AND "
         "(g.finished_at, g.table_key, g.game_id) < (r.finished_at, r.table_key, r.game_id))")


def _reset(conn: Connection[Any]) -> None:
    conn.execute("UPDATE ratings SET mu = %s, sigma = %s", (MU, SIGMA))
    conn.execute("UPDATE games SET rated = false WHERE rated")
    conn.execute("UPDATE rater SET finished_at = NULL, table_key = NULL, game_id = NULL, "
                 "dirty = false WHERE id = 1")


def _batch(conn: Connection[Any]) -> int:
    """Rate the next batch of games; how many were rated."""
    games = conn.execute(_NEXT, (BATCH,)).fetchall()
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
    for ref, game, *_ in games:
        lines = seats.get(int(ref), [])
        for g in (str(game), OVERALL):
            new = rate([known.get((g, pid), (MU, SIGMA)) for pid, _ in lines],
                       [place for _, place in lines])
            for (pid, _), v in zip(lines, new, strict=True):
                known[(g, pid)] = v
                changed.add((g, pid))
    conn.cursor().executemany(
        "INSERT INTO ratings (game, player_id, mu, sigma) VALUES (%s, %s, %s, %s) "
        "ON CONFLICT (game, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
        [(g, pid, *known[(g, pid)]) for g, pid in sorted(changed)])
    conn.execute("UPDATE games SET rated = true WHERE id = ANY(%s)", ([g[0] for g in games],))
    last = games[-1]
    conn.execute("UPDATE rater SET finished_at = %s, table_key = %s, game_id = %s WHERE id = 1",
                 (last[2], last[3], last[4]))
    return len(games)


def rate_pending(pool: ConnectionPool) -> int:
    """Rate every game not rated yet (all of them again when needed); how many."""
    total = 0
    while True:
        with pool.connection() as conn:
            row = conn.execute("SELECT dirty FROM rater WHERE id = 1 FOR UPDATE").fetchone()
            late = conn.execute(_LATE).fetchone()
            if (row and row[0]) or (late and late[0]):
                _reset(conn)
            n = _batch(conn)
        total += n
        if n < BATCH:
            return total


__all__ = ["rate_pending"]
