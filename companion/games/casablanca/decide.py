"""Casablanca's rules: what each action causes (``decide``), and the camera's deadlines.

Bribes, moves and eliminations are checked here; a move or elimination is only
*announced* (``MoveAnnounced``/``EliminationAnnounced``) and takes effect through
``commit.commit_pending`` when the next action that is not a protest arrives, on
``{"do": "resolve"}``, when the protest window closes, or at the end of a record. Refusal
reasons never name a bribe amount.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import (
    DEADLINE,
    Action,
    IllegalAction,
    get_int,
    get_str,
    require,
)
from companion.games.casablanca.board import MAX_NAME, clip
from companion.games.casablanca.commit import commit_pending
from companion.games.casablanca.events import (
    BribesPlaced,
    EliminationAnnounced,
    Event,
    MoveAnnounced,
    ProtestConceded,
    ProtestRaised,
    ProtestSettled,
    SightingSettled,
    StoodFirm,
    TagMoved,
    TurnPassed,
)
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import (
    HOME,
    MIN_CALL,
    SUITCASE,
    Announced,
    Sighting,
    State,
    announcement_text,
)
from companion.games.emit import Emitter


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    do = get_str(action, "do")
    if do == DEADLINE:
        return _decide_deadline(state, now)
    handler = _HANDLERS.get(do)
    require(handler is not None,
            f"Casablanca has no action {clip(do)!r}: use {', '.join(_HANDLERS)}.")
    assert handler is not None
    require(state.winners is None, "The game is over: start a new game to play again.")
    return handler(state, action, now)


def _turn(state: State, action: Action) -> tuple[list[Event], State, int]:
    """What must happen before a bribe, move or elimination: the announced action is
    committed and an unused follow-up passes the turn. The events, the state after them,
    and the acting seat, which must be the one whose turn it is."""
    open_protest_barred(state)
    out: Emitter[State, Event] = Emitter(state, apply)
    if state.pending is not None:
        out.emit(*commit_pending(state))
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
    return out.events, state, seat


def _bribe(state: State, action: Action, now: float) -> list[Event]:
    done, state, seat = _turn(state, action)
    return done + _decide_bribe(state, seat, action)


def _move(state: State, action: Action, now: float) -> list[Event]:
    amended = _amended_move(state, action, now)
    if amended:
        return amended
    done, state, seat = _turn(state, action)
    return done + _decide_move(state, seat, action, now)


def _eliminate(state: State, action: Action, now: float) -> list[Event]:
    done, state, seat = _turn(state, action)
    return done + _decide_eliminate(state, seat, action, now)


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


def _seat(state: State, action: Action) -> int:
    return get_int(action, "seat", lo=0, hi=len(state.seats) - 1)


def _active_agent(state: State, action: Action, key: str) -> str:
    agent = get_str(action, key)
    ids = [a.id for a in state.agents]
    names = ", ".join(state.name(a) for a in ids)
    require(agent in ids, f"There is no agent {clip(agent)!r}: the agents are {names}.")
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


def _destination(state: State, agent: str, raw: Any) -> str:
    """The space id a move names (its id or name, or ``home``); refusals list the way."""
    label = state.name(agent)
    here = state.agent(agent).space
    board = state.options.board
    near = board.neighbours(here)
    ways = f"{label} can go to {board.names(near)}."
    require(isinstance(raw, str) and raw.strip() != "", f"Choose a space to move to: {ways}")
    assert isinstance(raw, str)
    if raw.strip().casefold() == HOME:
        return state.options.spec(agent).homebase
    if len(raw) > MAX_NAME:
        raise IllegalAction(
            f"A space name has at most {MAX_NAME} characters: there is no such space. {ways}"
        )
    to = board.find(raw)
    require(to is not None, f"There is no space {raw.strip()!r} on the board: {ways}")
    assert to is not None
    return to


def _decide_move(state: State, seat: int, action: Action, now: float) -> list[Event]:
    require(state.follow_up is None, bribe_barred(state, seat) or "")
    agent = _active_agent(state, action, "agent")
    label = state.name(agent)
    to = _destination(state, agent, action.get("to"))
    suitcase = action.get("suitcase", False)
    require(isinstance(suitcase, bool), "'suitcase' must be true or false.")
    here = state.agent(agent).space
    board = state.options.board
    require(to != here, f"{label} is already at {board.name(to)}: move it to another space.")
    near = board.neighbours(here)
    require(
        to in near,
        f"{board.name(to)} is not next to {board.name(here)}: {label} can go to "
        f"{board.names(near)}.",
    )
    require(
        not suitcase or state.suitcase_at() == here,
        f"The suitcase is not at {board.name(here)}: move {label} without it.",
    )
    announced = Announced("move", seat, agent, to=to, suitcase=bool(suitcase))
    require(
        announced.key() not in state.cancelled,
        f"A protest stopped moving {label} to {board.name(to)} this turn: "
        "announce a different action.",
    )
    return [MoveAnnounced(seat, agent, to, bool(suitcase), now)]


def _amended_move(state: State, action: Action, now: float) -> list[Event]:
    """The announced move again with another suitcase choice, before any protest."""
    pending = state.pending
    if (
        pending is None
        or pending.kind != "move"
        or pending.protests
        or pending.open is not None
        or action.get("do") != "move"
        or action.get("seat") != pending.seat
        or action.get("agent") != pending.agent
        or not isinstance(action.get("to"), str)
    ):
        return []
    to = _destination(state, pending.agent, action.get("to"))
    suitcase = action.get("suitcase", False)
    if to != pending.to or suitcase == pending.suitcase or not isinstance(suitcase, bool):
        return []
    here = state.agent(pending.agent).space
    require(
        not suitcase or state.suitcase_at() == here,
        f"The suitcase is not at {state.space_name(here)}: move "
        f"{state.name(pending.agent)} without it.",
    )
    return [MoveAnnounced(pending.seat, pending.agent, to, suitcase, now)]


def _decide_eliminate(state: State, seat: int, action: Action, now: float) -> list[Event]:
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
        f"{victim} is not on {label}'s space ({state.space_name(space)}): "
        "both must share a space.",
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
    return [EliminationAnnounced(seat, agent, target, now)]


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
    if pending.open is not None:
        require(
            seat != pending.open,
            "Your protest is open: concede, or ask for the comparison.",
        )
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
    mine = state.bribe(seat, pending.agent)
    require(
        mine >= MIN_CALL, f"To protest you need at least ${MIN_CALL} of your bribes on {label}."
    )
    if state.options.concessions:
        return [ProtestRaised(seat, pending.agent)]
    return [_compare(state, seat)]


def _compare(state: State, seat: int) -> ProtestSettled:
    """The blind comparison of ``seat``'s bribe with the actor's on the acting agent."""
    pending = state.pending
    assert pending is not None
    mine = state.bribe(seat, pending.agent)
    theirs = state.bribe(pending.seat, pending.agent)
    called = None
    if state.options.protest_reveal == "called":
        called = max(MIN_CALL, min(mine, theirs + state.options.step))
    return ProtestSettled(seat, pending.agent, mine > theirs, called)


def decide_settle(state: State, action: Action) -> list[Event]:
    """``concede`` or ``compare`` from one of the two parties of the open protest."""
    pending = state.pending
    require(
        pending is not None and pending.open is not None,
        "No protest is waiting: concede or compare only while a protest is open.",
    )
    assert pending is not None and pending.open is not None
    seat = _seat(state, action)
    parties = (pending.seat, pending.open)
    require(
        seat in parties,
        f"Only {state.seats[pending.seat]} and {state.seats[pending.open]} settle this protest.",
    )
    if action.get("do") == "concede":
        return [ProtestConceded(seat, pending.agent, seat == pending.seat)]
    require(seat not in pending.firm, "You already asked for the comparison: wait for the other.")
    if set(pending.firm) | {seat} == set(parties):
        return [StoodFirm(seat), _compare(state, pending.open)]
    return [StoodFirm(seat)]


def _decide_resolve(state: State) -> list[Event]:
    if state.pending is not None and state.pending.open is not None:
        return [_compare(state, state.pending.open)]  # the table asks for the comparison
    if state.pending is not None:
        return commit_pending(state)
    require(
        state.follow_up is not None,
        "There is nothing to confirm: no move or elimination is waiting for protests.",
    )
    return [TurnPassed(state.turn, state.next_seat(state.turn))]


# --- the camera: stands settling in a zone, the protest window --------------------


def _stand(state: State, action: Action) -> str:
    """The agent stand or suitcase a camera report names."""
    require("seat" not in action, "Only the camera reports where a stand is.")
    tag = get_str(action, "tag")
    tags = [a.id for a in state.agents] + [SUITCASE]
    require(tag in tags, f"{clip(tag)!r} is not an agent stand or the suitcase of this game.")
    return tag


def _decide_seen(state: State, action: Action, now: float) -> list[Event]:
    tag = _stand(state, action)
    zone = get_str(action, "zone")
    require(0 < len(zone) <= MAX_NAME, f"A zone name has 1 to {MAX_NAME} characters.")
    return [TagMoved(tag, zone, now)]


def _decide_left(state: State, action: Action, now: float) -> list[Event]:
    return [TagMoved(_stand(state, action), None, now)]


def _due(state: State, s: Sighting) -> float | None:
    """When a sighting has settled (an agent waits for the suitcase landing with it)."""
    if s.done or s.zone is None:
        return None
    due = s.since + state.options.settle_s
    case = state.sighting(SUITCASE)
    if s.tag != SUITCASE and case is not None and not case.done and case.zone == s.zone:
        due = max(due, case.since + state.options.settle_s)
    return due


def _window_due(state: State) -> float | None:
    pending = state.pending
    if (
        state.options.protest_s <= 0
        or pending is None
        or pending.at is None
        or pending.open is not None
        or pending.protests
    ):
        return None
    return pending.at + state.options.protest_s


def next_deadline(state: State) -> float | None:
    """When a stand has settled, or an unprotested announcement's window closes."""
    if state.winners is not None:
        return None
    dues = [_window_due(state)]
    if state.pending is None or state.pending.open is None:
        dues += [_due(state, s) for s in state.sightings]
    found = [d for d in dues if d is not None]
    return min(found) if found else None


def _decide_deadline(state: State, now: float) -> list[Event]:
    out: Emitter[State, Event] = Emitter(state, apply)
    window = _window_due(state)
    if window is not None and window <= now:
        out.emit(*commit_pending(state))
    order = sorted(out.state.sightings, key=lambda s: (s.tag == SUITCASE, s.since))
    for s in order:
        due = _due(out.state, s)
        if out.state.winners is not None or (out.state.pending and out.state.pending.open):
            break
        if due is not None and due <= now:
            out.emit(*_settle_sighting(out.state, s.tag, now))
    if not out.events:  # never a deadline without an event: settle what fell due
        out.emit(*(SightingSettled(s.tag, "") for s in state.sightings
                   if (d := _due(state, s)) is not None and d <= now))
    return out.events


def _settle_sighting(state: State, tag: str, now: float) -> list[Event]:
    """What a settled sighting means: a move announced, the suitcase taken, or a note."""
    s = state.sighting(tag)
    assert s is not None and s.zone is not None
    space = state.options.board.find(s.zone)
    if tag == SUITCASE:
        return _suitcase_settled(state, space, s.zone)
    label = state.name(tag)
    if space is None:
        return [SightingSettled(tag, f"{label} stands on {clip(s.zone)!r}, which is not a "
                                     "space of the board: put it on a space.")]
    pending = state.pending
    if pending is not None and pending.kind == "move" and (pending.agent, pending.to) == (
        tag, space
    ):
        return [SightingSettled(tag, "")]  # announced already (from a phone)
    out: Emitter[State, Event] = Emitter(state, apply)
    if pending is not None:
        out.emit(*commit_pending(state))
    after = out.state
    if after.winners is not None or after.agent(tag).space == space:
        return out.events + [SightingSettled(tag, "")]
    if not after.agent(tag).active:
        return out.events + [SightingSettled(tag, f"{label} is out of the game: "
                                                  "take its stand off the board.")]
    if after.follow_up is not None:
        out.emit(TurnPassed(after.turn, after.next_seat(after.turn)))
        after = out.state
    here = after.agent(tag).space
    case = after.sighting(SUITCASE)
    carried = (
        after.suitcase_at() == here
        and case is not None
        and case.zone is not None
        and after.options.board.find(case.zone) == space
        and case.since + after.options.settle_s <= now
    )
    action = {"do": "move", "seat": after.turn, "agent": tag, "to": space, "suitcase": carried}
    try:
        moved = _decide_move(after, after.turn, action, now)
    except IllegalAction as exc:
        return out.events + [SightingSettled(tag, f"Not moved: {exc.reason} "
                                                  f"Put {label} back on "
                                                  f"{after.space_name(here)}.")]
    done = [SightingSettled(tag, "")]
    if carried:
        done.append(SightingSettled(SUITCASE, ""))
    return out.events + moved + done


def _suitcase_settled(state: State, space: str | None, zone: str) -> list[Event]:
    pending = state.pending
    if (
        pending is not None
        and pending.kind == "move"
        and pending.to == space
        and not pending.suitcase
        and not pending.protests
        and state.suitcase_at() == state.agent(pending.agent).space
    ):
        return [
            MoveAnnounced(pending.seat, pending.agent, pending.to, True, pending.at),
            SightingSettled(SUITCASE, ""),
        ]
    if space is not None and space == state.suitcase_at():
        return [SightingSettled(SUITCASE, "")]
    where = state.space_name(state.suitcase_at())
    return [SightingSettled(SUITCASE, f"The suitcase is seen on {clip(zone)!r}, but it is on "
                                      f"{where}: put it back (an agent takes it along).")]


#: Each action's handler: ``tests/core/action_keys.py`` reads the keys each one takes
#: from here, and ``actions.py`` declares them.
_HANDLERS: dict[str, Callable[[State, Action, float], list[Event]]] = {
    "bribe": _bribe,
    "move": _move,
    "eliminate": _eliminate,
    "protest": lambda state, action, now: decide_protest(state, action),
    "concede": lambda state, action, now: decide_settle(state, action),
    "compare": lambda state, action, now: decide_settle(state, action),
    "resolve": lambda state, action, now: _decide_resolve(state),
    "seen": _decide_seen,
    "left": _decide_left,
}
#: The actions, in the order a refusal lists them.
ACTIONS: tuple[str, ...] = tuple(_HANDLERS)
