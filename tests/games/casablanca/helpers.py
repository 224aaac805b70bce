"""Shared helpers for the Casablanca tests (no tests here): start a game, play actions, and
the default board as camera zones with tagged stands on its spaces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import Setup
from companion.games.casablanca import State, engine
from companion.games.casablanca.board import default_board
from vision.synthetic import CardPlay

SEATS = ("Ann", "Ben", "Cy")
#: half the side of a space's square zone (normalised frame coordinates)
HALF = 0.095


def board_zones() -> dict[str, list[tuple[float, float]]]:
    """Each space of the default board as a square zone, named like the space."""
    zones = {}
    for s in default_board().spaces:
        assert s.x is not None and s.y is not None
        x, y = s.x, s.y
        zones[s.name] = [(x - HALF, y - HALF), (x + HALF, y - HALF), (x + HALF, y + HALF),
                         (x - HALF, y + HALF)]
    return zones


def stand(payload: str, at: float, space: str, dx: float, dy: float = 0.0,
          **kw: Any) -> CardPlay:
    """A tagged stand (or the suitcase) landing at ``at`` on the default board's space
    named ``space``, ``dx``/``dy`` off its centre (``kw``: ``removed_at``, ``slide_s``)."""
    where = {s.name: (s.x or 0.0, s.y or 0.0) for s in default_board().spaces}
    x, y = where[space]
    return CardPlay(payload, at=at, position=(x + dx, y + dy), tag_px=50, angle=0.0, **kw)


def short_board() -> dict[str, Any]:
    """The default board's spaces, every one next to every other (rules tests)."""
    board = default_board().to_json()
    ids = [s["id"] for s in board["spaces"]]
    board["streets"] = [[a, b] for i, a in enumerate(ids) for b in ids[i + 1 :]]
    return board


def start(seats: tuple[str, ...] = SEATS, **options: Any) -> State:
    """A game on the short board with protests compared at once, unless told otherwise."""
    options.setdefault("board", short_board())
    options.setdefault("concessions", False)
    return engine.new_game(Setup(seats=seats, options=options))


def play(state: State, *actions: Mapping[str, Any]) -> State:
    """Fold ``actions`` one by one (each must be accepted)."""
    for action in actions:
        state, _ = engine.run(state, action, 0.0)
    return state


def play_all(state: State, actions: Iterable[Mapping[str, Any]]) -> tuple[State, list[Any]]:
    """Fold ``actions`` and return the state and every event."""
    events: list[Any] = []
    for action in actions:
        state, new = engine.run(state, action, 0.0)
        events.extend(new)
    return state, events


def bribe(seat: int, **amounts: int) -> dict[str, Any]:
    return {
        "do": "bribe",
        "seat": seat,
        "amounts": [{"agent": a, "amount": n} for a, n in amounts.items()],
    }


def move(seat: int, agent: str, to: str, suitcase: bool = False) -> dict[str, Any]:
    return {"do": "move", "seat": seat, "agent": agent, "to": to, "suitcase": suitcase}


def eliminate(seat: int, agent: str, target: str) -> dict[str, Any]:
    return {"do": "eliminate", "seat": seat, "agent": agent, "target": target}


def protest(seat: int) -> dict[str, Any]:
    return {"do": "protest", "seat": seat}


RESOLVE: dict[str, Any] = {"do": "resolve"}
