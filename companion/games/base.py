"""The values every game engine shares: actions, errors, setup, outcome, table inputs.

Engines are pure: no I/O, no clock, no threads, no randomness (a seed travels in the
game header). Same record in, same state out. The engine object itself and its
contract are in ``companion.games.engine``; events are stored by
``companion.games.codec``.

Actions are typed values (``companion.games.actions``) that stand for a record line
(``{"do": "play", ...}``) without the ``t`` key. Events are frozen dataclasses whose
fields are JSON values (tuples for lists).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Action = Mapping[str, Any]
JSON = Any

#: The action the table loop delivers when ``next_deadline`` is reached.
DEADLINE = "deadline"

#: What the buzzer and LEDs can answer (``Engine.signals``); ``refused`` is the table's.
Signal = Literal[
    "card",  # a card was accepted
    "turn",  # it is now this seat's turn
    "hesitation",  # a seat was penalised by the clock (the 3-second rule)
    "penalty",  # any other penalty / mistake against a seat
    "upheld",  # an accusation or protest succeeded
    "not_upheld",  # an accusation or protest failed
    "refused",  # an input the rules refused (sent by the table loop, not engines)
    "game_over",
]
SIGNALS: tuple[str, ...] = get_args(Signal)

#: ``(signal, seat or None)``: what the buzzer and LEDs answer after an input.
SignalOut = tuple[str, int | None]

ButtonRole = Literal["seat", "confirm", "undo", "next"]


@dataclass(frozen=True)
class TagInput:
    """A card's tag that settled in (``seen``) or left a camera zone, as engines get it.

    Only tags of the running game's deck reach an engine; ``t`` is game time.
    """

    seen: bool
    card: str | None
    serial: int | None
    zone: str | None
    t: float
    #: the printed stats the deck holds for this physical card (Crime Lords), if any
    stats: Mapping[str, Any] | None = None
    #: when the camera saw this card land without reading it (game time), if it did: the
    #: tag was read later where that landing lay (``vision.landing``)
    landed: float | None = None


@dataclass(frozen=True)
class ButtonInput:
    """A press of a table button (``seat`` for a seat's button), as engines get it."""

    role: ButtonRole
    seat: int | None
    hold: bool
    t: float


@dataclass(frozen=True)
class SightInput:
    """The camera's view of the pile turned at ``t``: a lamp's glare would hide a tag over
    part of it (``blind``), or no longer would (games with the feature ``pile_sight``)."""

    blind: bool
    t: float


#: What ``Engine.action_for_input`` turns into an action.
TableInput = TagInput | ButtonInput | SightInput


@dataclass(frozen=True)
class OptionSpec:
    """How the setup page offers one option: a label, one line of help, and (for a
    choice) the allowed values with their labels, radio buttons in that order."""

    label: str
    help: str = ""
    #: value -> label; the setup page offers exactly these (the default pre-selected)
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None


class IllegalAction(ValueError):
    """An action the rules refuse; ``reason`` is a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SetupError(ValueError):
    """A game header (seats, options) the engine cannot start; says what to change."""


@dataclass(frozen=True)
class Setup:
    """Everything a game starts from: the record header, normalised."""

    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    @property
    def n_seats(self) -> int:
        return len(self.seats)


class Termination(enum.Enum):
    WON = "won"
    SHARED = "shared"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Outcome:
    """The end of a game (or of a hand, for match games) as a value."""

    winners: tuple[int, ...]
    termination: Termination = Termination.WON
    detail: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, winners: tuple[int, ...], detail: Mapping[str, Any]) -> Outcome:
        """A game won by ``winners``: one seat wins, several share the win."""
        termination = Termination.WON if len(winners) == 1 else Termination.SHARED
        return cls(tuple(winners), termination, detail)

    def to_json(self) -> dict[str, Any]:
        """The outcome as record/replay JSON: ``winner`` plus the engine's details."""
        winner: JSON = list(self.winners)
        out: dict[str, Any] = {"winner": winner, "termination": self.termination.value}
        out.update(self.detail)
        return out


def require(condition: bool, reason: str) -> None:
    """Raise ``IllegalAction(reason)`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)
