"""Casablanca (Amigo): secret bribe sheets, protests settled blind, eliminations, the winner.

The engine follows ``companion.games.base.Engine``. Rules choices: docs/rules/casablanca.md;
record actions: docs/records.md. Seats are in clockwise order and seat 0 starts.

Actions (a record line without ``t``)::

    {"do": "bribe", "seat": s, "amounts": [{"agent": a, "amount": 500}, ...]}
    {"do": "move", "seat": s, "agent": a, "to": space or "home", "suitcase": bool}
    {"do": "eliminate", "seat": s, "agent": a, "target": b}
    {"do": "protest", "seat": p}       against the pending move/elimination
    {"do": "resolve"}                  commit the pending action / end a follow-up window

A move or elimination is *announced* (pending) and takes effect when the next action
that is not a protest arrives (its events come first, then that action's), on
``{"do": "resolve"}`` (the table's confirm button), or at the end of a record:
replay folds ``end_of_record(state)`` after the last line. ``outcome`` never treats a
pending action as done, so the live table does not end a game before its protests.
With ``move_then_eliminate`` a committed move whose agent shares its space with an
agent it could eliminate leaves a *follow-up window*: the mover may still announce an
elimination with that agent; the next seat's action (or ``resolve``) closes it.

Privacy: amounts leave only through ``seat_view`` of their seat, and through
``public_view`` once the game is over. Refusal reasons never contain a bribe amount,
but a refusal of a seat's own bribe/protest/elimination says something about its
sheet: send it to that seat's phone only. ``BribesPlaced`` events carry the amounts,
so raw events must never be sent to clients.

``public_view(state)`` keys:
  ``game``, ``title``, ``status`` (one human line), ``seats`` (names), ``turn`` (seat
  on turn, ``None`` when over), ``phase`` (``"turn"`` | ``"pending"`` | ``"follow_up"``
  | ``"over"``), ``agents`` (list of ``{id, name, colour, homebase, space, at_home,
  status: "active"|"eliminated", suitcase: bool}``), ``suitcase`` (``{space, agent}``),
  ``pending`` (``None`` or an announcement: ``{kind: "move"|"eliminate", seat, agent,
  to, suitcase, target, text, protests: [{seat, upheld, called}], may_protest: [seats
  whose turn to protest has not passed], result}``), ``last`` (the last announcement,
  same shape, ``result`` ``"pending"``|``"done"``|``"cancelled"``), ``may_bribe`` (the
  seat on turn has not lost a protest this turn), ``follow_up`` (agent id or ``None``),
  ``log`` (recent public lines), ``options`` (``budget``, ``step``,
  ``elimination_cost``, ``eliminate_in_home``, ``move_then_eliminate``,
  ``protest_reveal``), ``over``, ``winners`` (seats or ``None``), ``reveal`` (``None``
  until the end, then ``{bribes: [{agent: amount}] per seat, left: [per seat]}``).
``called`` is the last amount called in the bidding ritual (``None`` with
``protest_reveal: "winner"``).

``seat_view(state, seat)``: the public view plus ``me``: ``{seat, name, bribes: {agent:
amount} for every agent, left, spent, can_bribe, why_not_bribe, can_protest,
why_not_protest, can_move, can_eliminate_with: [agents with enough bribe], on_turn}``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.games import casablanca_views as views
from companion.games.base import (
    Action,
    Engine,
    IllegalAction,
    Outcome,
    Setup,
    check_options,
    check_seats,
    get_int,
    get_str,
    require,
)
from companion.games.casablanca_fold import apply, fold
from companion.games.casablanca_state import (
    EVENT_TYPES,
    HOME,
    MIN_CALL,
    Agent,
    Announced,
    BribesPlaced,
    EliminationAnnounced,
    EliminationCommitted,
    GameEnded,
    MoveAnnounced,
    MoveCommitted,
    ProtestSettled,
    State,
    TurnPassed,
    catalog_agents,
    parse_options,
)

name = "casablanca"
aliases: tuple[str, ...] = ("casa", "casablanca_amigo")
title = "Casablanca"
min_seats = 2
max_seats = 8
default_options: Mapping[str, Any] = {
    "agents": catalog_agents(),
    "budget": 10_000,
    "step": 100,
    "elimination_cost": 1_000,
    "eliminate_in_home": False,
    "move_then_eliminate": True,
    "protest_reveal": "called",
    "suitcase_start": "basar",
    "board": None,
}
event_types: Mapping[str, type] = EVENT_TYPES

ACTIONS = ("bribe", "move", "eliminate", "protest", "resolve")


def new_game(setup: Setup) -> State:
    """The opening: agents in their homebases, the suitcase on its start space."""
    this = cast(Engine, sys.modules[__name__])
    check_seats(this, setup)
    options = parse_options(check_options(this, setup.options))
    n = setup.n_seats
    return State(
        seats=tuple(setup.seats),
        options=options,
        agents=tuple(Agent(a.id, a.homebase) for a in options.agents),
        bribes=tuple(tuple(0 for _ in options.agents) for _ in range(n)),
        left=tuple(options.budget for _ in range(n)),
        suitcase_space=options.suitcase_start,
    )


# --- decide ----------------------------------------------------------------------


def decide(state: State, action: Action, now: float) -> list[Any]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    do = get_str(action, "do")
    require(do in ACTIONS, f"Casablanca has no action {do!r}: use {', '.join(ACTIONS)}.")
    require(state.winners is None, "The game is over: start a new game to play again.")
    if do == "protest":
        return _decide_protest(state, action)
    if do == "resolve":
        return _decide_resolve(state)
    events: list[Any] = []
    if state.pending is not None:
        events = _commit(state)
        state = fold(state, events)
        require(
            state.winners is None,
            "The announced move carries the suitcase home and ends the game: confirm it "
            "(resolve) instead of playing on.",
        )
    seat = _seat(state, action)
    if state.follow_up is not None and seat != state.turn:
        passed = TurnPassed(state.turn, state.next_seat(state.turn))
        events.append(passed)
        state = apply(state, passed)
    require(
        seat == state.turn,
        f"It is {state.seats[state.turn]}'s turn, not {state.seats[seat]}'s: wait for your turn.",
    )
    if do == "bribe":
        return events + _decide_bribe(state, seat, action)
    if do == "move":
        return events + _decide_move(state, seat, action)
    return events + _decide_eliminate(state, seat, action)


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


def _decide_bribe(state: State, seat: int, action: Action) -> list[Any]:
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


def _decide_move(state: State, seat: int, action: Action) -> list[Any]:
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


def _decide_eliminate(state: State, seat: int, action: Action) -> list[Any]:
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


def _decide_protest(state: State, action: Action) -> list[Any]:
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


def _decide_resolve(state: State) -> list[Any]:
    if state.pending is not None:
        return _commit(state)
    require(
        state.follow_up is not None,
        "There is nothing to confirm: no move or elimination is waiting for protests.",
    )
    return [TurnPassed(state.turn, state.next_seat(state.turn))]


def _commit(state: State) -> list[Any]:
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


def end_of_record(state: State) -> list[Any]:
    """Events that commit what is still pending when a record ends (replay folds them)."""
    if state.pending is None or state.winners is not None:
        return []
    return _commit(state)


def settled(state: State) -> State:
    """``state`` with its pending announcement committed, as the next action would see it."""
    return fold(state, end_of_record(state))


# --- the rest of the contract ----------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The winner(s) once an agent carried the suitcase home; ``None`` before."""
    if state.winners is None:
        return None
    return Outcome.of(state.winners, {"agent": state.winning_agent, "moved_by": state.mover})


def next_deadline(state: State) -> float | None:
    """Casablanca has no timed rules."""
    return None


def public_view(state: State) -> dict[str, Any]:
    """What everyone may see (no amount before the end); keys in the module docstring."""
    return views.public_view(state)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus ``me``: that seat's own sheet and what it may do now."""
    after = settled(state)
    over = after.winners is not None
    if after.follow_up is not None and seat == after.next_seat(after.turn):
        after = fold(after, [TurnPassed(after.turn, seat)])  # its action closes the window
    on_turn = not over and seat == after.turn
    may = {
        "on_turn": on_turn,
        "can_move": on_turn and after.follow_up is None,
        "why_not_bribe": "The game is over." if over else _bribe_refusal(after, seat),
        "why_not_protest": _protest_refusal(state, seat),
    }
    return views.seat_view(state, seat, may)


def _bribe_refusal(state: State, seat: int) -> str | None:
    if state.left[seat] < state.options.step:
        return "You have spent your whole budget: move or eliminate instead."
    return bribe_barred(state, seat)


def _protest_refusal(state: State, seat: int) -> str | None:
    if state.winners is not None:
        return "The game is over."
    try:
        _decide_protest(state, {"do": "protest", "seat": seat})
    except IllegalAction as exc:
        return exc.reason
    return None


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json`` (replay knows every sheet)."""
    return views.state_json(state)


def signals(state: State, events: Sequence[Any]) -> list[tuple[str, int | None]]:
    """Buzzer/LED cues: protest verdicts, the turn passing, the end."""
    out: list[tuple[str, int | None]] = []
    for event in events:
        if isinstance(event, ProtestSettled):
            out.append(("upheld" if event.upheld else "not_upheld", event.seat))
        elif isinstance(event, TurnPassed):
            out.append(("turn", event.to_seat))
        elif isinstance(event, GameEnded):
            out.append(("game_over", None))
    return out


def action_for_input(state: State, inp: Mapping[str, Any]) -> Action | None:
    """A tagged agent stand in a new zone announces a move; seat buttons protest.

    The zone name is taken as the space id. The move takes the suitcase along only
    when the agent carries it already (picking it up is done on a phone). The
    confirm button resolves what is pending.
    """
    if state.winners is not None:
        return None
    kind = inp.get("kind")
    if kind == "button":
        return _button_action(state, inp)
    if kind != "tag_seen":
        return None
    agent, zone = inp.get("card"), inp.get("zone")
    ids = {a.id for a in state.agents}
    if not isinstance(zone, str) or not zone or agent not in ids:
        return None
    assert isinstance(agent, str)
    pending = state.pending
    if (
        pending is not None
        and pending.kind == "move"
        and (pending.agent, pending.to) == (agent, zone)
    ):
        return None  # already announced
    after = settled(state)
    here = after.agent(agent)
    if not here.active or here.space == zone or after.winners is not None:
        return None
    seat = after.turn if after.follow_up is None else after.next_seat(after.turn)
    carried = after.suitcase_agent == agent
    return {"do": "move", "seat": seat, "agent": agent, "to": zone, "suitcase": carried}


def _button_action(state: State, inp: Mapping[str, Any]) -> Action | None:
    role = inp.get("role")
    if role == "confirm" and (state.pending is not None or state.follow_up is not None):
        return {"do": "resolve"}
    seat = inp.get("seat")
    if role == "seat" and state.pending is not None and isinstance(seat, int):
        return {"do": "protest", "seat": seat}
    return None
