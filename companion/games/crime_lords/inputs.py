"""Crime Lords' table inputs: a card seen in the center is a draw; the "next" button moves
the turn on (collect, end the turn, or pass a Gang War turn)."""

from __future__ import annotations

from companion.games.actions import GameAction
from companion.games.base import ButtonInput, TableInput, TagInput
from companion.games.crime_lords.actions import (
    ACTIONS,
    Collect,
    Draw,
    EndTurn,
    WarPass,
)
from companion.games.crime_lords.ledger import in_play
from companion.games.crime_lords.state import State


def action_for_input(state: State, inp: TableInput) -> GameAction | None:
    """A tag seen in the "center" zone is a draw (with the stats the deck holds for the
    card, when the table passes them; else the drawing player is asked for them); the
    "next" button of the seat on turn ends its turn, or passes its Gang War turn.

    The stats the deck holds go through the same parser as a phone's: stats of the
    wrong type are refused (``ActionError``), never stored."""
    if state.phase != "turn" or state.attack is not None or state.pending is not None:
        return None
    if isinstance(inp, TagInput) and inp.seen and inp.zone == "center":
        card = inp.card
        if state.step != "actions" or not isinstance(card, str) or in_play(state, card):
            return None
        raw: dict[str, object] = {"do": Draw.do, "seat": state.turn, "card": card}
        if inp.stats and not state.known(card):
            raw["stats"] = dict(inp.stats)
        return ACTIONS.parse(raw)
    if isinstance(inp, ButtonInput) and inp.role == "next":
        if inp.seat not in (None, state.turn):
            return None
        if state.war is not None:
            return WarPass(seat=state.turn)
        if state.step == "collect":
            return Collect(seat=state.turn)
        return EndTurn(seat=state.turn)
    return None
