"""Shared helpers for The Nasty 7 tests: fold timed actions through the engine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import Setup
from companion.games.nasty7 import State, engine

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")


def start(seats: int = 3, **options: Any) -> State:
    """A new game with the first ``seats`` names and ``options``."""
    return engine.new_game(Setup(NAMES[:seats], options))


def run(
    state: State, actions: Iterable[tuple[float, Mapping[str, Any]]], events: list[Any] | None = None
) -> State:
    """Deliver due deadlines, then each ``(t, action)``, like replay does."""
    for t, action in actions:
        state = engine.deliver_deadlines(
            state, t, lambda _t, evs: events.extend(evs) if events is not None else None
        )
        state, evs = engine.run(state, action, t)
        if events is not None:
            events.extend(evs)
    return state


def plays(*cards: str, start_t: float = 1.0, step: float = 1.0) -> list[tuple[float, dict[str, Any]]]:
    """In-turn plays of ``cards``, one every ``step`` seconds from ``start_t``."""
    return [(start_t + i * step, {"do": "play", "card": c}) for i, c in enumerate(cards)]


def act(state: State, action: Mapping[str, Any], t: float = 0.0) -> State:
    """Run one action at ``t`` without delivering deadlines."""
    return engine.run(state, action, t)[0]
