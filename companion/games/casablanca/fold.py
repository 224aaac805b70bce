"""Casablanca's fold: how each past-tense event changes the state.

``apply(state, event)`` is pure and total over ``EVENT_TYPES``; the public log lines are
written here (they never name an amount: privacy is the feature).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.casablanca.events import (
    BribesPlaced,
    EliminationAnnounced,
    EliminationCommitted,
    Event,
    GameEnded,
    MoveAnnounced,
    MoveCommitted,
    ProtestConceded,
    ProtestRaised,
    ProtestSettled,
    SightingSettled,
    StoodFirm,
    TagMoved,
    TurnPassed,
)
from companion.games.casablanca.state import (
    SUITCASE,
    Agent,
    Announced,
    Protest,
    Sighting,
    State,
    announcement_text,
)
from companion.games.frozen import replace
from companion.games.money import dollars
from companion.games.words import listed


def apply(state: State, event: Event) -> State:
    """Fold one event into a new state."""
    handler = _APPLY.get(type(event))
    if handler is None:
        raise TypeError(f"casablanca: not an event of this game: {event!r}")
    return handler(state, event)


def _logged(state: State, line: str) -> State:
    return replace(state, log=(state.log + (line,))[-12:])


def _apply_bribes(state: State, e: BribesPlaced) -> State:
    row = list(state.bribes[e.seat])
    for agent, amount in zip(e.agents, e.amounts, strict=True):
        row[state.index(agent)] += amount
    bribes = state.bribes[: e.seat] + (tuple(row),) + state.bribes[e.seat + 1 :]
    left = list(state.left)
    left[e.seat] -= sum(e.amounts)
    history = state.history + tuple(
        (state.turns, e.seat, agent, amount)
        for agent, amount in zip(e.agents, e.amounts, strict=True)
    )
    state = replace(state, bribes=bribes, left=tuple(left), history=history, note="")
    return _logged(state, f"{state.seats[e.seat]} bribed.")


def _apply_announced(state: State, e: MoveAnnounced | EliminationAnnounced) -> State:
    again = state.pending is not None
    if isinstance(e, MoveAnnounced):
        pending = Announced("move", e.seat, e.agent, to=e.to, suitcase=e.suitcase, at=e.at)
    else:
        pending = Announced("eliminate", e.seat, e.agent, target=e.target, at=e.at)
    state = replace(state, pending=pending, last=pending, note="")
    if again:
        return _logged(state, f"{state.seats[e.seat]} changes the announcement: "
                              f"{announcement_text(state, pending)}")
    return _logged(state, f"{state.seats[e.seat]} announces: {announcement_text(state, pending)}")


def _apply_protest(state: State, e: ProtestSettled) -> State:
    called = "" if e.called is None else f" (last call {dollars(e.called)})"
    verdict = "upheld: the action is cancelled" if e.upheld else "not upheld"
    line = f"{state.seats[e.seat]} protests{called}: {verdict}."
    return _settle_protest(state, Protest(e.seat, e.upheld, e.called), line)


def _apply_raised(state: State, e: ProtestRaised) -> State:
    pending = state.pending
    assert pending is not None
    pending = replace(pending, open=e.seat, firm=())
    actor, protester = state.seats[pending.seat], state.seats[e.seat]
    line = (f"{protester} protests against {state.name(e.agent)}: {actor} and {protester} "
            "may concede, or compare their bribes blind.")
    return _logged(replace(state, pending=pending, last=pending), line)


def _apply_firm(state: State, e: StoodFirm) -> State:
    pending = state.pending
    assert pending is not None
    pending = replace(pending, firm=pending.firm + (e.seat,))
    state = replace(state, pending=pending, last=pending)
    return _logged(state, f"{state.seats[e.seat]} asks for the comparison.")


def _apply_conceded(state: State, e: ProtestConceded) -> State:
    pending = state.pending
    assert pending is not None and pending.open is not None
    protest = Protest(pending.open, e.upheld, None, conceded=e.seat)
    verdict = "the action is cancelled" if e.upheld else "the action still stands"
    line = f"{state.seats[e.seat]} concedes: {verdict}."
    return _settle_protest(state, protest, line)


def _settle_protest(state: State, protest: Protest, line: str) -> State:
    pending = state.pending
    assert pending is not None
    protests = pending.protests + (protest,)
    if not protest.upheld:
        pending = replace(pending, protests=protests, open=None, firm=())
        return _logged(replace(state, pending=pending, last=pending), line)
    done = replace(pending, protests=protests, result="cancelled", open=None, firm=())
    if done.kind == "move" and state.sighting(done.agent) is not None:
        where = state.space_name(state.agent(done.agent).space)
        line += f" Put {state.name(done.agent)} back on {where}."
    state = replace(
        state, pending=None, last=done, no_bribe=True, cancelled=state.cancelled + (done.key(),)
    )
    return _logged(state, line)


def _apply_move(state: State, e: MoveCommitted) -> State:
    state = state.with_agent(Agent(e.agent, e.to))
    if e.suitcase:
        state = replace(state, suitcase_agent=e.agent)
    elif state.suitcase_agent == e.agent:  # it leaves the suitcase behind
        state = replace(state, suitcase_agent=None, suitcase_space=e.origin)
    last = replace(state.last, result="done") if state.last else None
    follow = e.agent if state.options.move_then_eliminate else None
    state = replace(state, pending=None, last=last, follow_up=follow)
    return _logged(state, f"{state.name(e.agent)} moved to {state.space_name(e.to)}.")


def _apply_elimination(state: State, e: EliminationCommitted) -> State:
    target = state.agent(e.target)
    if state.suitcase_agent == e.target:  # the suitcase stays on the space
        state = replace(state, suitcase_agent=None, suitcase_space=target.space)
    state = state.with_agent(replace(target, active=False))
    ti, ai = state.index(e.target), state.index(e.agent)
    bribes = []
    for seat, row in enumerate(state.bribes):
        new = list(row)
        new[ti] = 0
        if seat == e.seat:
            new[ai] -= e.cost
        bribes.append(tuple(new))
    last = replace(state.last, result="done") if state.last else None
    state = replace(state, bribes=tuple(bribes), pending=None, last=last, follow_up=None)
    return _logged(state, f"{state.name(e.agent)} eliminated {state.name(e.target)}.")


def _apply_end(state: State, e: GameEnded) -> State:
    state = replace(state, winners=e.winners, winning_agent=e.agent, mover=e.mover)
    names = listed(state.seats[s] for s in e.winners)
    return _logged(state, f"{state.name(e.agent)} carried the suitcase home: {names} won.")


def _apply_turn(state: State, e: TurnPassed) -> State:
    return replace(
        state,
        turn=e.to_seat,
        no_bribe=False,
        cancelled=(),
        follow_up=None,
        turns=state.turns + 1,
        note="",
    )


def _apply_tag(state: State, e: TagMoved) -> State:
    """A new sighting; one that shows the tag where it already is needs nothing."""
    space = state.options.board.find(e.zone) if e.zone is not None else None
    if e.tag == SUITCASE:
        home = state.suitcase_at()
    else:
        home = state.agent(e.tag).space
    done = e.zone is None or space == home
    return state.with_sighting(Sighting(e.tag, e.zone, e.t, done))


def _apply_sighting(state: State, e: SightingSettled) -> State:
    s = state.sighting(e.tag)
    if s is not None:
        state = state.with_sighting(replace(s, done=True))
    return _logged(replace(state, note=e.note), e.note) if e.note else state


_APPLY: dict[type, Callable[[State, Any], State]] = {
    BribesPlaced: _apply_bribes,
    MoveAnnounced: _apply_announced,
    EliminationAnnounced: _apply_announced,
    ProtestSettled: _apply_protest,
    MoveCommitted: _apply_move,
    EliminationCommitted: _apply_elimination,
    GameEnded: _apply_end,
    TurnPassed: _apply_turn,
    ProtestRaised: _apply_raised,
    StoodFirm: _apply_firm,
    ProtestConceded: _apply_conceded,
    TagMoved: _apply_tag,
    SightingSettled: _apply_sighting,
}
