"""Casablanca's JSON views: the table's, one seat's, replay's full state, and signals.

The keys are documented in ``companion.games.casablanca``. ``public_view`` reads no
bribe and no unspent budget before the game is over; ``seat_view`` adds the sheet of
one seat only. Keep it that way: privacy is the feature.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from companion.games.base import IllegalAction, SignalOut
from companion.games.casablanca.commit import settled
from companion.games.casablanca.decide import (
    bribe_barred,
    decide_protest,
    decide_settle,
    open_protest_barred,
)
from companion.games.casablanca.events import Event, GameEnded, ProtestSettled, TurnPassed
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import (
    MIN_CALL,
    Agent,
    Announced,
    State,
    announcement_text,
)

#: What the table waits for (``public_view``'s ``phase``).
Phase = Literal["turn", "pending", "follow_up", "over"]


def _announcement(state: State, a: Announced | None) -> dict[str, Any] | None:
    if a is None:
        return None
    n = len(state.seats)
    last = max(((p.seat - a.seat) % n for p in a.protests), default=0)
    # in clockwise order from the actor, after the last protester
    may = [] if a.result != "pending" else [(a.seat + k) % n for k in range(last + 1, n)]
    return {
        "kind": a.kind,
        "seat": a.seat,
        "agent": a.agent,
        "to": a.to or None,
        "suitcase": a.suitcase,
        "target": a.target or None,
        "agent_name": state.name(a.agent),
        "colour": state.options.spec(a.agent).colour,
        "to_name": state.space_name(a.to) if a.to else None,
        "target_name": state.name(a.target) if a.target else None,
        "text": announcement_text(state, a),
        "protests": [
            {"seat": p.seat, "upheld": p.upheld, "called": p.called, "conceded": p.conceded}
            for p in a.protests
        ],
        "may_protest": [] if a.open is not None else may,
        "result": a.result,
        "open": a.open,
        "firm": list(a.firm),
    }


def _targets(state: State, agent: Agent) -> list[str]:
    """The agents ``agent`` could eliminate where it stands (public facts only)."""
    if not agent.active:
        return []
    o = state.options
    return [
        other.id
        for other in state.agents
        if other.active
        and other.id != agent.id
        and other.space == agent.space
        and (o.eliminate_in_home or agent.space != o.spec(other.id).homebase)
    ]


def _agents(state: State) -> list[dict[str, Any]]:
    out = []
    board = state.options.board
    for agent in state.agents:
        spec = state.options.spec(agent.id)
        out.append(
            {
                "id": agent.id,
                "name": spec.name,
                "colour": spec.colour,
                "homebase": spec.homebase,
                "homebase_name": board.name(spec.homebase),
                "space": agent.space,
                "space_name": board.name(agent.space),
                "at_home": agent.space == spec.homebase,
                "status": "active" if agent.active else "eliminated",
                "suitcase": state.suitcase_agent == agent.id,
                "neighbours": [
                    {"id": n, "name": board.name(n)} for n in board.neighbours(agent.space)
                ],
                "targets": _targets(state, agent),
            }
        )
    return out


def _board(state: State) -> dict[str, Any]:
    """The board for drawing: spaces (with who stands there) and streets."""
    board = state.options.board
    case = state.suitcase_at()
    spaces = []
    for sp in board.spaces:
        spaces.append(
            {
                "id": sp.id,
                "name": sp.name,
                "kind": sp.kind,
                "x": sp.x,
                "y": sp.y,
                "agents": [a.id for a in state.agents if a.active and a.space == sp.id],
                "suitcase": case == sp.id,
            }
        )
    return {"spaces": spaces, "streets": [list(p) for p in board.streets],
            "drawn": all(sp.x is not None and sp.y is not None for sp in board.spaces)}


def _chart(state: State) -> dict[str, Any]:
    """Each player's money bribed so far, turn by turn, as SVG polyline points."""
    n, turns = len(state.seats), max(state.turns, 1)
    budget = state.options.budget
    series = []
    for seat in range(n):
        total, points = 0, [(0, 0)]
        for turn, who, _agent, amount in state.history:
            if who == seat:
                total += amount
                points.append((turn + 1, total))
        points.append((turns, total))
        series.append(
            {
                "seat": seat,
                "total": total,
                "points": " ".join(
                    f"{100 * t / turns:.1f},{50 - 50 * v / budget:.1f}" for t, v in points
                ),
            }
        )
    return {"turns": state.turns, "budget": budget, "series": series}


def _phase(state: State) -> Phase:
    if state.winners is not None:
        return "over"
    if state.pending is not None:
        return "pending"
    return "follow_up" if state.follow_up is not None else "turn"


def status_line(state: State) -> str:
    """One human line: who is on turn and what the table waits for."""
    if state.winners is not None:
        names = " and ".join(state.seats[s] for s in state.winners)
        agent = state.name(state.winning_agent or "")
        return f"{agent} carried the suitcase home: {names} won."
    who = state.seats[state.turn]
    p = state.pending
    if p is not None and p.open is not None:
        return (
            f"{state.seats[p.open]} protests {announcement_text(state, p).rstrip('.')}: "
            f"{state.seats[p.seat]} and {state.seats[p.open]} may concede, or compare."
        )
    if state.pending is not None:
        text = announcement_text(state, state.pending)
        return f"{who}: {text} Protest now, or play on to let it stand."
    if state.follow_up is not None:
        return (
            f"{who} may still eliminate with {state.name(state.follow_up)}; "
            f"otherwise {state.seats[state.next_seat(state.turn)]} goes on."
        )
    if state.no_bribe:
        return f"{who}'s action was stopped: {who} must move or eliminate (no bribe)."
    return f"{who}'s turn: move an agent, bribe, or eliminate."


def _sheet(state: State, seat: int) -> dict[str, int]:
    return {a.id: state.bribes[seat][i] for i, a in enumerate(state.agents)}


def public_view(state: State) -> dict[str, Any]:
    """What every phone and the table screen may see."""
    over = state.winners is not None
    o = state.options
    reveal = None
    if over:
        agent = state.winning_agent or ""
        reveal = {
            "bribes": [_sheet(state, s) for s in range(len(state.seats))],
            "left": list(state.left),
            "agent": agent,
            "agent_name": state.name(agent) if agent else None,
            "deciding": [state.bribe(s, agent) if agent else 0 for s in range(len(state.seats))],
            "chart": _chart(state),
        }
    return {
        "game": "casablanca",
        "title": "Casablanca",
        "status": status_line(state),
        "seats": list(state.seats),
        "turn": None if over else state.turn,
        "phase": _phase(state),
        "agents": _agents(state),
        "board": _board(state),
        "suitcase": {
            "space": state.suitcase_at(),
            "space_name": state.space_name(state.suitcase_at()),
            "agent": state.suitcase_agent,
            "agent_name": state.name(state.suitcase_agent) if state.suitcase_agent else None,
        },
        "pending": _announcement(state, state.pending),
        "last": _announcement(state, state.last),
        "may_bribe": not state.no_bribe and state.follow_up is None,
        "follow_up": state.follow_up,
        "log": list(state.log),
        "camera_note": state.note or None,
        "options": {
            "budget": o.budget,
            "step": o.step,
            "elimination_cost": o.elimination_cost,
            "eliminate_in_home": o.eliminate_in_home,
            "move_then_eliminate": o.move_then_eliminate,
            "protest_reveal": o.protest_reveal,
            "concessions": o.concessions,
        },
        "over": over,
        "winners": None if state.winners is None else list(state.winners),
        "reveal": reveal,
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus ``me``: that seat's own sheet and what it may do now."""
    return _seat_view(state, seat, _may(state, seat))


def _may(state: State, seat: int) -> dict[str, Any]:
    """``on_turn``, ``can_move``, ``why_not_bribe`` and ``why_not_protest`` of ``seat``."""
    after = settled(state)
    over = after.winners is not None
    if after.follow_up is not None and seat == after.next_seat(after.turn):
        after = apply(after, TurnPassed(after.turn, seat))  # its action closes the window
    on_turn = not over and seat == after.turn
    return {
        "on_turn": on_turn,
        "can_move": on_turn and after.follow_up is None,
        "why_not_bribe": "The game is over." if over else _bribe_refusal(after, seat),
        "why_not_protest": _protest_refusal(state, seat),
        "why_not_settle": _settle_refusal(state, seat),
        "why_not_act": _act_refusal(state),
    }


def _settle_refusal(state: State, seat: int) -> str | None:
    """Why ``seat`` may not concede or compare now, or ``None``."""
    try:
        decide_settle(state, {"do": "concede", "seat": seat})
    except IllegalAction as exc:
        return exc.reason
    return None


def _act_refusal(state: State) -> str | None:
    try:
        open_protest_barred(state)
    except IllegalAction as exc:
        return exc.reason
    return None


def _bribe_refusal(state: State, seat: int) -> str | None:
    if state.left[seat] < state.options.step:
        return "You have spent your whole budget: move or eliminate instead."
    return bribe_barred(state, seat)


def _protest_refusal(state: State, seat: int) -> str | None:
    if state.winners is not None:
        return "The game is over."
    if state.pending is None:
        return "Nothing is announced: protest right after a move or an elimination."
    try:
        decide_protest(state, {"do": "protest", "seat": seat})
    except IllegalAction as exc:
        return exc.reason
    return None


def _seat_view(state: State, seat: int, may: dict[str, Any]) -> dict[str, Any]:
    """The public view plus ``me``: that seat's sheet and ``may`` (the rules' verdicts)."""
    view = public_view(state)
    cost = state.options.elimination_cost
    why_bribe = may["why_not_bribe"] or may["why_not_act"]
    pending = state.pending
    firm = pending is not None and seat in pending.firm
    view["me"] = {
        "seat": seat,
        "name": state.seats[seat],
        "bribes": _sheet(state, seat),
        "left": state.left[seat],
        "spent": state.options.budget - state.left[seat],
        "on_turn": may["on_turn"],
        "can_bribe": why_bribe is None,
        "why_not_bribe": why_bribe,
        "can_move": may["can_move"] and may["why_not_act"] is None,
        "why_not_move": may["why_not_act"] or _move_refusal(state, seat, may),
        "can_eliminate_with": [
            a.id for i, a in enumerate(state.agents) if a.active and state.bribes[seat][i] >= cost
        ],
        "eliminations": _eliminations(view["agents"], state, seat) if may["on_turn"] else [],
        "can_settle": may["why_not_settle"] is None and not firm,
        "why_not_settle": "You asked for the comparison: waiting for the other player."
        if firm and may["why_not_settle"] is None
        else may["why_not_settle"],
        "is_protester": pending is not None and pending.open == seat,
        "why_not_act": may["why_not_act"],
        "can_protest": may["why_not_protest"] is None,
        "why_not_protest": may["why_not_protest"],
        "min_protest": MIN_CALL,
    }
    view["me"]["attention"] = _attention(state, view["me"])
    return view


def _attention(state: State, me: dict[str, Any]) -> bool:
    """Whether the seat must act now (the phone's turn alert): an open protest waiting
    for its concession or comparison, a "Protest?" it may answer, or its turn (unless an
    open protest of others holds the table). Never once the game is over."""
    if state.winners is not None:
        return False
    if me["can_settle"] or me["can_protest"]:
        return True
    return bool(me["on_turn"]) and me["why_not_act"] is None


def _move_refusal(state: State, seat: int, may: dict[str, Any]) -> str | None:
    if may["can_move"]:
        return None
    if state.winners is not None:
        return "The game is over."
    if not may["on_turn"]:
        return f"It is {state.seats[settled(state).turn]}'s turn: you may move on your own turn."
    return "You already moved this turn: you may only eliminate with that agent, or pass."


def _eliminations(
    agents: list[dict[str, Any]], state: State, seat: int
) -> list[dict[str, Any]]:
    """``[{agent, name, targets: [{id, name}]}]``: who ``seat`` may eliminate with, now."""
    cost = state.options.elimination_cost
    after = settled(state)
    out = []
    for a in agents:
        if a["status"] != "active" or state.bribe(seat, a["id"]) < cost:
            continue
        if after.follow_up is not None and after.turn == seat and a["id"] != after.follow_up:
            continue
        targets = _targets(after, after.agent(a["id"]))
        if targets:
            out.append({"agent": a["id"], "name": a["name"], "colour": a["colour"],
                        "targets": [{"id": t, "name": state.name(t)} for t in targets]})
    return out


def state_json(state: State) -> dict[str, Any]:
    """Everything: replay's view, with every sheet (only non-zero bribes listed)."""
    agents = {
        a.id: {
            "status": "active" if a.active else "eliminated",
            "suitcase": state.suitcase_agent == a.id,
            "space": a.space,
            "homebase": state.options.spec(a.id).homebase,
        }
        for a in state.agents
    }
    bribes = [{a.id: row[i] for i, a in enumerate(state.agents) if row[i]} for row in state.bribes]
    return {
        "seats": list(state.seats),
        "agents": agents,
        "suitcase": {"space": state.suitcase_at(), "agent": state.suitcase_agent},
        "bribes": bribes,
        "left": list(state.left),
        "turn": state.turn,
        "pending": _announcement(state, state.pending),
        "follow_up": state.follow_up,
        "winners": None if state.winners is None else list(state.winners),
    }


def signals(state: State, events: Sequence[Event]) -> list[SignalOut]:
    """Buzzer/LED cues: protest verdicts, the turn passing, the end."""
    out: list[SignalOut] = []
    for event in events:
        if isinstance(event, ProtestSettled):
            out.append(("upheld" if event.upheld else "not_upheld", event.seat))
        elif isinstance(event, TurnPassed):
            out.append(("turn", event.to_seat))
        elif isinstance(event, GameEnded):
            out.append(("game_over", None))
    return out
