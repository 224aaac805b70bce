"""Casablanca's past-tense events and ``EVENT_TYPES`` (the names records store them by).

``BribesPlaced`` carries a seat's secret amounts: raw events must never be sent to clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True)
class BribesPlaced:
    """A seat's secret bribes: ``amounts[i]`` on ``agents[i]`` (never sent to clients)."""

    seat: int
    agents: tuple[str, ...]
    amounts: tuple[int, ...]


@dataclass(frozen=True)
class MoveAnnounced:
    seat: int
    agent: str
    to: str
    suitcase: bool


@dataclass(frozen=True)
class EliminationAnnounced:
    seat: int
    agent: str
    target: str


@dataclass(frozen=True)
class ProtestSettled:
    """A protest against the pending action; ``called`` is ``None`` when not revealed."""

    seat: int
    agent: str
    upheld: bool
    called: int | None


@dataclass(frozen=True)
class MoveCommitted:
    seat: int
    agent: str
    origin: str
    to: str
    suitcase: bool


@dataclass(frozen=True)
class EliminationCommitted:
    seat: int
    agent: str
    target: str
    cost: int


@dataclass(frozen=True)
class GameEnded:
    agent: str
    mover: int
    winners: tuple[int, ...]


@dataclass(frozen=True)
class TurnPassed:
    seat: int
    to_seat: int


EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        BribesPlaced,
        MoveAnnounced,
        EliminationAnnounced,
        ProtestSettled,
        MoveCommitted,
        EliminationCommitted,
        GameEnded,
        TurnPassed,
    )
}


#: Any event of this game.
Event: TypeAlias = (
    BribesPlaced
    | MoveAnnounced
    | EliminationAnnounced
    | ProtestSettled
    | MoveCommitted
    | EliminationCommitted
    | GameEnded
    | TurnPassed
)
