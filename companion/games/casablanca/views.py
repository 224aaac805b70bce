"""Casablanca's JSON views: the table's, one seat's secrets, the log, replay's full state,
and signals.

The keys are documented in ``companion.games.casablanca``. ``public_view`` reads no
bribe and no unspent budget before the game is over; ``secrets`` is the sheet of one
seat only. Keep it that way: privacy is the feature.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from companion.games.base import SignalOut
from companion.games.casablanca import legality
from companion.games.casablanca.events import Event, GameEnded, ProtestSettled, TurnPassed
from companion.games.casablanca.moves import status_line
from companion.games.casablanca.state import Announced, State, announcement_text
from companion.games.moves import Scores
from companion.games.words import plurals

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
                    {"id": n, "name": board.name(n)} for n in state.reachable(agent.id)
                ],
                "targets": legality.targets(state, agent.id),
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
        "log": log(state),
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


def secrets(state: State, seat: int) -> dict[str, Any]:
    """Only ``seat``'s own sheet: its bribe on every agent, the money left and spent."""
    return {
        "bribes": _sheet(state, seat),
        "left": state.left[seat],
        "spent": state.options.budget - state.left[seat],
    }


def log(state: State) -> list[str]:
    """The game's recent public lines (never an amount)."""
    return [plurals(line) for line in state.log]


def scores(state: State) -> Scores | None:
    """Casablanca keeps no score: the highest bribe on the agent carried home wins
    (``public_view``'s ``reveal`` at the end)."""
    return None


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
