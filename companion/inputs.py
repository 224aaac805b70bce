"""What the table loop consumes: one queue of these inputs, from every source.

The camera thread sends ``TagSeen``/``TagLeft``, GPIO callbacks ``ButtonPressed``,
web requests ``Command``. Each ``submit`` returns a ``Future`` that resolves to a
``Result`` only after the input's events are committed to the store (or refused).
Times ``at`` are on the table's monotonic clock (``time.monotonic`` unless injected).
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from companion.games.base import ButtonRole as ButtonRole  # re-exported: buttons use it

SourceKind = Literal["host", "cli", "camera", "table", "seat"]

#: What the deck registry says of a tag: one of our cards (``ok``), a code of no deck we
#: know (``unknown``: also anything that is not a tag at all), or a forged copy.
TagStatus = Literal["ok", "unknown", "forged"]


@dataclass(frozen=True)
class Source:
    """Who sent an input: the host, the CLI, the camera, the table itself, or a seat.

    ``str(source)`` is its wire form in refusals and logs (``"host"``, ``"seat:2"``);
    seats count from 0 here, as in the engines.
    """

    kind: SourceKind
    seat: int | None = None

    @classmethod
    def of_seat(cls, seat: int) -> Source:
        return cls("seat", seat)

    @property
    def is_host(self) -> bool:
        """The host's phone or the command line: may start, end, undo and rule."""
        return self.kind in ("host", "cli")

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


HOST = Source("host")
CAMERA = Source("camera")
TABLE = Source("table")


@dataclass(frozen=True)
class TagSeen:
    """A tag decoded consistently; ``at`` is the capture time of its first frame."""

    payload: str
    at: float
    zone: str | None = None
    status: TagStatus = "unknown"
    game: str | None = None
    card: str | None = None
    serial: int | None = None


@dataclass(frozen=True)
class TagLeft:
    """A tag that has been missing for the configured time; ``at`` is when it was last seen."""

    payload: str
    at: float
    zone: str | None = None
    status: TagStatus = "unknown"
    game: str | None = None
    card: str | None = None
    serial: int | None = None


@dataclass(frozen=True)
class ButtonPressed:
    """One press of a button (debounced); ``hold`` when it was a long press."""

    role: ButtonRole
    at: float
    seat: int | None = None
    hold: bool = False


@dataclass(frozen=True)
class Command:
    """A request from the dashboard or the CLI.

    ``name`` is ``"action"`` (``args["action"]`` is a game action JSON object),
    ``"start"`` (``args``: ``game``, ``players``, ``options``, optional ``seed``),
    ``"undo"``, ``"end"`` (abandon the running game) or ``"finish_hand"``.
    ``source`` says who sent it (the host, the CLI or a seat); a seat may only act
    for itself.
    """

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    source: Source = HOST
    at: float | None = None


Input = TagSeen | TagLeft | ButtonPressed | Command


def source_of(inp: Input) -> Source:
    """Who sent ``inp``: a command says so, a seat button is that seat, tags are the camera."""
    if isinstance(inp, Command):
        return inp.source
    if isinstance(inp, ButtonPressed):
        return Source.of_seat(inp.seat) if inp.seat is not None else HOST
    return CAMERA


@dataclass(frozen=True)
class Result:
    """What became of an input: accepted with the seq of its last event, or refused."""

    accepted: bool
    seq: int | None = None
    reason: str | None = None
    ignored: bool = False  # an input that means nothing now (a card lifted, say)


class InputSink(Protocol):
    """Anything that takes table inputs: the table loop, or a fake in tests."""

    def submit(self, inp: Input) -> Future[Result]: ...
