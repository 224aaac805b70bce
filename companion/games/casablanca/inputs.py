"""Casablanca at the table: camera tags and buttons turned into engine actions.

A tagged agent stand seen in a new zone announces a move (the zone name is the space
id); a seat's button protests what is pending; the confirm button resolves it.
"""

from __future__ import annotations

from companion.games.base import Action, ButtonInput, TableInput
from companion.games.casablanca.decide import settled
from companion.games.casablanca.state import State


def action_for_input(state: State, inp: TableInput) -> Action | None:
    """A tagged agent stand in a new zone announces a move; seat buttons protest.

    The zone name is taken as the space id. The move takes the suitcase along only
    when the agent carries it already (picking it up is done on a phone). The
    confirm button resolves what is pending.
    """
    if state.winners is not None:
        return None
    if isinstance(inp, ButtonInput):
        return _button_action(state, inp)
    if not inp.seen:
        return None
    agent, zone = inp.card, inp.zone
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


def _button_action(state: State, inp: ButtonInput) -> Action | None:
    role = inp.role
    if role == "confirm" and (state.pending is not None or state.follow_up is not None):
        return {"do": "resolve"}
    seat = inp.seat
    if role == "seat" and state.pending is not None and isinstance(seat, int):
        return {"do": "protest", "seat": seat}
    return None
