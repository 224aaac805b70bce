"""What changes the league's data: tables joining, results pushed, players merged.

Every write is one transaction. A push is idempotent per (table, game, seq): the same
game pushed again (a retry after a lost answer, a table that lost power before it heard
"stored") is answered "already stored" and changes nothing; the same game with a higher
seq replaces the older result. Nothing is stored from a push that is refused.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool

from companion.results import GameResult
from companion.stats import MU, OVERALL, SIGMA, key_of

JOIN_CODE_TTL_S = 7 * 24 * 3600
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed on phones


class JoinError(ValueError):
    """A join code that is wrong, used or too old (the message says what to do)."""


@dataclass(frozen=True)
class TableAuth:
    id: int
    key: str
    name: str


def digest(token: str) -> str:
    return hashlib.sha256(token.encode(errors="replace")).hexdigest()


def normal_code(code: str) -> str:
    """A join code as typed (spaces, dashes, lower case) in its one written form."""
    return "".join(c for c in code.upper() if c.isalnum())


def new_join_code(pool: ConnectionPool, table_name: str, now: float | None = None) -> str:
    """A one-time join code for a table called ``table_name`` (valid a week)."""
    code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(8))
    expires = (time.time() if now is None else now) + JOIN_CODE_TTL_S
    with pool.connection() as conn:
        conn.execute("INSERT INTO join_codes (code_hash, table_name, expires_at) "
                     "VALUES (%s, %s, to_timestamp(%s))",
                     (digest(normal_code(code)), table_name, expires))
    return code


def join(pool: ConnectionPool, code: str, now: float | None = None) -> tuple[TableAuth, str]:
    """Use a join code: the new table and its token (shown once, stored as a hash)."""
    token = secrets.token_urlsafe(32)
    at = time.time() if now is None else now
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT table_name, extract(epoch FROM expires_at), used_by FROM join_codes "
            "WHERE code_hash = %s FOR UPDATE", (digest(normal_code(code)),)).fetchone()
        if row is None:
            raise JoinError("This join code is not known to the league: check it on the "
                            "league's admin page and type it again.")
        if row[2] is not None:
            raise JoinError("This join code was used already: ask the league's admin for "
                            "a new one.")
        if float(row[1]) < at:
            raise JoinError("This join code is too old: ask the league's admin for a new one.")
        tid = conn.execute(
            "INSERT INTO league_tables (id, key, name, token_hash) SELECT n, 't' || n, %s, %s "
            "FROM nextval('league_tables_id_seq') n RETURNING id, key",
            (row[0], digest(token))).fetchone()
        assert tid is not None
        key = str(tid[1])
        conn.execute("UPDATE join_codes SET used_by = %s WHERE code_hash = %s",
                     (tid[0], digest(normal_code(code))))
    return TableAuth(int(tid[0]), key, str(row[0])), token


def table_of(pool: ConnectionPool, token: str) -> TableAuth | None:
    """The table whose token this is, or None."""
    if not token:
        return None
    with pool.connection() as conn:
        row = conn.execute("SELECT id, key, name FROM league_tables WHERE token_hash = %s",
                           (digest(token),)).fetchone()
    return None if row is None else TableAuth(int(row[0]), str(row[1]), str(row[2]))


def _player_ids(conn: Connection[Any], names: list[str]) -> dict[str, int]:
    """The player of each name (by its key), made when new, in one round trip.

    A name another push is creating at the same moment is not in this statement's
    snapshot: it is read again by a second query."""
    keys = sorted({key_of(n): " ".join(n.split()) for n in names}.items())
    wanted = [k for k, _ in keys]
    rows = conn.execute(
        "WITH x AS (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]) AS x(k, n, c)), "
        "ins AS (INSERT INTO players (name, key, card) SELECT n, k, c FROM x ORDER BY k "
        "ON CONFLICT (key) WHERE merged_into IS NULL DO NOTHING RETURNING key, id) "
        "SELECT key, id FROM ins UNION ALL SELECT p.key, p.id FROM players p JOIN x "
        "ON p.key = x.k WHERE p.merged_into IS NULL",
        (wanted, [n for _, n in keys], [secrets.token_hex(6) for _ in keys])).fetchall()
    found = {str(k): int(i) for k, i in rows}
    if len(found) < len(wanted):
        rows = conn.execute("SELECT key, id FROM players WHERE merged_into IS NULL AND "
                            "key = ANY(%s)", (wanted,)).fetchall()
        found = {str(k): int(i) for k, i in rows}
    return found


def _stats(conn: Connection[Any], game: str, lines: list[tuple[int, int]], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) each (player, place) in ``game`` and overall
    (a push adds through ``_INSERT``; a replaced or merged result is taken away here)."""
    rows = [(g, pid, place) for g in sorted((game, OVERALL)) for pid, place in sorted(lines)]
    params = ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], sign)
    conn.execute(
        "INSERT INTO player_stats (game, player_id, played, wins, place_sum) "
        "SELECT g, p, %(sign)s, CASE WHEN q = 1 THEN %(sign)s ELSE 0 END, %(sign)s * q "
        "FROM unnest(%(g)s::text[], %(p)s::bigint[], %(q)s::int[]) AS x(g, p, q) "
        "ON CONFLICT (game, player_id) DO UPDATE SET "
        "played = player_stats.played + excluded.played, "
        "wins = player_stats.wins + excluded.wins, "
        "place_sum = player_stats.place_sum + excluded.place_sum",
        {"g": params[0], "p": params[1], "q": params[2], "sign": sign})


def push(pool: ConnectionPool, table: TableAuth, result: GameResult) -> str:
    """Store ``result`` of ``table``: "stored", "replaced" or "already stored"."""
    with pool.connection() as conn:
        old = conn.execute("SELECT id, seq, game, final FROM games WHERE table_id = %s AND "
                           "game_id = %s FOR UPDATE", (table.id, result.game_id)).fetchone()
        if old is not None and (int(old[1]) >= result.seq or (old[3] and not result.final)):
            return "already stored"
        if old is not None and old[3]:  # a final result replaced: its figures go first
            lines = conn.execute("SELECT player_id, place FROM results WHERE game_ref = %s",
                                 (old[0],)).fetchall()
            _stats(conn, str(old[2]), [(int(p), int(q)) for p, q in lines], -1)
            conn.execute("UPDATE rater SET dirty = true WHERE id = 1")
        if old is not None:
            conn.execute("DELETE FROM games WHERE id = %s", (old[0],))
        ids = _player_ids(conn, [s.name for s in result.seats])
        _insert(conn, table, result, [ids[key_of(s.name)] for s in result.seats])
    return "replaced" if old is not None and old[3] else "stored"


#: the game, its results, and (when final) its stats lines and starting ratings: one
#: statement, one round trip
_INSERT = (
    "WITH g AS (INSERT INTO games (table_id, table_key, game_id, seq, game, finished_at, "
    "lower_wins, unit, final) VALUES (%(table)s, %(key)s, %(game_id)s, %(seq)s, %(game)s, "
    "%(at)s, %(lower)s, %(unit)s, %(final)s) RETURNING id), "
    "r AS (INSERT INTO results (game_ref, seat, player_id, place, score) "
    "SELECT g.id, x.o - 1, x.p, x.q, x.sc FROM g, unnest(%(p)s::bigint[], %(q)s::int[], "
    "%(sc)s::float8[]) WITH ORDINALITY AS x(p, q, sc, o)), "
    "l AS (SELECT * FROM unnest(%(lg)s::text[], %(lp)s::bigint[], %(lq)s::int[]) "
    "AS l(g, p, q) WHERE %(final)s), "
    "s AS (INSERT INTO player_stats (game, player_id, played, wins, place_sum) "
    "SELECT g, p, 1, CASE WHEN q = 1 THEN 1 ELSE 0 END, q FROM l "
    "ON CONFLICT (game, player_id) DO UPDATE SET "
    "played = player_stats.played + 1, wins = player_stats.wins + excluded.wins, "
    "place_sum = player_stats.place_sum + excluded.place_sum), "
    "t AS (INSERT INTO ratings (game, player_id, mu, sigma) SELECT g, p, %(mu)s, %(sigma)s "
    "FROM l ON CONFLICT (game, player_id) DO NOTHING) "
    "SELECT id FROM g")


def _insert(conn: Connection[Any], table: TableAuth, result: GameResult,
            pids: list[int]) -> None:
    lines = sorted((g, pid, s.place) for g in (result.game, OVERALL)
                   for pid, s in zip(pids, result.seats, strict=True))
    conn.execute(_INSERT, {
        "table": table.id, "key": table.key, "game_id": result.game_id, "seq": result.seq,
        "game": result.game, "at": round(result.finished_at, 3), "lower": result.lower_wins,
        "unit": result.unit, "final": result.final, "p": pids,
        "q": [s.place for s in result.seats], "sc": [s.score for s in result.seats],
        "lg": [x[0] for x in lines], "lp": [x[1] for x in lines], "lq": [x[2] for x in lines],
        "mu": MU, "sigma": SIGMA})


def merge(pool: ConnectionPool, keep: int, gone: int) -> None:
    """Merge player ``gone`` into ``keep``: every result of ``gone`` becomes ``keep``'s."""
    if keep == gone:
        raise ValueError("Choose two different players to merge.")
    with pool.connection() as conn:
        rows = conn.execute("SELECT id FROM players WHERE id = ANY(%s) AND merged_into IS NULL "
                            "ORDER BY id FOR UPDATE", ([keep, gone],)).fetchall()
        if len(rows) != 2:
            raise ValueError("One of these players is gone already (merged): reload the page.")
        both = conn.execute(
            "SELECT count(*) FROM results a JOIN results b ON a.game_ref = b.game_ref "
            "WHERE a.player_id = %s AND b.player_id = %s", (keep, gone)).fetchone()
        if both and int(both[0]):
            raise ValueError("These two sat at the same game: they are two people, not one.")
        conn.execute("UPDATE results SET player_id = %s WHERE player_id = %s", (keep, gone))
        conn.execute("UPDATE players SET merged_into = %s WHERE id = %s", (keep, gone))
        conn.execute("DELETE FROM player_stats WHERE player_id = ANY(%s)", ([keep, gone],))
        conn.execute("DELETE FROM ratings WHERE player_id = %s", (gone,))
        conn.execute(
            "INSERT INTO player_stats (game, player_id, played, wins, place_sum) "
            "SELECT g, %s, count(*), count(*) FILTER (WHERE r.place = 1), sum(r.place) "
            "FROM results r JOIN games ga ON ga.id = r.game_ref, "
            "LATERAL (VALUES (ga.game), ('all')) v(g) WHERE r.player_id = %s AND ga.final "
            "GROUP BY g",
            (keep, keep))
        conn.execute(
            "INSERT INTO ratings (game, player_id, mu, sigma) SELECT game, player_id, %s, %s "
            "FROM player_stats WHERE player_id = %s ON CONFLICT DO NOTHING", (MU, SIGMA, keep))
        conn.execute("UPDATE rater SET dirty = true WHERE id = 1")


__all__ = ["JoinError", "TableAuth", "digest", "join", "merge", "new_join_code",
           "normal_code", "push", "table_of"]
