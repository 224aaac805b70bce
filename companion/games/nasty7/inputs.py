"""The Nasty 7 at the table: camera tags and buttons turned into engine actions.

A card whose tag is seen in zone ``pile`` is played by the seat whose turn it is (an
out-of-turn play is entered by the host with ``"seat"``); a card already on the pile seen
again is nothing; a card seen outside every zone is put to the host. A seat's button accuses the
player of the last card; the host's ``confirm`` button upholds, ``next`` rejects.
"""

from __future__ import annotations

from typing import Any

from companion.games.actions import GameAction
from companion.games.base import ButtonInput, IllegalAction, TableInput, TagInput
from companion.games.nasty7.actions import ACTIONS, Accuse, Play, Rule, SeenBeside
from companion.games.nasty7.state import FIGURES, State

#: the zone names where a card is played: the configuration's ``pile``, or the ``play``
#: zone the host draws on the camera page
PILE_ZONES = ("pile", "play")


def action_for_input(state: State, inp: TableInput) -> GameAction | None:
    """A card seen in zone ``pile`` is a play; a seat button accuses the last player.

    A card already on the pile seen again (a hand rested over it, the camera lost it for
    a moment) is no play and no refusal. A card of the game seen outside every zone is
    shown to the host (``seen_beside``), who says whether it counts. The host's
    ``confirm`` button upholds a waiting accusation, ``next`` rejects it. Raises
    ``IllegalAction`` for a foreign card on the pile or a seat accusing itself.
    """
    if state.over:
        return None
    if isinstance(inp, TagInput) and inp.seen:
        return _tag(state, inp)
    if not isinstance(inp, ButtonInput):
        return None
    role = inp.role
    if role == "seat" and isinstance(inp.seat, int):
        return _button_accuse(state, int(inp.seat))
    if role in ("confirm", "next") and state.accusation is not None:
        return Rule(upheld=role == "confirm")
    return None


def _tag(state: State, inp: TagInput) -> GameAction | None:
    serial = inp.serial
    if isinstance(serial, int) and serial in state.pile_serials:
        return None  # still on the pile, under a hand or another card: not a play
    if inp.zone in PILE_ZONES:
        return _tag_play(state, inp)
    if inp.zone is not None or inp.card not in FIGURES or state.accusation is not None:
        return None  # another zone the host drew, or a foreign card off the pile
    if isinstance(serial, int) and serial in state.swept:
        return None  # the last pile, being picked up
    seen: dict[str, Any] = {"do": SeenBeside.do, "card": inp.card}
    if isinstance(serial, int) and not isinstance(serial, bool):
        seen["serial"] = serial
    return ACTIONS.parse(seen)


def _tag_play(state: State, inp: TagInput) -> GameAction:
    card = inp.card
    if card not in FIGURES:
        raise IllegalAction("That card is not a card of The Nasty 7: take it off the pile.")
    serial = inp.serial
    action: dict[str, Any] = {"do": Play.do, "card": card}
    if isinstance(serial, int) and not isinstance(serial, bool):
        action["serial"] = serial
    return ACTIONS.parse(action)  # the same parser as every record line and post


def _button_accuse(state: State, seat: int) -> GameAction:
    pending = state.accusation
    against = pending.against if pending is not None else state.last_player
    if against is None:
        raise IllegalAction("No card is on the pile: there is nothing to accuse anyone of yet.")
    if seat == against:
        raise IllegalAction(
            f"{state.seats[seat]} played the last card and cannot accuse themselves."
        )
    return Accuse(by_=(seat,), against=against)
