"""Casablanca: an announced move or elimination takes effect, and the end of the game.

``decide`` only *announces* a move or elimination; ``commit_pending`` gives the events that
make it take effect (the next action that is not a protest, ``resolve``, the protest
window closing, or ``end_of_record``; never while a protest is open). A move that carries
the suitcase home ends the game, and ``winners`` says who holds the highest bribe on that
agent.
"""

from __future__ import annotations

from companion.games.casablanca.events import (
    EliminationCommitted,
    Event,
    GameEnded,
    MoveCommitted,
    TurnPassed,
)
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import State
from companion.games.emit import Emitter


def commit_pending(state: State) -> list[Event]:
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
    """Events that commit what is still pending when a record ends (replay folds them).

    An announcement under an open protest stays announced: the protest decides it, and
    a record that ends before the protest is settled does not."""
    if state.pending is None or state.pending.open is not None or state.over:
        return []
    return commit_pending(state)


def settled(state: State) -> State:
    """``state`` with its pending announcement committed, as the next action would see it."""
    out: Emitter[State, Event] = Emitter(state, apply)
    out.emit(*end_of_record(state))
    return out.state
