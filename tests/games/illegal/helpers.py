"""Illegal tests: a small table to start from, and actions run through the engine."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.games.base import Setup
from companion.games.illegal import State, engine


def new(n: int = 3, **options: Any) -> State:
    return engine.new_game(Setup(tuple("ABCDEF"[:n]), options))


def run(state: State, *actions: dict[str, Any]) -> State:
    for action in actions:
        state, _ = engine.run(state, action, 0.0)
    return state


def with_seat(state: State, seat: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[seat] = dataclasses.replace(seats[seat], **changes)
    return dataclasses.replace(state, seats=tuple(seats))


def table(hassle: str | None, market: bool = True) -> State:
    """Seat 0 to play; its Market Open (if any) carries ``hassle``; seat 1 open and rich."""
    state = new()
    state = with_seat(
        state,
        0,
        market_open=market,
        hassle=hassle if market else None,
        businesses=("merchandise", "brokering") if market else (),
    )
    return with_seat(state, 1, market_open=True, businesses=("weapons", "tropical_fish"))
