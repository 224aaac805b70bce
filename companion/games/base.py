"""The rules engine contract every game follows (python-chess shape, event-sourced).

An engine is a module-level object with pure functions only: no I/O, no clock, no
threads, no randomness (a seed travels in the game header). Same record in, same
state out.

- ``new_game(setup)`` builds the initial ``State`` (a frozen dataclass).
- ``decide(state, action, now)`` returns the past-tense ``Event`` dataclasses an action
  causes, or raises ``IllegalAction`` with a reason a player understands.
- ``apply(state, event)`` folds one event into a new state; ``outcome(state)`` is the
  end of the game as a value (``None`` while it goes on).
- ``next_deadline(state)`` tells the table loop when to deliver ``{"do": "deadline"}``
  (the 3-second rule); replay delivers it at exactly that time.
- ``public_view(state)`` is what everyone may see; ``seat_view(state, seat)`` is the only
  way hidden information leaves, and only to that seat's phone.

Actions are JSON objects exactly as written in a record line (``{"do": "play", ...}``)
without the ``t`` key. Events are frozen dataclasses whose fields are JSON values
(tuples for lists); ``event_to_json`` / ``event_from_json`` store them.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

Action = Mapping[str, Any]
JSON = Any

#: The action the table loop delivers when ``next_deadline`` is reached.
DEADLINE = "deadline"

#: What the buzzer and LEDs can answer (``Engine.signals``); ``refused`` is the table's.
SIGNALS = (
    "card",  # a card was accepted
    "turn",  # it is now this seat's turn
    "hesitation",  # a seat was penalised by the clock (the 3-second rule)
    "penalty",  # any other penalty / mistake against a seat
    "upheld",  # an accusation or protest succeeded
    "not_upheld",  # an accusation or protest failed
    "refused",  # an input the rules refused (sent by the table loop, not engines)
    "game_over",
)


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


S = TypeVar("S")


class Engine(Protocol):
    """What the table loop, replay and the dashboard need from a game."""

    name: str
    aliases: tuple[str, ...]
    title: str
    min_seats: int
    max_seats: int
    #: option name -> default value; a header option not listed here is refused.
    default_options: Mapping[str, Any]
    #: event type name -> event class, for loading stored events.
    event_types: Mapping[str, type]

    def new_game(self, setup: Setup) -> Any: ...

    def decide(self, state: Any, action: Action, now: float) -> list[Any]: ...

    def apply(self, state: Any, event: Any) -> Any: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def next_deadline(self, state: Any) -> float | None: ...

    def public_view(self, state: Any) -> dict[str, Any]: ...

    def seat_view(self, state: Any, seat: int) -> dict[str, Any]: ...

    def signals(self, state: Any, events: Sequence[Any]) -> list[tuple[str, int | None]]:
        """``(signal, seat or None)`` for the buzzer/LEDs after ``events`` led to ``state``.

        Signal names come from ``SIGNALS``.
        """
        ...

    def state_json(self, state: Any) -> dict[str, Any]:
        """The full state for ``companion replay --json`` (replay knows everything)."""
        ...

    def action_for_input(self, state: Any, inp: Mapping[str, Any]) -> Action | None:
        """Turn a table input into an action, or ``None`` if it means nothing now.

        ``inp`` is one of
        ``{"kind": "tag_seen", "card": id, "serial": n, "zone": z, "t": t}``,
        ``{"kind": "tag_left", ...same...}``,
        ``{"kind": "button", "seat": n | None, "role": "seat"|"confirm"|"undo"|"next",
        "hold": bool, "t": t}``. Raise ``IllegalAction`` to refuse it with a reason
        (e.g. the same physical card played twice).
        """
        ...


def check_options(engine: Engine, options: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults merged with ``options``; an unknown option raises ``SetupError``."""
    unknown = sorted(set(options) - set(engine.default_options))
    if unknown:
        known = ", ".join(sorted(engine.default_options)) or "none"
        raise SetupError(
            f"{engine.name}: unknown option(s) {', '.join(unknown)}; known options: {known}"
        )
    merged = dict(engine.default_options)
    merged.update(options)
    return merged


def check_seats(engine: Engine, setup: Setup) -> None:
    """Raise ``SetupError`` unless the seat count is one the game supports."""
    if not engine.min_seats <= setup.n_seats <= engine.max_seats:
        raise SetupError(
            f"{engine.title} is played by {engine.min_seats} to {engine.max_seats} players, "
            f"not {setup.n_seats}"
        )


def require(condition: bool, reason: str) -> None:
    """Raise ``IllegalAction(reason)`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)


def get_int(action: Action, key: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """An integer field of an action, or ``IllegalAction`` naming the field."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"'{key}' must be a whole number, got {value!r}")
    if lo is not None and value < lo or hi is not None and value > hi:
        raise IllegalAction(f"'{key}' must be between {lo} and {hi}, got {value}")
    return value


def get_str(action: Action, key: str, choices: Iterable[str] | None = None) -> str:
    """A string field of an action, or ``IllegalAction`` naming the field and choices."""
    value = action.get(key)
    if not isinstance(value, str):
        raise IllegalAction(f"'{key}' must be text, got {value!r}")
    if choices is not None:
        allowed = tuple(choices)
        if value not in allowed:
            raise IllegalAction(f"'{key}' must be one of {', '.join(allowed)}, got {value!r}")
    return value


# --- event codec -------------------------------------------------------------------


def event_type_name(event: Any) -> str:
    return type(event).__name__


def event_to_json(event: Any) -> tuple[str, dict[str, Any]]:
    """``(type name, payload)`` of an event dataclass, payload JSON-ready."""
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        raise TypeError(f"not an event dataclass: {event!r}")
    payload = {f.name: _to_json(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return event_type_name(event), payload


def _to_json(value: Any) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _from_json(value: JSON) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def event_from_json(types: Mapping[str, type], name: str, payload: Mapping[str, Any]) -> Any:
    """Rebuild an event from its stored type name and payload (lists become tuples)."""
    cls = types.get(name)
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    return cls(**{k: _from_json(v) if isinstance(v, list) else v for k, v in payload.items()})


def fold(engine: Engine, state: S, events: Sequence[Any]) -> S:
    """Apply ``events`` in order."""
    for event in events:
        state = engine.apply(state, event)
    return state


def run_action(
    engine: Engine, state: Any, action: Action, now: float
) -> tuple[Any, list[Any]]:
    """Decide and apply one action: ``(new state, events)``; raises ``IllegalAction``."""
    events = engine.decide(state, action, now)
    return fold(engine, state, events), events


def deliver_deadlines(
    engine: Engine,
    state: Any,
    until: float,
    on_events: Callable[[float, list[Any]], None],
    after: float = float("-inf"),
) -> Any:
    """Deliver every deadline due at or before ``until``, in time order.

    Used by replay and by the table loop (through ``Session``), so timed rules behave
    the same live and replayed. ``on_events(t, events)`` sees each deadline's events.
    A deadline due at or before ``after`` is not delivered (and stops the delivery).
    """
    for _ in range(10_000):  # a bound, so a buggy engine cannot hang the table
        due = engine.next_deadline(state)
        if due is None or due > until or due <= after:
            return state
        state, events = run_action(engine, state, {"do": DEADLINE}, due)
        if not events:
            raise RuntimeError(f"{engine.name}: deadline at {due} produced no event")
        on_events(due, events)
    raise RuntimeError(f"{engine.name}: more than 10000 deadlines in a row")
