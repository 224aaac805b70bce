"""Casablanca's rules: what each action causes (``decide``), and the end of the game.

Bribes, moves and eliminations are checked here; a move or elimination is only
*announced* (``MoveAnnounced``/``EliminationAnnounced``) and is committed by ``_commit``
when the next action that is not a protest arrives, on ``{"do": "resolve"}``, or by
``end_of_record``. Refusal reasons never name a bribe amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from companion.games.base import (
    Action,
    IllegalAction,
    Outcome,
    get_int,
    get_str,
    require,
)
from companion.games.casablanca.events import (
    BribesPlaced,
    EliminationAnnounced,
    EliminationCommitted,
    Event,
    GameEnded,
    MoveAnnounced,
    MoveCommitted,
    ProtestSettled,
    TurnPassed,
)
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import HOME, MIN_CALL, Announced, State
from companion.games.emit import Emitter

#: The actions of a record line's ``do``.
ActionName = Literal["bribe", "move", "eliminate", "protest", "resolve"]
ACTIONS: tuple[ActionName, ...] = ("bribe", "move", "eliminate", "protest", "resolve")



def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    do = get_str(action, "do")
    require(do in ACTIONS, f"Casablanca has no action {do!r}: use {', '.join(ACTIONS)}.")
    require(state.winners is None, "The game is over: start a new game to play again.")
    if do == "protest":
        return decide_protest(state, action)
    if do == "resolve":
        return _decide_resolve(state)
    out: Emitter[State, Event] = Emitter(state, apply)
    if state.pending is not None:
        out.emit(*_commit(state))
        require(
            out.state.winners is None,
            "The announced move carries the suitcase home and ends the game: confirm it "
            "(resolve) instead of playing on.",
        )
    seat = _seat(out.state, action)
    if out.state.follow_up is not None and seat != out.state.turn:
        out.emit(TurnPassed(out.state.turn, out.state.next_seat(out.state.turn)))
    state = out.state
    require(
        seat == state.turn,
        f"It is {state.seats[state.turn]}'s turn, not {state.seats[seat]}'s: wait for your turn.",
    )
    if do == "bribe":
        return out.events + _decide_bribe(state, seat, action)
    if do == "move":
        return out.events + _decide_move(state, seat, action)
    return out.events + _decide_eliminate(state, seat, action)


def _seat(state: State, action: Action) -> int:
    return get_int(action, "seat", lo=0, hi=len(state.seats) - 1)


def _active_agent(state: State, action: Action, key: str) -> str:
    agent = get_str(action, key)
    ids = [a.id for a in state.agents]
    require(agent in ids, f"There is no agent {agent!r}: the agents are {', '.join(ids)}.")
    require(
        state.agent(agent).active,
        f"{state.name(agent)} was eliminated and is out of the game: choose another agent.",
    )
    return agent


def bribe_barred(state: State, seat: int) -> str | None:
    """Why ``seat`` may not bribe now (pending actions already committed), or ``None``."""
    if seat != state.turn:
        return f"It is {state.seats[state.turn]}'s turn: you may bribe on your own turn."
    if state.follow_up is not None:
        return (
            f"You already moved {state.name(state.follow_up)} this turn: you may only "
            "eliminate with it, or let the next player go on."
        )
    if state.no_bribe:
        return (
            "Your action was stopped by a protest, so you may not bribe this turn: "
            "announce another move or elimination."
        )
    return None


def _decide_bribe(state: State, seat: int, action: Action) -> list[Event]:
    barred = bribe_barred(state, seat)
    require(barred is None, barred or "")
    agents, amounts = _bribe_items(state, action.get("amounts"))
    require(
        sum(amounts) <= state.left[seat],
        "These bribes add up to more than you have left: lower them (your sheet shows "
        "what is left).",
    )
    return [
        BribesPlaced(seat, tuple(agents), tuple(amounts)),
        TurnPassed(seat, state.next_seat(seat)),
    ]


def _bribe_items(state: State, raw: Any) -> tuple[list[str], list[int]]:
    """The agents and amounts of a bribe's ``amounts`` list, checked one by one."""
    if not isinstance(raw, list | tuple) or not raw:
        raise IllegalAction(
            'A bribe needs "amounts": a list like [{"agent": "red", "amount": 500}].'
        )
    agents: list[str] = []
    amounts: list[int] = []
    step = state.options.step
    for item in raw:
        if not isinstance(item, Mapping):
            raise IllegalAction('Each bribe must look like {"agent": "red", "amount": 500}.')
        agents.append(_active_agent(state, item, "agent"))
        amount = item.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0 or amount % step:
            raise IllegalAction(
                f"Each bribe must be a positive multiple of ${step:,}: correct the amount."
            )
        amounts.append(amount)
    return agents, amounts


def _decide_move(state: State, seat: int, action: Action) -> list[Event]:
    require(state.follow_up is None, bribe_barred(state, seat) or "")
    agent = _active_agent(state, action, "agent")
    label = state.name(agent)
    to = get_str(action, "to")
    if to == HOME:
        to = state.options.spec(agent).homebase
    require(to != "", "'to' must name a space, or \"home\" for the agent's homebase.")
    suitcase = action.get("suitcase", False)
    require(isinstance(suitcase, bool), "'suitcase' must be true or false.")
    here = state.agent(agent).space
    require(to != here, f"{label} is already at {to}: move it to another space.")
    near = state.options.neighbours(here)
    require(
        near is None or to in near,
        f"{to} is not next to {here}: {label} can go to {', '.join(near or ()) or 'nowhere'}.",
    )
    require(
        not suitcase or state.suitcase_at() == here,
        f"The suitcase is not at {here}: move {label} without it.",
    )
    announced = Announced("move", seat, agent, to=to, suitcase=bool(suitcase))
    require(
        announced.key() not in state.cancelled,
        f"A protest stopped moving {label} to {to} this turn: announce a different action.",
    )
    return [MoveAnnounced(seat, agent, to, bool(suitcase))]


def _decide_eliminate(state: State, seat: int, action: Action) -> list[Event]:
    agent = _active_agent(state, action, "agent")
    target = _active_agent(state, action, "target")
    label, victim = state.name(agent), state.name(target)
    if state.follow_up is not None:
        require(
            agent == state.follow_up,
            f"After your move you may only eliminate with {state.name(state.follow_up)}.",
        )
    require(agent != target, f"{label} cannot eliminate itself: name another agent.")
    space = state.agent(agent).space
    require(
        state.agent(target).space == space,
        f"{victim} is not on {label}'s space ({space}): both must share a space.",
    )
    require(
        state.options.eliminate_in_home or space != state.options.spec(target).homebase,
        f"{victim} is in its homebase, where it cannot be eliminated.",
    )
    require(
        ("eliminate", agent, target) not in state.cancelled,
        f"A protest stopped {label} eliminating {victim} this turn: announce a different action.",
    )
    cost = state.options.elimination_cost
    require(
        state.bribe(seat, agent) >= cost,
        f"To eliminate with {label} you need at least ${cost:,} of your bribes on it.",
    )
    return [EliminationAnnounced(seat, agent, target)]


def decide_protest(state: State, action: Action) -> list[Event]:
    """A protest against the pending announcement, settled blind by the two bribes."""
    pending = state.pending
    require(
        pending is not None,
        "There is nothing to protest: protest right after a move or elimination is announced.",
    )
    assert pending is not None
    seat = _seat(state, action)
    require(seat != pending.seat, "You cannot protest your own action.")
    require(seat not in {p.seat for p in pending.protests}, "You already protested this action.")
    n = len(state.seats)
    later = [
        p.seat for p in pending.protests if (p.seat - pending.seat) % n > (seat - pending.seat) % n
    ]
    require(
        not later,
        f"{state.seats[later[0] if later else 0]} sits after you clockwise and has already "
        "protested: your chance to protest this action has passed.",
    )
    label = state.name(pending.agent)
    mine = state.bribe(seat, pending.agent)
    require(
        mine >= MIN_CALL, f"To protest you need at least ${MIN_CALL} of your bribes on {label}."
    )
    theirs = state.bribe(pending.seat, pending.agent)
    called = None
    if state.options.protest_reveal == "called":
        called = max(MIN_CALL, min(mine, theirs + state.options.step))
    return [ProtestSettled(seat, pending.agent, mine > theirs, called)]


def _decide_resolve(state: State) -> list[Event]:
    if state.pending is not None:
        return _commit(state)
    require(
        state.follow_up is not None,
        "There is nothing to confirm: no move or elimination is waiting for protests.",
    )
    return [TurnPassed(state.turn, state.next_seat(state.turn))]


def _commit(state: State) -> list[Event]:
    """The events that make the pending announcement take effect."""
    pending = state.pending
    assert pending is not None
    nxt = TurnPassed(pending.seat, state.next_seat(pending.seat))
    if pending.kind == "eliminate":
        cost = state.options.elimination_cost
        return [EliminationCommitted(pending.seat, pending.agent, pending.target, cost), nxt]
    origin = state.agent(pending.agent).space
    moved = MoveCommitted(pending.seat, pending.agent, origin, pending.to, pending.suitcase)
    after = apply(state, moved)
    if pending.suitcase and pending.to == state.options.spec(pending.agent).homebase:
        return [
            moved,
            GameEnded(pending.agent, pending.seat, winners(after, pending.agent, pending.seat)),
        ]
    return [moved] if can_follow_up(after, pending.agent) else [moved, nxt]


def winners(state: State, agent: str, mover: int) -> tuple[int, ...]:
    """Highest bribe on ``agent`` wins; a tie with the mover goes to the mover, else shared."""
    amounts = [state.bribe(seat, agent) for seat in range(len(state.seats))]
    top = max(amounts)
    tied = tuple(seat for seat, amount in enumerate(amounts) if amount == top)
    return (mover,) if mover in tied else tied


def can_follow_up(state: State, agent: str) -> bool:
    """Whether the mover may still eliminate with ``agent`` (public facts only)."""
    if not state.options.move_then_eliminate:
        return False
    here = state.agent(agent).space
    return any(
        other.active
        and other.id != agent
        and other.space == here
        and (state.options.eliminate_in_home or here != state.options.spec(other.id).homebase)
        for other in state.agents
    )


def end_of_record(state: State) -> list[Event]:
    """Events that commit what is still pending when a record ends (replay folds them)."""
    if state.pending is None or state.winners is not None:
        return []
    return _commit(state)


def settled(state: State) -> State:
    """``state`` with its pending announcement committed, as the next action would see it."""
    out: Emitter[State, Event] = Emitter(state, apply)
    out.emit(*end_of_record(state))
    return out.state


# --- the end of the game ---------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The winner(s) once an agent carried the suitcase home; ``None`` before."""
    if state.winners is None:
        return None
    return Outcome.of(state.winners, {"agent": state.winning_agent, "moved_by": state.mover})


def next_deadline(state: State) -> float | None:
    """Casablanca has no timed rules."""
    return None
