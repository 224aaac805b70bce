"""Casablanca's checks: what a bribe, a move, an elimination, a protest and its settling
cause, or why the rules refuse them (``IllegalAction``, a sentence a player understands).

``decide`` (``decide.py``) runs these after the announced action is committed; the camera
(``camera.py``) announces its moves through ``decide_move``; ``moves.py`` asks the same
functions why an option is not allowed, so the phone and the rules never disagree.
Refusals never name a bribe amount, a key or an id (agents and spaces by their names).
"""

from __future__ import annotations

from companion.games.base import IllegalAction, require
from companion.games.casablanca.actions import Bribe, BribeItem, Eliminate, Move
from companion.games.casablanca.board import MAX_NAME
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
from companion.games.casablanca.state import HOME, MIN_CALL, Announced, State, announcement_text
from companion.games.emit import Emitter


def seat_of(state: State, seat: int | None) -> int:
    """``seat`` as a seat of this table."""
    require(seat is not None and 0 <= seat < len(state.seats),
            "There is no such player at this table.")
    assert seat is not None
    return seat


def open_protest_barred(state: State) -> None:
    """Refuse playing on while a protest waits for a concession or the comparison."""
    pending = state.pending
    if pending is None or pending.open is None:
        return
    raise IllegalAction(
        f"{state.seats[pending.open]} protests: {announcement_text(state, pending)} "
        f"{state.seats[pending.open]} and {state.seats[pending.seat]} settle it first "
        "(concede or compare)."
    )


def before_turn(state: State, seat: int | None) -> tuple[list[Event], State, int]:
    """What must happen before a bribe, move or elimination: the announced action is
    committed and an unused follow-up passes the turn. The events, the state after them,
    and the acting seat, which must be the one whose turn it is."""
    open_protest_barred(state)
    out: Emitter[State, Event] = Emitter(state, apply)
    if state.pending is not None:
        out.emit(*commit_pending(state))
        require(
            not out.state.over,
            "The announced move carries the suitcase home and ends the game: the host "
            "confirms it instead of anyone playing on.",
        )
    seat = seat_of(out.state, seat)
    if out.state.follow_up is not None and seat != out.state.turn:
        out.emit(TurnPassed(out.state.turn, out.state.next_seat(out.state.turn)))
    state = out.state
    require(
        seat == state.turn,
        f"It is {state.seats[state.turn]}'s turn, not {state.seats[seat]}'s: wait for your turn.",
    )
    return out.events, state, seat


def active_agent(state: State, agent: str) -> str:
    """``agent`` if it is an agent of this game still in play."""
    ids = [a.id for a in state.agents]
    names = ", ".join(state.name(a) for a in ids)
    require(agent in ids, f"There is no such agent: the agents are {names}.")
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


def decide_bribe(state: State, seat: int, action: Bribe) -> list[Event]:
    barred = bribe_barred(state, seat)
    require(barred is None, barred or "")
    agents, amounts = _bribe_items(state, action.amounts)
    require(
        sum(amounts) <= state.left[seat],
        "These bribes add up to more than you have left: lower them (your sheet shows "
        "what is left).",
    )
    return [
        BribesPlaced(seat, tuple(agents), tuple(amounts)),
        TurnPassed(seat, state.next_seat(seat)),
    ]


def _bribe_items(state: State, items: tuple[BribeItem, ...]) -> tuple[list[str], list[int]]:
    """The agents and amounts of a bribe, checked one by one."""
    require(bool(items), "Choose at least one agent and the amount to bribe it with.")
    step = state.options.step
    agents: list[str] = []
    amounts: list[int] = []
    for item in items:
        agents.append(active_agent(state, item.agent))
        require(
            item.amount > 0 and item.amount % step == 0,
            f"Each bribe must be a positive multiple of ${step:,}: correct the amount.",
        )
        amounts.append(item.amount)
    return agents, amounts


def destination(state: State, agent: str, raw: str) -> str:
    """The space id a move names (its id or name, or ``home``); refusals list the way."""
    board = state.options.board
    if board.free or board.exact:  # version 1: the text is the space, as it is
        require(raw != "", "Choose a space to move to.")
        return state.options.spec(agent).homebase if raw == HOME else raw
    label = state.name(agent)
    ways = f"{label} can go to {board.names(state.reachable(agent))}."
    require(raw.strip() != "", f"Choose a space to move to: {ways}")
    if raw.strip().casefold() == HOME:
        return state.options.spec(agent).homebase
    require(len(raw) <= MAX_NAME,
            f"A space name has at most {MAX_NAME} characters: there is no such space. {ways}")
    to = board.find(raw)
    require(to is not None, f"There is no such space on the board: {ways}")
    assert to is not None
    return to


def decide_move(state: State, seat: int, action: Move, now: float | None) -> list[Event]:
    require(state.follow_up is None, bribe_barred(state, seat) or "")
    agent = active_agent(state, action.agent)
    label = state.name(agent)
    to = destination(state, agent, action.to)
    here = state.agent(agent).space
    name = state.space_name
    require(to != here, f"{label} is already at {name(to)}: move it to another space.")
    near = state.reachable(agent)
    require(
        state.options.board.free or to in near,
        f"{name(to)} is not next to {name(here)}: {label} can go to "
        f"{state.options.board.names(near)}.",
    )
    require(
        not action.with_suitcase or state.suitcase_at() == here,
        f"The suitcase is not at {name(here)}: move {label} without it.",
    )
    announced = Announced("move", seat, agent, to=to, suitcase=action.with_suitcase)
    require(
        announced.key() not in state.cancelled,
        f"A protest stopped moving {label} to {name(to)} this turn: "
        "announce a different action.",
    )
    return [MoveAnnounced(seat, agent, to, action.with_suitcase, now)]


def amended_move(state: State, action: Move, now: float) -> list[Event]:
    """The announced move again with another suitcase choice, before any protest."""
    pending = state.pending
    if (
        pending is None
        or pending.kind != "move"
        or pending.protests
        or pending.open is not None
        or action.seat != pending.seat
        or action.agent != pending.agent
    ):
        return []
    to = destination(state, pending.agent, action.to)
    if to != pending.to or action.with_suitcase == pending.suitcase:
        return []
    here = state.agent(pending.agent).space
    require(
        not action.with_suitcase or state.suitcase_at() == here,
        f"The suitcase is not at {state.space_name(here)}: move "
        f"{state.name(pending.agent)} without it.",
    )
    return [MoveAnnounced(pending.seat, pending.agent, to, action.with_suitcase, now)]


def targets(state: State, agent: str) -> list[str]:
    """The agents ``agent`` could eliminate where it stands (public facts only)."""
    me = state.agent(agent)
    if not me.active:
        return []
    o = state.options
    return [
        other.id
        for other in state.agents
        if other.active
        and other.id != me.id
        and other.space == me.space
        and (o.eliminate_in_home or me.space != o.spec(other.id).homebase)
    ]


def elimination_barred(state: State, seat: int, agent: str, target: str) -> str | None:
    """Why ``agent`` may not eliminate ``target`` for ``seat`` now, or ``None``."""
    label, victim = state.name(agent), state.name(target)
    if state.follow_up is not None and agent != state.follow_up:
        return f"After your move you may only eliminate with {state.name(state.follow_up)}."
    if agent == target:
        return f"{label} cannot eliminate itself: name another agent."
    space = state.agent(agent).space
    if state.agent(target).space != space:
        return (f"{victim} is not on {label}'s space ({state.space_name(space)}): "
                "both must share a space.")
    if not state.options.eliminate_in_home and space == state.options.spec(target).homebase:
        return f"{victim} is in its homebase, where it cannot be eliminated."
    if ("eliminate", agent, target) in state.cancelled:
        return f"A protest stopped {label} eliminating {victim} this turn: announce a different action."
    cost = state.options.elimination_cost
    if state.bribe(seat, agent) < cost:
        return f"To eliminate with {label} you need at least ${cost:,} of your bribes on it."
    return None


def decide_eliminate(state: State, seat: int, action: Eliminate, now: float) -> list[Event]:
    agent = active_agent(state, action.agent)
    target = active_agent(state, action.target)
    barred = elimination_barred(state, seat, agent, target)
    require(barred is None, barred or "")
    return [EliminationAnnounced(seat, agent, target, now)]


def decide_protest(state: State, seat: int | None) -> list[Event]:
    """A protest against the pending announcement (open, or compared at once)."""
    pending = state.pending
    require(
        pending is not None,
        "There is nothing to protest: protest right after a move or elimination is announced.",
    )
    assert pending is not None
    seat = seat_of(state, seat)
    require(seat != pending.seat, "You cannot protest your own action.")
    if pending.open is not None:
        require(seat != pending.open, "Your protest is open: concede, or ask for the comparison.")
        raise IllegalAction(
            f"{state.seats[pending.open]}'s protest is being settled: protest after it, "
            "if the action still stands."
        )
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
    require(
        state.bribe(seat, pending.agent) >= MIN_CALL,
        f"To protest you need at least ${MIN_CALL} of your bribes on {label}.",
    )
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
    pending = state.pending
    require(
        pending is not None and pending.open is not None,
        "No protest is waiting: concede or compare only while a protest is open.",
    )
    assert pending is not None and pending.open is not None
    seat = seat_of(state, seat)
    parties = (pending.seat, pending.open)
    require(
        seat in parties,
        f"Only {state.seats[pending.seat]} and {state.seats[pending.open]} settle this protest.",
    )
    if concede:
        return [ProtestConceded(seat, pending.agent, seat == pending.seat)]
    require(seat not in pending.firm, "You already asked for the comparison: wait for the other.")
    if set(pending.firm) | {seat} == set(parties):
        return [StoodFirm(seat), compare(state, pending.open)]
    return [StoodFirm(seat)]


def decide_resolve(state: State) -> list[Event]:
    """The host's confirm: compare an open protest, commit the announcement, or end the
    follow-up window."""
    if state.pending is not None and state.pending.open is not None:
        return [compare(state, state.pending.open)]  # the table asks for the comparison
    if state.pending is not None:
        return commit_pending(state)
    require(
        state.follow_up is not None,
        "There is nothing to confirm: no move or elimination is waiting for protests.",
    )
    return [TurnPassed(state.turn, state.next_seat(state.turn))]
