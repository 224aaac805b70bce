"""Illegal at the table: camera tags and buttons turned into engine actions."""

from __future__ import annotations

from companion.games.base import Action, ButtonInput, IllegalAction, TableInput, TagInput
from companion.games.illegal.deck import card_ids
from companion.games.illegal.state import OVER, State

PLAY_ZONES = ("play", "pile", None)


def action_for_input(state: State, inp: TableInput) -> Action | None:
    """A table input as an action (see the package doc); ``None`` when it means nothing now.

    A card shown in the play zone is played by the seat whose turn it is (a Magnum too;
    its player's phone then completes it with the right seat). After the hand, cards
    shown are the hand of the first seat still to reveal. The confirm button ends an
    open turn; a seat button names the target of a pending play; "next" deals.
    """
    if isinstance(inp, TagInput) and inp.seen and inp.zone in PLAY_ZONES:
        card = inp.card
        if card not in card_ids():
            raise IllegalAction("That tag is not an Illegal card: show a card of this deck")
        if state.phase == OVER:
            for i, s in enumerate(state.seats):
                if s.revealed is None or len(s.revealed) < s.hand:
                    return {"do": "reveal_card", "seat": i, "card": card}
            return None
        return {"do": "play", "seat": state.turn, "card": card}
    if not isinstance(inp, ButtonInput):
        return None
    return _button(state, inp)


def _button(state: State, inp: ButtonInput) -> Action | None:
    role, seat = inp.role, inp.seat
    if role == "next" and state.phase == OVER and state.scores is not None:
        return {"do": "deal"}
    if state.phase == OVER:
        return None
    if role == "confirm" and state.phase == "more":
        return {"do": "end_turn", "seat": state.turn}
    active = state.seats[state.turn]
    if role == "seat" and isinstance(seat, int) and active.pending:
        return {"do": "play", "seat": state.turn, "card": active.pending, "target": seat}
    return None
