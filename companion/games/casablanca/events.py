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
    """A move waiting for protests (a second one for the same move replaces the first:
    the suitcase taken along after all); ``at`` is when it was announced."""

    seat: int
    agent: str
    to: str
    suitcase: bool
    at: float | None = None


@dataclass(frozen=True)
class EliminationAnnounced:
    seat: int
    agent: str
    target: str
    at: float | None = None


@dataclass(frozen=True)
class ProtestRaised:
    """A protest that waits for a concession or the blind comparison (option
    ``concessions``)."""

    seat: int
    agent: str


@dataclass(frozen=True)
class StoodFirm:
    """One party of the open protest asks for the comparison instead of conceding."""

    seat: int


@dataclass(frozen=True)
class ProtestConceded:
    """``seat`` conceded the open protest; nothing is revealed. ``upheld``: the actor
    conceded, so the action is cancelled."""

    seat: int
    agent: str
    upheld: bool


@dataclass(frozen=True)
class TagMoved:
    """The camera saw a stand's (or the suitcase's) tag settle in ``zone`` at ``t``
    (``zone`` ``None``: it left sight)."""

    tag: str
    zone: str | None
    t: float


@dataclass(frozen=True)
class SightingSettled:
    """The engine acted on a sighting; ``note`` (may be empty) tells the table why it
    means nothing."""

    tag: str
    note: str


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
        ProtestRaised,
        StoodFirm,
        ProtestConceded,
        TagMoved,
        SightingSettled,
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
    | ProtestRaised
    | StoodFirm
    | ProtestConceded
    | TagMoved
    | SightingSettled
)
