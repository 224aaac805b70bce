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
from companion.stats import key_of
from league.rater import Key, lock, request_rerate, uncount
from league.validate import clean_text

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
        row = conn.execute("SELECT id, key, name FROM league_tables WHERE token_hash = %s "
                           "AND revoked_at IS NULL", (digest(token),)).fetchone()
    return None if row is None else TableAuth(int(row[0]), str(row[1]), str(row[2]))


def _player_ids(conn: Connection[Any], names: list[str]) -> dict[str, int]:
    """The player of each name (by its key), made when new, in one round trip.

    A name another push is creating at the same moment is not in this statement's
    snapshot: it is read again by a second query."""
    keys = sorted({key_of(n): " ".join(n.split()) for n in names}.items())
    if not keys:
        return {}
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


def push(pool: ConnectionPool, table: TableAuth, result: GameResult,
         clock_offset: float = 0.0) -> str:
    """Store ``result`` of ``table``: "stored", "replaced" or "already stored".

    A new game (nearly every push) is one statement and the commit: its players found
    or made, the game and its results inserted. A game the league has already, or a
    player another push is making at this very moment, takes the careful way: the game's
    row locked, then compared, replaced or left."""
    with pool.connection() as conn:
        carded = _carded(conn, result)
        row = conn.execute(_FAST, _params(table, result, carded) | {"off": clock_offset}
                           ).fetchone()
        if row is not None and int(row[0]) == 1 and int(row[1]) == len(result.seats):
            return "stored"
        conn.rollback()
        old = conn.execute("SELECT id, seq, game, final, rated, finished_at, table_key, "
                           "game_id FROM games WHERE table_id = %s AND game_id = %s FOR UPDATE",
                           (table.id, result.game_id)).fetchone()
        if old is not None and (int(old[1]) >= result.seq or (old[3] and not result.final)):
            return "already stored"
        if old is not None and old[3]:  # a final result replaced: out of the standings
            lock(conn)
            uncount(conn, [int(old[0])])
            if old[4]:  # and the ratings from it on rated again
                request_rerate(conn, (float(old[5]), str(old[6]), str(old[7])))
        if old is not None:
            conn.execute("DELETE FROM games WHERE id = %s", (old[0],))
        ids = _player_ids(conn, [s.name for s in result.seats if s.card not in carded])
        _insert(conn, table, result, [carded[s.card] if s.card in carded
                                      else ids[key_of(s.name)] for s in result.seats],
                clock_offset)
    return "replaced" if old is not None and old[3] else "stored"


def _carded(conn: Connection[Any], result: GameResult) -> dict[str | None, int]:
    """The player of each seat that came with a league player card the league knows
    (following merges): the card says who it is, whatever the name."""
    cards = sorted({s.card for s in result.seats if s.card})
    if not cards:
        return {}
    rows = conn.execute("SELECT c.card, p.id, p.key FROM players c JOIN players p "
                        "ON p.id = coalesce(c.merged_into, c.id) WHERE c.card = ANY(%s)",
                        (cards,)).fetchall()
    found: dict[str | None, int] = {str(c): int(i) for c, i, _ in rows}
    named = [key_of(s.name) for s in result.seats if s.card not in found]
    if len(set(found.values())) < len(found) or {str(k) for *_, k in rows} & set(named):
        raise ValueError("two seats are the same league player: each player sits once")
    return found


def _params(table: TableAuth, result: GameResult, carded: dict[str | None, int]
            ) -> dict[str, Any]:
    named = sorted({key_of(s.name): " ".join(s.name.split()) for s in result.seats
                    if s.card not in carded}.items())
    return {
        "table": table.id, "key": table.key, "game_id": result.game_id, "seq": result.seq,
        "game": result.game, "at": round(result.finished_at, 3), "lower": result.lower_wins,
        "unit": result.unit, "final": result.final, "start": _started(result),
        "nk": [k for k, _ in named], "nn": [n for _, n in named],
        "nc": [secrets.token_hex(6) for _ in named],
        "sk": [None if s.card in carded else key_of(s.name) for s in result.seats],
        "sp": [carded.get(s.card) for s in result.seats],
        "q": [s.place for s in result.seats], "sc": [s.score for s in result.seats]}


def _started(result: GameResult) -> float | None:
    """The game's ``started_at`` column: NULL when the table did not say."""
    return round(result.started_at, 3) if result.started_at else None


#: a new game in one statement: its named players found or made (those with a known
#: card are found already), the game inserted unless the table has it, and a result
#: per seat whose player was found; it answers (games inserted, results inserted)
_FAST = (
    "WITH x AS (SELECT * FROM unnest(%(nk)s::text[], %(nn)s::text[], %(nc)s::text[]) "
    "AS x(k, n, c)), "
    "ins AS (INSERT INTO players (name, key, card) SELECT n, k, c FROM x ORDER BY k "
    "ON CONFLICT (key) WHERE merged_into IS NULL DO NOTHING RETURNING key, id), "
    "pl AS (SELECT key, id FROM ins UNION ALL SELECT p.key, p.id FROM players p JOIN x "
    "ON p.key = x.k WHERE p.merged_into IS NULL), "
    "g AS (INSERT INTO games (table_id, table_key, game_id, seq, game, started_at, "
    "finished_at, lower_wins, unit, final, clock_offset) VALUES (%(table)s, %(key)s, "
    "%(game_id)s, %(seq)s, %(game)s, %(start)s, %(at)s, %(lower)s, %(unit)s, %(final)s, "
    "%(off)s) "
    "ON CONFLICT (table_id, game_id) DO NOTHING RETURNING id), "
    "r AS (INSERT INTO results (game_ref, seat, player_id, place, score) "
    "SELECT g.id, s.o - 1, coalesce(s.p, pl.id), s.q, s.sc FROM g, "
    "unnest(%(sk)s::text[], %(sp)s::bigint[], %(q)s::int[], %(sc)s::float8[]) "
    "WITH ORDINALITY AS s(k, p, q, sc, o) LEFT JOIN pl ON pl.key = s.k "
    "WHERE coalesce(s.p, pl.id) IS NOT NULL RETURNING 1) "
    "SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM r)")


#: the game and its results (the careful way), one statement; nothing else: the stats
#: lines and ratings every push would share are the rater's (``league.rater``)
_INSERT = (
    "WITH g AS (INSERT INTO games (table_id, table_key, game_id, seq, game, started_at, "
    "finished_at, lower_wins, unit, final, clock_offset) VALUES (%(table)s, %(key)s, "
    "%(game_id)s, %(seq)s, %(game)s, %(start)s, %(at)s, %(lower)s, %(unit)s, %(final)s, "
    "%(off)s) RETURNING id) "
    "INSERT INTO results (game_ref, seat, player_id, place, score) "
    "SELECT g.id, x.o - 1, x.p, x.q, x.sc FROM g, unnest(%(p)s::bigint[], %(q)s::int[], "
    "%(sc)s::float8[]) WITH ORDINALITY AS x(p, q, sc, o)")


def _insert(conn: Connection[Any], table: TableAuth, result: GameResult,
            pids: list[int], clock_offset: float) -> None:
    if len(set(pids)) < len(pids):
        raise ValueError("two seats are the same league player: each player sits once")
    conn.execute(_INSERT, {
        "table": table.id, "key": table.key, "game_id": result.game_id, "seq": result.seq,
        "game": result.game, "at": round(result.finished_at, 3), "lower": result.lower_wins,
        "unit": result.unit, "final": result.final, "p": pids, "off": clock_offset,
        "start": _started(result),
        "q": [s.place for s in result.seats], "sc": [s.score for s in result.seats]})


def revoke(pool: ConnectionPool, key: str) -> str | None:
    """Revoke table ``key``: its token stops working, its games stay. Its name, or None
    when no such table is in the league (or it was revoked already)."""
    with pool.connection() as conn:
        row = conn.execute("UPDATE league_tables SET revoked_at = now() WHERE key = %s "
                           "AND revoked_at IS NULL RETURNING name", (key,)).fetchone()
    return None if row is None else str(row[0])


def merge(pool: ConnectionPool, keep: int, gone: int) -> None:
    """Merge player ``gone`` into ``keep``: every result of ``gone`` becomes ``keep``'s."""
    if keep == gone:
        raise ValueError("Choose two different players to merge.")
    with pool.connection() as conn:
        lock(conn)
        rows = conn.execute("SELECT id FROM players WHERE id = ANY(%s) AND merged_into IS NULL "
                            "ORDER BY id FOR UPDATE", ([keep, gone],)).fetchall()
        if len(rows) != 2:
            raise ValueError("One of these players is gone already (merged): reload the page.")
        both = conn.execute(
            "SELECT count(*) FROM results a JOIN results b ON a.game_ref = b.game_ref "
            "WHERE a.player_id = %s AND b.player_id = %s", (keep, gone)).fetchone()
        if both and int(both[0]):
            raise ValueError("These two sat at the same game: they are two people, not one.")
        theirs = conn.execute(
            "SELECT g.id, g.rated, g.finished_at, g.table_key, g.game_id FROM games g "
            "WHERE g.id IN (SELECT game_ref FROM results WHERE player_id = %s)",
            (gone,)).fetchall()
        uncount(conn, [int(r[0]) for r in theirs])  # counted again, as keep's
        rated = [(float(r[2]), str(r[3]), str(r[4])) for r in theirs if r[1]]
        if rated:
            request_rerate(conn, min(rated))
        conn.execute("UPDATE results SET player_id = %s WHERE player_id = %s", (keep, gone))
        conn.execute("UPDATE players SET merged_into = %s WHERE id = %s", (keep, gone))


class ChangeError(ValueError):
    """An admin's change that cannot be made; the message says why and what to do."""


def _who_why(who: str, why: str) -> tuple[str, str]:
    who, why = " ".join(who.split())[:40], " ".join(why.split())[:200]
    if not who or not why:
        raise ChangeError("Say who you are and why: both are kept with the change.")
    if not clean_text(who) or not clean_text(why):
        raise ChangeError("Type plain text: no control characters.")
    return who, why


def _locked_game(conn: Connection[Any], ref: int) -> tuple[Any, ...]:
    lock(conn)
    row = conn.execute("SELECT id, voided_at IS NOT NULL, rated, finished_at, table_key, "
                       "game_id, final FROM games WHERE id = %s FOR UPDATE", (ref,)).fetchone()
    if row is None or not row[6]:
        raise ChangeError("No such finished game in the league: reload the page.")
    return tuple(row)


def _key(row: tuple[Any, ...]) -> Key:
    return (float(row[3]), str(row[4]), str(row[5]))


def void(pool: ConnectionPool, ref: int, who: str, why: str) -> None:
    """Leave game ``ref`` out of every standing, rating and history (kept, restorable);
    who did it, when and why are kept."""
    who, why = _who_why(who, why)
    with pool.connection() as conn:
        row = _locked_game(conn, ref)
        if row[1]:
            raise ChangeError("This game is void already: reload the page.")
        conn.execute("UPDATE games SET voided_at = now() WHERE id = %s", (ref,))
        uncount(conn, [ref])
        if row[2]:
            request_rerate(conn, _key(row))
        conn.execute("INSERT INTO game_changes (game_ref, action, by_whom, why) "
                     "VALUES (%s, 'void', %s, %s)", (ref, who, why))


def restore(pool: ConnectionPool, ref: int, who: str, why: str) -> None:
    """Count a voided game again (the rater rates it in its place)."""
    who, why = _who_why(who, why)
    with pool.connection() as conn:
        row = _locked_game(conn, ref)
        if not row[1]:
            raise ChangeError("This game is not void: reload the page.")
        conn.execute("UPDATE games SET voided_at = NULL, rated = false WHERE id = %s", (ref,))
        request_rerate(conn, _key(row))
        conn.execute("INSERT INTO game_changes (game_ref, action, by_whom, why) "
                     "VALUES (%s, 'restore', %s, %s)", (ref, who, why))


def set_seat(pool: ConnectionPool, ref: int, seat: int, player: int, who: str,
             why: str) -> None:
    """Seat ``seat`` (0-based) of game ``ref`` was player ``player``: the game is counted
    and rated again (a quarantine for two seats of one player is lifted)."""
    who, why = _who_why(who, why)
    with pool.connection() as conn:
        row = _locked_game(conn, ref)
        target = conn.execute("SELECT coalesce(merged_into, id) FROM players WHERE id = %s",
                              (player,)).fetchone()
        if target is None:
            raise ChangeError("No such player in the league: choose one from the list.")
        pid = int(target[0])
        seats: dict[int, int] = {int(a): int(b) for a, b in conn.execute(
            "SELECT seat, player_id FROM results WHERE game_ref = %s", (ref,))}
        if seat not in seats:
            raise ChangeError(f"This game has no seat {seat + 1}: its seats are 1 to {len(seats)}.")
        if any(int(p) == pid and s != seat for s, p in seats.items()):
            raise ChangeError("That player sits at another seat of this game already.")
        uncount(conn, [ref])
        if row[2]:
            request_rerate(conn, _key(row))
        conn.execute("UPDATE results SET player_id = %s WHERE game_ref = %s AND seat = %s",
                     (pid, ref, seat))
        conn.execute("UPDATE games SET quarantine = NULL, rated = false WHERE id = %s", (ref,))
        conn.execute("INSERT INTO game_changes (game_ref, action, by_whom, why) "
                     "VALUES (%s, 'seat', %s, %s)", (ref, who, why))


def add_player(pool: ConnectionPool, name: str) -> int:
    """A new player before their first game (their card can be printed); their id."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40:
        raise ChangeError("Type the player's name (1 to 40 characters).")
    if not clean_text(name):
        raise ChangeError("Type the name as plain text: no control characters.")
    with pool.connection() as conn:
        row = conn.execute(
            "INSERT INTO players (name, key, card, added_by_admin) VALUES (%s, %s, %s, true) "
            "ON CONFLICT (key) WHERE merged_into IS NULL DO NOTHING RETURNING id",
            (name, key_of(name), secrets.token_hex(6))).fetchone()
    if row is None:
        raise ChangeError(f"{name} is in the league already (the league ignores case and "
                          "extra spaces): print their card from the list.")
    return int(row[0])


__all__ = ["ChangeError", "JoinError", "TableAuth", "add_player", "digest", "join", "merge",
           "new_join_code", "normal_code", "push", "restore", "revoke", "set_seat",
           "table_of", "void"]
