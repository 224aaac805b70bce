"""Casablanca's judging: what a bribe, a move, an elimination, a protest and its settling
cause (events), or ``IllegalAction`` with the reason ``legality.py`` gives.

``decide`` (``decide.py``) runs these after the announced action is committed; the camera
(``camera.py``) announces its moves through ``decide_move``. The checks themselves are the
pure ``..._reason`` functions of ``legality.py``, which ``moves.py`` asks too, so the phone
and the rules never disagree and each refusal is written once.
"""

from __future__ import annotations

from companion.games.casablanca import legality as legal
from companion.games.casablanca.actions import Bribe, BribeItem, Eliminate, Move
from companion.games.casablanca.commit import commit_pending
from companion.games.casablanca.events import (
    BribesPlaced,
    EliminationAnnounced,
    Event,
    MoveAnnounced,
    ProtestConceded,
    ProtestRaised,
    ProtestSettled,
    StoodFirm,
    TurnPassed,
)
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import MIN_CALL, State
from companion.games.emit import Emitter

refuse = legal.refuse


def seat_of(state: State, seat: int | None) -> int:
    """``seat`` as a seat of this table."""
    refuse(legal.seat_reason(state, seat))
    assert seat is not None
    return seat


def before_turn(state: State, seat: int | None) -> tuple[list[Event], State, int]:
    """What must happen before a bribe, move or elimination: the announced action is
    committed and an unused follow-up passes the turn. The events, the state after them,
    and the acting seat, which must be the one whose turn it is."""
    refuse(legal.open_protest_reason(state))
    out: Emitter[State, Event] = Emitter(state, apply)
    if state.pending is not None:
        out.emit(*commit_pending(state))
        refuse(legal.game_over_reason(out.state))
    seat = seat_of(out.state, seat)
    if out.state.follow_up is not None and seat != out.state.turn:
        out.emit(TurnPassed(out.state.turn, out.state.next_seat(out.state.turn)))
    refuse(legal.turn_reason(out.state, seat))
    return out.events, out.state, seat


def active_agent(state: State, agent: str) -> str:
    """``agent`` if it is an agent of this game still in play."""
    refuse(legal.agent_reason(state, agent))
    return agent


def decide_bribe(state: State, seat: int, action: Bribe) -> list[Event]:
    refuse(legal.bribe_reason(state, seat))
    agents, amounts = _bribe_items(state, action.amounts)
    refuse(legal.total_reason(state, seat, sum(amounts)))
    return [
        BribesPlaced(seat, tuple(agents), tuple(amounts)),
        TurnPassed(seat, state.next_seat(seat)),
    ]


def _bribe_items(state: State, items: tuple[BribeItem, ...]) -> tuple[list[str], list[int]]:
    """The agents and amounts of a bribe, checked one by one."""
    refuse(legal.items_reason(state, len(items)))
    agents: list[str] = []
    amounts: list[int] = []
    for item in items:
        agents.append(active_agent(state, item.agent))
        refuse(legal.amount_reason(state, item.amount))
        amounts.append(item.amount)
    return agents, amounts


def decide_move(state: State, seat: int, action: Move, now: float | None) -> list[Event]:
    refuse(legal.follow_up_reason(state))
    agent = active_agent(state, action.agent)
    to = legal.destination(state, agent, action.to)
    refuse(legal.move_reason(state, seat, agent, to, action.with_suitcase))
    return [MoveAnnounced(seat, agent, to, action.with_suitcase, now)]


def amended_move(state: State, action: Move, now: float) -> list[Event]:
    """The announced move again with another suitcase choice, before any protest."""
    pending = legal.amendable(state, action.seat, action.agent)
    if pending is None:
        return []
    to = legal.destination(state, pending.agent, action.to)
    if to != pending.to or action.with_suitcase == pending.suitcase:
        return []
    refuse(legal.suitcase_reason(state, pending.agent, action.with_suitcase))
    return [MoveAnnounced(pending.seat, pending.agent, to, action.with_suitcase, now)]


def decide_eliminate(state: State, seat: int, action: Eliminate, now: float) -> list[Event]:
    agent = active_agent(state, action.agent)
    target = active_agent(state, action.target)
    refuse(legal.elimination_reason(state, seat, agent, target))
    return [EliminationAnnounced(seat, agent, target, now)]


def decide_protest(state: State, seat: int | None) -> list[Event]:
    """A protest against the pending announcement (open, or compared at once)."""
    refuse(legal.protest_reason(state, seat))
    pending = state.pending
    assert pending is not None and seat is not None
    if state.options.concessions:
        return [ProtestRaised(seat, pending.agent)]
    return [compare(state, seat)]


def compare(state: State, seat: int) -> ProtestSettled:
    """The blind comparison of ``seat``'s bribe with the actor's on the acting agent."""
    pending = state.pending
    assert pending is not None
    mine = state.bribe(seat, pending.agent)
    theirs = state.bribe(pending.seat, pending.agent)
    called = None
    if state.options.protest_reveal == "called":
        called = max(MIN_CALL, min(mine, theirs + state.options.step))
    return ProtestSettled(seat, pending.agent, mine > theirs, called)


def decide_settle(state: State, seat: int | None, concede: bool) -> list[Event]:
    """``concede`` or ``compare`` from one of the two parties of the open protest."""
    refuse(legal.settle_reason(state, seat, concede))
    pending = state.pending
    assert pending is not None and pending.open is not None and seat is not None
    if concede:
        return [ProtestConceded(seat, pending.agent, seat == pending.seat)]
    if set(pending.firm) | {seat} == {pending.seat, pending.open}:
        return [StoodFirm(seat), compare(state, pending.open)]
    return [StoodFirm(seat)]


def decide_resolve(state: State) -> list[Event]:
    """The host's confirm: compare an open protest, commit the announcement, or end the
    follow-up window."""
    if state.pending is not None and state.pending.open is not None:
        return [compare(state, state.pending.open)]  # the table asks for the comparison
    if state.pending is not None:
        return commit_pending(state)
    refuse(legal.resolve_reason(state))
    return [TurnPassed(state.turn, state.next_seat(state.turn))]
