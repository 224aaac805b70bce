"""What the table loop consumes: one queue of these inputs, from every source.

The camera thread sends ``TagSeen``/``TagLeft`` (and ``CardLanded``: a card it could not
read; ``PileSight``: whether glare hides tags over the pile), GPIO callbacks ``ButtonPressed``,
web requests ``Command``. Each ``submit`` returns a ``Future`` that resolves to a
``Result`` only after the input's events are committed to the store (or refused).
Times ``at`` are on the table's monotonic clock (``time.monotonic`` unless injected).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.games.actions import SentBy
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

    def __post_init__(self) -> None:
        if (self.kind == "seat") != (self.seat is not None):
            raise ValueError("a seat's source names its seat, and only a seat's does")

    @classmethod
    def of_seat(cls, seat: int) -> Source:
        return cls("seat", seat)

    @property
    def is_host(self) -> bool:
        """The host's phone or the command line: may start, end, undo and rule."""
        return self.kind in ("host", "cli")

    @property
    def sender(self) -> SentBy:
        """Who sent a game action, as the engine core checks it (``ActionSet.admit``):
        the host (its phone, the command line), the table itself (its camera, buttons,
        clock), or that seat's phone."""
        if self.seat is not None:
            return self.seat
        return "host" if self.is_host else "table"

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


HOST = Source("host")
CAMERA = Source("camera")
TABLE = Source("table")


@dataclass(frozen=True)
class TagSeen:
    """A tag decoded consistently; ``at`` is the capture time of its first frame.

    ``landed``: the camera saw this card land at that time without reading it (it sent
    ``CardLanded`` then) and reads it now where that landing lay.
    """

    payload: str
    at: float
    zone: str | None = None
    status: TagStatus = "unknown"
    game: str | None = None
    card: str | None = None
    serial: int | None = None
    landed: float | None = None


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
class CardLanded:
    """Something card-sized landed and settled in camera zone ``zone`` at ``at``, and no
    tag was read there (a lamp's glare hid it): a card the camera could not name."""

    at: float
    zone: str | None = None


@dataclass(frozen=True)
class PileSight:
    """Whether a card's tag would read everywhere over the pile (``vision.check``'s glare
    parts of the pile's zones): ``blind`` from ``at`` on while a lamp's glare would hide a
    tag over part of it, not ``blind`` once it would read everywhere again. The camera
    sends it when it turns (and once when a pipeline starts watching a glared pile).
    A game that times players from the cards the camera sees (The Nasty 7's 3-second
    rule) cannot time a card it cannot see: feature ``pile_sight``."""

    at: float
    blind: bool


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
    request_id: str | None = None  # the sender's id: a retry of a stored one is "already done"


Input = TagSeen | TagLeft | CardLanded | PileSight | ButtonPressed | Command


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
    already: bool = False  # a retried request that was stored before: not stored again


#: bounds on what a person's request may hold (JSON from a phone, the host or the CLI)
MAX_DEPTH = 12
MAX_STRING = 2000
MAX_ITEMS = 500
MAX_NUMBER = 10**15
REQUEST_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")


def _a_number_in(where: str) -> str:
    return f"a number in {where}" if where in ("the request", "the action") else where


def json_problem(value: Any, where: str = "the request", depth: int = 0) -> str | None:
    """What is wrong with ``value`` as plain, bounded JSON, in a sentence; None when fine.

    Plain JSON is null, booleans, strings, finite numbers within ``MAX_NUMBER``, lists and
    objects with string keys, nested at most ``MAX_DEPTH`` deep. The sentence names
    ``where`` (the whole request, a record line), never a key inside it: a player reads it.
    """
    if depth > MAX_DEPTH:
        return f"{where} is nested too deeply (at most {MAX_DEPTH} levels)"
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"{_a_number_in(where)} is not finite"
        if abs(value) > MAX_NUMBER:
            return f"{_a_number_in(where)} is too large (at most {MAX_NUMBER:,})"
        return None
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            return f"a text in {where} is too long (at most {MAX_STRING:,} characters)"
        return None
    if isinstance(value, list | tuple):
        if len(value) > MAX_ITEMS:
            return f"a list in {where} has too many items (at most {MAX_ITEMS})"
        for item in value:
            problem = json_problem(item, where, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, Mapping):
        if len(value) > MAX_ITEMS:
            return f"{where} has too many parts (at most {MAX_ITEMS})"
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > 100:
                return f"{where} has a name that is not a short text"
            # a command's own settings are named (the seed, the players); what lies
            # deeper (an action's keys) is not: a player reads this sentence
            inner = f"the {key.replace('_', ' ')}" if depth == 0 and key.isidentifier() \
                and key != "action" else where
            problem = json_problem(item, inner, depth + 1)
            if problem:
                return problem
        return None
    return f"{where} is not JSON ({type(value).__name__})"


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[{]|[\]}]")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows: send a finite number")


def parse_json(text: str | bytes) -> Any:
    """Plain, bounded JSON from a person (see ``json_problem``); ``ValueError`` says why.

    The nesting is measured before parsing, so 30,000 ``[`` are refused in a few
    milliseconds instead of overflowing the parser's stack.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the body is not UTF-8 text") from None
    value = load_json(text, MAX_DEPTH)
    problem = json_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def load_json(text: str, max_depth: int) -> Any:
    """``json.loads`` nested at most ``max_depth`` deep, without NaN or infinities.

    ``ValueError`` says what is wrong; the depth is measured first, so deep nesting
    never reaches the parser's stack.
    """
    depth = deepest = 0
    for m in _BRACKETS.finditer(_STRINGS.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > max_depth + 1:
            raise ValueError(f"the JSON is nested too deeply (at most {max_depth} levels)")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(f"the JSON is nested too deeply (at most {max_depth} levels)") from None
    except ValueError as exc:
        raise ValueError(f"that is not valid JSON: {exc}") from None


def request_id_problem(value: Any) -> str | None:
    """What is wrong with a client request id; None when it is fine (or absent)."""
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= 80 \
            or not set(value) <= REQUEST_ID_CHARS:
        return ("the request id (request_id) must be 1 to 80 letters, digits or - _ . : "
                "(the same id for a retry of the same request)")
    return None

