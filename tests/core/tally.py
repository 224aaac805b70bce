"""A tiny test engine ("tally") that exercises every part of the contract.

Seats take turns adding 1..9 to a shared total; whoever takes the total to
``target`` wins. ``hesitation_s`` after the last add, the seat to play loses its turn
(a deadline). Each seat may note a secret number that only its seat view shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar

from companion.games.actions import ActionSet, Deadline, GameAction, Seat, Spec
from companion.games.base import (
    ButtonInput,
    Outcome,
    Setup,
    TableInput,
    TagInput,
    require,
)
from companion.games.engine import Engine
from companion.games.moves import Choice, Move, Param, Scores, Waiting

default_options: Mapping[str, Any] = {"target": 30, "hesitation_s": 2.0}


@dataclass(frozen=True)
class State:
    seats: int
    target: int
    hesitation: float
    total: int = 0
    turn: int = 0
    last_t: float | None = None
    winner: int | None = None
    secrets: tuple[int, ...] = ()
    timeouts: int = 0


@dataclass(frozen=True)
class Added:
    seat: int
    n: int
    t: float


@dataclass(frozen=True)
class TimedOut:
    seat: int


@dataclass(frozen=True)
class SecretNoted:
    seat: int
    value: int


event_types = {c.__name__: c for c in (Added, TimedOut, SecretNoted)}


def start(setup: Setup) -> State:
    opts = setup.options
    return State(setup.n_seats, int(opts["target"]), float(opts["hesitation_s"]),
                 secrets=(0,) * setup.n_seats)


@dataclass(frozen=True, kw_only=True)
class Add(GameAction):
    """Add 1 to 9 to the total (by the seat whose turn it is)."""

    do: ClassVar[str] = "add"
    label: ClassVar[str] = "Add to the total"
    n: Annotated[int, Spec("the number to add", 1, 9)]
    #: a tag the kill test puts on each action to find it in the store
    id: Annotated[str, Spec("the tag")] | None = None


@dataclass(frozen=True, kw_only=True)
class Secret(GameAction):
    """Note a secret number only this seat's phone shows."""

    do: ClassVar[str] = "secret"
    label: ClassVar[str] = "Note a secret number"
    seat: Seat
    value: Annotated[int, Spec("the secret number", 0, 10**6, open=True)]


ACTIONS = ActionSet("Tally", Add, Secret)


def decide(state: State, action: Mapping[str, Any], now: float) -> list[Any]:
    act = ACTIONS.parse(action)
    require(state.winner is None, "The game is over.")
    if isinstance(act, Deadline):
        return [TimedOut(state.turn)]
    if isinstance(act, Add):
        seat = act.seat if act.seat is not None else state.turn
        require(seat == state.turn, f"It is seat {state.turn + 1}'s turn, not seat {seat + 1}.")
        return [Added(state.turn, act.n, now)]
    assert isinstance(act, Secret)
    require(act.seat < state.seats, "There is no such player.")
    return [SecretNoted(act.seat, act.value)]


def moves(state: State, seat: int | None) -> list[Move]:
    if seat is None or state.winner is not None:
        return []
    out = [Move("secret", "Note a secret number", {"seat": seat},
                (Param("value", "Which number?", "number", minimum=0, maximum=10**6),))]
    add = Move("add", "Add to the total", {"seat": seat},
               (Param("n", "How much?", choices=tuple(Choice(n, str(n)) for n in range(1, 10))),))
    if seat == state.turn:
        return [add, *out]
    return [Move("add", "Add to the total", {"seat": seat}, allowed=False,
                 why=f"It is seat {state.turn + 1}'s turn."), *out]


def waiting(state: State) -> Waiting:
    if state.winner is not None:
        return Waiting((), "over", f"Seat {state.winner + 1} won.")
    return Waiting((state.turn,), "turn", f"Seat {state.turn + 1} to play")


def scores(state: State) -> Scores | None:
    """Tally keeps one shared total, no score per seat."""
    return None


def apply(state: State, event: Any) -> State:
    if isinstance(event, Added):
        total = state.total + event.n
        winner = event.seat if total >= state.target else None
        return replace(state, total=total, turn=(event.seat + 1) % state.seats,
                       last_t=event.t, winner=winner)
    if isinstance(event, TimedOut):
        assert state.last_t is not None
        return replace(state, turn=(event.seat + 1) % state.seats,
                       last_t=state.last_t + state.hesitation, timeouts=state.timeouts + 1)
    if isinstance(event, SecretNoted):
        secrets = list(state.secrets)
        secrets[event.seat] = event.value
        return replace(state, secrets=tuple(secrets))
    raise TypeError(event)


def outcome(state: State) -> Outcome | None:
    return Outcome((state.winner,)) if state.winner is not None else None


def next_deadline(state: State) -> float | None:
    if state.last_t is None or state.winner is not None:
        return None
    return state.last_t + state.hesitation


def public_view(state: State) -> dict[str, Any]:
    return {"total": state.total, "turn": state.turn, "status": f"Seat {state.turn + 1} to play"}


def secrets(state: State, seat: int) -> dict[str, Any]:
    return {"secret": state.secrets[seat]}


def signals(state: State, events: Sequence[Any]) -> list[tuple[str, int | None]]:
    out: list[tuple[str, int | None]] = []
    for e in events:
        if isinstance(e, TimedOut):
            out.append(("hesitation", e.seat))
        elif isinstance(e, Added):
            out.append(("card", e.seat))
    if state.winner is not None:
        out.append(("game_over", state.winner))
    return out


def state_json(state: State) -> dict[str, Any]:
    return {"total": state.total, "turn": state.turn, "timeouts": state.timeouts,
            "secrets": list(state.secrets)}


def action_for_input(state: State, inp: TableInput) -> dict[str, Any] | None:
    if isinstance(inp, TagInput) and inp.seen and inp.zone == "pile":
        return {"do": "add", "n": int(str(inp.serial or 1)) % 9 + 1}
    if isinstance(inp, ButtonInput) and inp.role == "seat":
        return {"do": "add", "seat": inp.seat, "n": 1}
    return None


engine: Engine[State, Any] = Engine(
    name="tally",
    title="Tally (test game)",
    aliases=("tally_test",),
    min_seats=2,
    max_seats=6,
    default_options=default_options,
    event_types=event_types,
    start=start,
    decide=decide,
    apply=apply,
    outcome=outcome,
    next_deadline=next_deadline,
    public_view=public_view,
    secrets=secrets,
    waiting=waiting,
    state_json=state_json,
    signals=signals,
    action_for_input=action_for_input,
    actions=ACTIONS,
    moves=moves,
    scores=scores,
)
