"""Shared helpers for the Casablanca engine tests (no tests here): start a game, play actions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import Setup
from companion.games.casablanca import State, engine
from companion.games.casablanca.board import default_board

SEATS = ("Ann", "Ben", "Cy")


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
