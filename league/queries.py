"""What the league's pages read: standings, players, histories, head-to-head.

Each function is one or two queries on indexes (docs/league.md shows them with their
EXPLAIN): the standings read ``player_stats`` and ``ratings``, kept current on every
push and by the rater, never summed over every result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg_pool import ConnectionPool

from companion import games
from companion.results import GameResult, SeatResult
from companion.stats import MU, OVERALL, SIGMA, key_of

#: every (game, player) with a stats line has a ratings row (the push makes it), so the
#: standings walk the ratings index best first and stop after ``limit`` rows
STANDINGS_SQL = (
    "SELECT p.id, p.name, s.played, s.wins, s.place_sum, r.mu, r.sigma "
    "FROM ratings r JOIN player_stats s ON s.game = r.game AND s.player_id = r.player_id "
    "JOIN players p ON p.id = r.player_id "
    "WHERE r.game = %(game)s AND s.played > 0 "
    "ORDER BY r.rating DESC, s.wins DESC, p.name, p.id LIMIT %(limit)s")

HISTORY_SQL = (
    "SELECT g.id, (SELECT t.name FROM league_tables t WHERE t.id = g.table_id), g.game_id, g.game, g.finished_at, g.seq, g.lower_wins, g.unit, "
    "array_agg(p.name ORDER BY r.seat), array_agg(r.place ORDER BY r.seat), "
    "array_agg(r.score ORDER BY r.seat), array_agg(r.player_id ORDER BY r.seat), g.started_at "
    "FROM games g JOIN results r ON r.game_ref = g.id JOIN players p ON p.id = r.player_id "
    "WHERE g.id IN (SELECT game_ref FROM results WHERE player_id = %(player)s) AND g.final "
    "GROUP BY g.id ORDER BY g.finished_at DESC, g.id DESC LIMIT %(limit)s")


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    played: int
    wins: int
    place_sum: int
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def avg_place(self) -> float:
        return self.place_sum / self.played if self.played else 0.0


@dataclass(frozen=True)
class Played:
    """A game in a history: the result, which table, and each seat's player id."""

    ref: int
    table: str
    result: GameResult
    player_ids: tuple[int, ...]


def standings(pool: ConnectionPool, game: str = OVERALL, limit: int = 200) -> list[Standing]:
    with pool.connection() as conn:
        rows = conn.execute(STANDINGS_SQL, {"game": game, "limit": limit}).fetchall()
    return [Standing(int(a), str(b), int(c), int(d), int(e), float(f), float(g))
            for a, b, c, d, e, f, g in rows]


def player(pool: ConnectionPool, player_id: int) -> dict[str, Any] | None:
    """A player (following merges): id, name, card, and their lines per game."""
    with pool.connection() as conn:
        row = conn.execute("SELECT id, name, card, merged_into FROM players WHERE id = %s",
                           (player_id,)).fetchone()
        while row is not None and row[3] is not None:
            row = conn.execute("SELECT id, name, card, merged_into FROM players WHERE id = %s",
                               (row[3],)).fetchone()
        if row is None:
            return None
        lines = conn.execute(
            "SELECT s.game, s.played, s.wins, s.place_sum, coalesce(r.mu, %s), "
            "coalesce(r.sigma, %s) FROM player_stats s LEFT JOIN ratings r "
            "ON r.game = s.game AND r.player_id = s.player_id WHERE s.player_id = %s "
            "AND s.played > 0 ORDER BY s.game = 'all' DESC, s.played DESC, s.game",
            (MU, SIGMA, row[0])).fetchall()
    return {"id": int(row[0]), "name": str(row[1]), "card": str(row[2]),
            "lines": [Standing(int(row[0]), str(g), int(p), int(w), int(ps), float(m), float(s))
                      for g, p, w, ps, m, s in lines]}


def _played(row: Any) -> Played:
    ref, table, game_id, game, finished, seq, lower, unit, names, places, scores, ids, \
        started = row
    seats = tuple(SeatResult(str(n), int(p), None if s is None else float(s))
                  for n, p, s in zip(names, places, scores, strict=True))
    return Played(int(ref), str(table), GameResult(
        str(game_id), str(game), seats, float(finished), int(seq), bool(lower), str(unit),
        started_at=0.0 if started is None else float(started)), tuple(int(i) for i in ids))


def history(pool: ConnectionPool, player_id: int, limit: int = 500) -> list[Played]:
    """The games ``player_id`` played, newest first."""
    with pool.connection() as conn:
        rows = conn.execute(HISTORY_SQL, {"player": player_id, "limit": limit}).fetchall()
    return [_played(r) for r in rows]


def everything(pool: ConnectionPool) -> list[Played]:
    """Every stored game (the tests recompute the standings from these)."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT g.id, g.table_key, g.game_id, g.game, g.finished_at, g.seq, g.lower_wins, "
            "g.unit, array_agg(p.name ORDER BY r.seat), array_agg(r.place ORDER BY r.seat), "
            "array_agg(r.score ORDER BY r.seat), array_agg(r.player_id ORDER BY r.seat), g.started_at "
            "FROM games g JOIN results r ON r.game_ref = g.id "
            "JOIN players p ON p.id = r.player_id WHERE g.final GROUP BY g.id "
            "ORDER BY g.finished_at, g.table_key, g.game_id").fetchall()
    return [_played(r) for r in rows]


def everything_named(pool: ConnectionPool) -> list[tuple[str, GameResult]]:
    """Every counted game (not void, not left out) with its table's name: the whole
    league's export."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT g.id, t.name, g.game_id, g.game, g.finished_at, g.seq, g.lower_wins, "
            "g.unit, array_agg(p.name ORDER BY r.seat), array_agg(r.place ORDER BY r.seat), "
            "array_agg(r.score ORDER BY r.seat), array_agg(r.player_id ORDER BY r.seat), g.started_at "
            "FROM games g JOIN league_tables t ON t.id = g.table_id "
            "JOIN results r ON r.game_ref = g.id JOIN players p ON p.id = r.player_id "
            "WHERE g.final AND g.voided_at IS NULL AND g.quarantine IS NULL "
            "GROUP BY g.id, t.name ORDER BY g.finished_at, g.id").fetchall()
    return [(p.table, p.result) for p in map(_played, rows)]


def playing_now(pool: ConnectionPool, hours: float = 6.0) -> list[Played]:
    """Games tables share while they are played (received in the last ``hours``)."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT g.id, t.name, g.game_id, g.game, g.finished_at, g.seq, g.lower_wins, "
            "g.unit, array_agg(p.name ORDER BY r.seat), array_agg(r.place ORDER BY r.seat), "
            "array_agg(r.score ORDER BY r.seat), array_agg(r.player_id ORDER BY r.seat), g.started_at "
            "FROM games g JOIN league_tables t ON t.id = g.table_id "
            "JOIN results r ON r.game_ref = g.id JOIN players p ON p.id = r.player_id "
            "WHERE NOT g.final AND g.received_at > now() - make_interval(secs => %s) "
            "GROUP BY g.id, t.name ORDER BY g.received_at DESC LIMIT 20",
            (hours * 3600,)).fetchall()
    return [_played(r) for r in rows]


def find_players(pool: ConnectionPool, limit: int = 500) -> list[tuple[int, str]]:
    with pool.connection() as conn:
        rows = conn.execute("SELECT id, name FROM players WHERE merged_into IS NULL "
                            "ORDER BY key LIMIT %s", (limit,)).fetchall()
    return [(int(i), str(n)) for i, n in rows]


def player_cards(pool: ConnectionPool, limit: int = 5000) -> list[tuple[str, str]]:
    """Every player (not merged away): name and card code, by name."""
    with pool.connection() as conn:
        rows = conn.execute("SELECT name, card FROM players WHERE merged_into IS NULL "
                            "ORDER BY key LIMIT %s", (limit,)).fetchall()
    return [(str(n), str(c)) for n, c in rows]


def player_named(pool: ConnectionPool, name: str) -> int | None:
    """The player (not merged away) of ``name``, matched as the league matches names
    (``key_of``: trimmed, case folded), or None."""
    with pool.connection() as conn:
        row = conn.execute("SELECT id FROM players WHERE key = %s AND merged_into IS NULL",
                           (key_of(name),)).fetchone()
    return None if row is None else int(row[0])


def player_by_card(pool: ConnectionPool, card: str) -> int | None:
    with pool.connection() as conn:
        row = conn.execute("SELECT coalesce(merged_into, id) FROM players WHERE card = %s",
                           (card,)).fetchone()
    return None if row is None else int(row[0])


def tables(pool: ConnectionPool) -> list[tuple[str, str, int, float | None]]:
    """Every table: its key, name, how many games it pushed, and when it was revoked
    (None while its token works)."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT t.key, t.name, (SELECT count(*) FROM games g WHERE g.table_id = t.id), "
            "extract(epoch FROM t.revoked_at) FROM league_tables t ORDER BY t.id").fetchall()
    return [(str(k), str(n), int(c), None if r is None else float(r)) for k, n, c, r in rows]


@dataclass(frozen=True)
class AdminGame:
    """A game as the admin sees it: the league's number for it, where, what, when, who
    (names and places by seat), and whether (and by whom, when, why) it was voided."""

    ref: int
    table: str
    game: str
    finished_at: float
    names: tuple[str, ...]
    places: tuple[int, ...]
    quarantine: str | None
    voided: bool
    change: tuple[str, str, str, float] | None  # the last (action, who, why, when)
    clock_offset: float


_ADMIN_GAMES = (
    "SELECT g.id, t.name, g.game, g.finished_at, g.quarantine, g.voided_at IS NOT NULL, "
    "g.clock_offset, (SELECT array_agg(p.name ORDER BY r.seat) FROM results r JOIN players p "
    "ON p.id = r.player_id WHERE r.game_ref = g.id), (SELECT array_agg(r.place ORDER BY "
    "r.seat) FROM results r WHERE r.game_ref = g.id), c.action, c.by_whom, c.why, "
    "extract(epoch FROM c.at) FROM games g JOIN league_tables t ON t.id = g.table_id "
    "LEFT JOIN LATERAL (SELECT action, by_whom, why, at FROM game_changes "
    "WHERE game_ref = g.id ORDER BY at DESC, id DESC LIMIT 1) c ON true "
    "WHERE g.final AND {where} ORDER BY g.finished_at DESC, g.id DESC LIMIT %s")


def admin_games(pool: ConnectionPool, which: str = "recent", limit: int = 30) -> list[AdminGame]:
    """Games for the admin: ``recent`` (counted ones, newest first), ``void`` or
    ``quarantined``; or one game by its number (``which`` = "#12")."""
    where = {"recent": "g.voided_at IS NULL AND g.quarantine IS NULL",
             "void": "g.voided_at IS NOT NULL",
             "quarantined": "g.quarantine IS NOT NULL AND g.voided_at IS NULL"}.get(which)
    args: tuple[Any, ...] = (limit,)
    if where is None:
        where, args = "g.id = %s", (int(which.lstrip("#")), limit)
    with pool.connection() as conn:
        rows = conn.execute(_ADMIN_GAMES.format(where=where), args).fetchall()
    return [AdminGame(int(r[0]), str(r[1]), str(r[2]), float(r[3]),
                      tuple(str(n) for n in r[7] or ()), tuple(int(q) for q in r[8] or ()),
                      None if r[4] is None else str(r[4]), bool(r[5]),
                      None if r[9] is None else (str(r[9]), str(r[10]), str(r[11]),
                                                 float(r[12])), float(r[6]))
            for r in rows]


#: one backward walk of ``rating_history_by_time``, stopping after ``limit`` rows
RATING_HISTORY_SQL = (
    "SELECT finished_at, mu - 3 * sigma FROM rating_history WHERE player_id = %(player)s "
    "AND scope = %(scope)s ORDER BY finished_at DESC, game_ref DESC LIMIT %(limit)s")


def rating_history(pool: ConnectionPool, player_id: int, scope: str = OVERALL,
                   limit: int = 200) -> list[tuple[float, float]]:
    """(when, rating) after each of ``player_id``'s last ``limit`` rated games in
    ``scope`` (a game, or all), oldest first."""
    with pool.connection() as conn:
        rows = conn.execute(RATING_HISTORY_SQL, {"player": player_id, "scope": scope,
                                                 "limit": limit}).fetchall()
    return [(float(t), float(r)) for t, r in reversed(rows)]


def games_played(pool: ConnectionPool) -> list[str]:
    """The games the league has results of."""
    with pool.connection() as conn:
        rows = conn.execute(  # one index probe per game the registry knows
            "SELECT g FROM unnest(%s::text[]) AS g WHERE EXISTS "
            "(SELECT 1 FROM player_stats s WHERE s.game = g) ORDER BY g",
            (sorted(games.available()),)).fetchall()
    return [str(r[0]) for r in rows]


__all__ = ["AdminGame", "HISTORY_SQL", "admin_games", "Played", "RATING_HISTORY_SQL", "STANDINGS_SQL", "Standing",
           "everything", "everything_named", "find_players", "games_played", "history", "player", "player_by_card",
           "player_cards", "playing_now", "rating_history", "standings", "tables"]
