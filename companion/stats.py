"""Statistics over finished games: standings, ratings, histories, head-to-head.

Pure functions over ``GameResult`` values, shared by the table's own statistics page
(``web/stats.py``) and the league (``league/``), which keeps the same numbers in
PostgreSQL and checks them against these (tests/league). Ratings are openskill's
Plackett-Luce model (multiplayer, ties, any number of seats), applied game after game
in ``order_key`` order, so the same set of games always gives the same ratings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from companion.results import GameResult

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

#: the "game" of the standings over every game
OVERALL = "all"
MU, SIGMA = 25.0, 25.0 / 3


@dataclass
class Line:
    """One player's line in a standings table."""

    name: str
    played: int = 0
    wins: int = 0
    place_sum: int = 0
    mu: float = MU
    sigma: float = SIGMA

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def rating(self) -> float:
        """The conservative rating shown to people: mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def avg_place(self) -> float:
        return self.place_sum / self.played if self.played else 0.0


@dataclass
class Versus:
    """Two players' record against each other: games together, who finished ahead."""

    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass
class Ratings:
    """mu and sigma per (game or ``OVERALL``, player key)."""

    values: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)

    def get(self, game: str, key: str) -> tuple[float, float]:
        return self.values.get((game, key), (MU, SIGMA))


@cache
def _model() -> PlackettLuce:
    """The rating model, imported on first use: the serving process only needs it when
    someone opens the statistics (openskill costs 1.3 MB of a Pi's memory)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def key_of(name: str) -> str:
    """The key a name is matched by: trimmed, case folded ("Ana" and "ana " are one)."""
    return " ".join(name.split()).casefold()


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each seat after a game with these places (1 = won)."""
    model = _model()
    teams = [[model.create_rating([mu, sigma])] for mu, sigma in before]
    after = model.rate(teams, ranks=[float(p) for p in places])
    return [(float(t[0].mu), float(t[0].sigma)) for t in after]


def order_key(table: str, result: GameResult) -> tuple[float, str, str]:
    """The order games are rated in: when they finished, then table and game id."""
    return (round(result.finished_at, 3), table, result.game_id)


def ratings(results: Iterable[tuple[str, GameResult]],
            key: Any = key_of) -> Ratings:
    """Ratings after every ``(table, result)`` in ``order_key`` order, per game and overall."""
    out = Ratings()
    for _, r in sorted(results, key=lambda tr: order_key(tr[0], tr[1])):
        keys = [key(s.name) for s in r.seats]
        for game in (r.game, OVERALL):
            new = rate([out.get(game, k) for k in keys], [s.place for s in r.seats])
            for k, v in zip(keys, new, strict=True):
                out.values[(game, k)] = v
    return out


def standings(results: Sequence[tuple[str, GameResult]], game: str = OVERALL,
              rated: Ratings | None = None) -> list[Line]:
    """Every player's line for ``game`` (or every game), best first."""
    rated = ratings(results) if rated is None else rated
    lines: dict[str, Line] = {}
    for _, r in results:
        if game != OVERALL and r.game != game:
            continue
        for s in r.seats:
            line = lines.setdefault(key_of(s.name), Line(s.name))
            line.played += 1
            line.wins += 1 if s.won else 0
            line.place_sum += s.place
    for k, line in lines.items():
        line.mu, line.sigma = rated.get(game, k)
    return sorted(lines.values(), key=lambda x: (-x.rating, -x.wins, x.name.casefold()))


def history(results: Sequence[tuple[str, GameResult]], name: str) -> list[GameResult]:
    """The games ``name`` played, newest first."""
    k = key_of(name)
    mine = [r for _, r in results if any(key_of(s.name) == k for s in r.seats)]
    return sorted(mine, key=lambda r: (-r.finished_at, r.game_id))


def head_to_head(results: Sequence[tuple[str, GameResult]], name: str) -> dict[str, Versus]:
    """``name``'s record against each player they sat with (by that player's name)."""
    k = key_of(name)
    out: dict[str, Versus] = defaultdict(Versus)
    for _, r in results:
        me = next((s for s in r.seats if key_of(s.name) == k), None)
        if me is None:
            continue
        for other in r.seats:
            if other is me:
                continue
            v = out[other.name]
            v.games += 1
            if me.place < other.place:
                v.ahead += 1
            elif me.place > other.place:
                v.behind += 1
            else:
                v.level += 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1].games, kv[0].casefold())))


def win_rates(results: Sequence[tuple[str, GameResult]], name: str) -> dict[str, tuple[int, int]]:
    """``name``'s (wins, played) per game."""
    k = key_of(name)
    out: dict[str, tuple[int, int]] = {}
    for _, r in results:
        for s in r.seats:
            if key_of(s.name) == k:
                w, p = out.get(r.game, (0, 0))
                out[r.game] = (w + (1 if s.won else 0), p + 1)
    return out


__all__ = ["Line", "OVERALL", "Ratings", "Versus", "head_to_head", "history", "key_of",
           "order_key", "rate", "ratings", "standings", "win_rates"]
