"""The Nasty 7 at the table: camera tags and buttons turned into engine actions.

A card whose tag is seen in zone ``pile`` is played by the seat whose turn it is (the
host gives it to another player afterwards: ``reassign``); a card already on the pile, or
of the last pile taken, seen again anywhere is nothing; a card seen outside every zone is
put to the host (each one queues until the host answers it), and so is a card the camera
saw land on the pile but could not read (the table sends it as a tag with no card and no
serial: the feature ``unread_landings``); that card read later where it landed (its tag
carries ``landed``) answers that question itself (``decide``), or is nothing when the host
named it already. The camera's word that a lamp's glare hides part of the pile (or no
longer does) is passed on as it turns (``Sight``). A seat's button accuses the
player of the last card; the host's ``confirm`` button upholds, ``next`` rejects. What
the rules refuse is refused with ``legality``'s sentence.
"""

from __future__ import annotations

from typing import Any

from companion.games.actions import GameAction
from companion.games.base import ButtonInput, IllegalAction, SightInput, TableInput, TagInput
from companion.games.nasty7.actions import (
    ACTIONS,
    Accuse,
    LandedUnread,
    Play,
    Rule,
    SeenBeside,
    Sight,
)
from companion.games.nasty7.legality import accuse_reason, accused, figure_reason, rule_reason
from companion.games.nasty7.state import State, same_landing

#: the zone names where a card is played: the configuration's ``pile``, or the ``play``
#: zone the host draws on the camera page
PILE_ZONES = ("pile", "play")


def action_for_input(state: State, inp: TableInput) -> GameAction | None:
    """A card seen in zone ``pile`` is a play; a seat button accuses the last player.

    A card already on the pile seen again (a hand rested over it, the camera lost it for
    a moment) is no play and no refusal. A card of the game seen outside every zone is
    shown to the host (``seen_beside``), who says whether it counts. The host's
    ``confirm`` button upholds a waiting accusation, ``next`` rejects it. Raises
    ``IllegalAction`` for a foreign card on the pile or a seat's button the rules refuse
    now (no card on the pile, the seat played the last card or has accused already).
    """
    if state.over:
        return None
    if isinstance(inp, TagInput) and inp.seen:
        return _tag(state, inp)
    if isinstance(inp, SightInput):  # the camera's view of the pile turned
        return Sight(blind=inp.blind) if inp.blind != state.blind else None
    if not isinstance(inp, ButtonInput):
        return None
    role = inp.role
    if role == "seat" and isinstance(inp.seat, int):
        return _button_accuse(state, int(inp.seat))
    if role in ("confirm", "next") and rule_reason(state) is None:
        return Rule(upheld=role == "confirm")
    return None


def _tag(state: State, inp: TagInput) -> GameAction | None:
    """A physical card has one life per round: a card already on the pile (under a hand
    or another card), a card of the last pile taken (being gathered up), wherever it is
    seen, is no play and no question; a card already waiting for the host's answer
    beside the pile is not asked about twice (on the pile it is the play); a card that
    landed unread and that the host named already, read now, is nothing more."""
    serial = inp.serial
    if inp.card is None and serial is None and inp.zone in PILE_ZONES:
        return LandedUnread(at=inp.t)  # a card the camera could not read: the host says which
    if isinstance(serial, int) and (serial in state.pile_serials or serial in state.swept):
        return None  # still on the pile, or the last pile being picked up: not a play
    if inp.landed is not None and same_landing(state.named, inp.landed) is not None:
        return None  # it landed unread and the host named it: booked already
    if inp.zone in PILE_ZONES:
        return _tag_play(state, inp)
    if inp.zone is not None or figure_reason(inp.card):
        return None  # another zone the host drew, or a foreign card off the pile
    if isinstance(serial, int) and any(s.serial == serial for s in state.seen_beside):
        return None  # already asked: the host's answer is waiting
    seen: dict[str, Any] = {"do": SeenBeside.do, "card": inp.card}
    if isinstance(serial, int) and not isinstance(serial, bool):
        seen["serial"] = serial
    return ACTIONS.parse(seen)


def _tag_play(state: State, inp: TagInput) -> GameAction:
    card = inp.card
    why = figure_reason(card)
    if why is not None:
        raise IllegalAction(why)
    serial = inp.serial
    action: dict[str, Any] = {"do": Play.do, "card": card}
    if isinstance(serial, int) and not isinstance(serial, bool):
        action["serial"] = serial
    if inp.landed is not None:  # it landed unread: when it landed, not when it was read
        action["landed"] = inp.landed
    return ACTIONS.parse(action)  # the same parser as every record line and post


def _button_accuse(state: State, seat: int) -> GameAction:
    against = accused(state)
    why = accuse_reason(state, (seat,), against)
    if why is not None:
        raise IllegalAction(why)
    return Accuse(by_=(seat,), against=against)
