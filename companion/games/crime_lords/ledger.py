"""Crime Lords' shared look-ups for every action: the acting seat, a card's kind, whether
a card is in play, whose Crook a card is, and a card's stats the first time it is seen.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.base import Action, IllegalAction, get_int, get_str, require
from companion.games.cards import catalog
from companion.games.crime_lords.events import CardEntered, Event
from companion.games.crime_lords.state import State, is_card_kind
from companion.games.emit import Emitter


def seat_of(state: State, action: Action, key: str = "seat") -> int:
    seat = get_int(action, key, lo=0, hi=len(state.seats) - 1)
    require(not state.mobs[seat].out, f"{state.seats[seat]} is out of the game.")
    return seat


def kind_of(card: str) -> str:
    """The catalog kind of a card id (mob, crook, racket, special)."""
    try:
        return catalog("crime_lords").by_id(card).kind
    except KeyError:
        raise IllegalAction(
            f"There is no Crime Lords card {card!r}: cards are mob_01..08, crook_01..36, "
            "racket_01..52 and special_01..16."
        ) from None


def in_play(state: State, card: str) -> bool:
    return (
        state.owner(card) is not None
        or state.in_center(card)
        or card in state.discard
        or any(card in m.specials or card == m.mob_card for m in state.mobs)
    )


def enter(b: Emitter[State, Event], card: str, kind: str, action: Action) -> None:
    """Register a Crook's or Racket's stats the first time the card comes into play."""
    if b.state.known(card) or not is_card_kind(kind):
        return
    stats = action.get("stats")
    require(
        isinstance(stats, Mapping),
        f"{card} comes into play for the first time: send its stats, e.g. "
        + ('{"power": 4, "resistance": 2}' if kind == "crook" else
           '{"income": 3, "resistance": 4, "district": "north side"}'),
    )
    assert isinstance(stats, Mapping)
    need = ("power", "resistance") if kind == "crook" else ("income", "resistance")
    for key in need:
        value = stats.get(key)
        require(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"The stats of {card} need '{key}' as a whole number (read it off the card).",
        )
    b.emit(CardEntered(card, kind, dict(stats)))


def own_crook(state: State, seat: int, action: Action, key: str = "card") -> str:
    card = get_str(action, key)
    require(
        state.mobs[seat].crook(card) is not None,
        f"{state.label(card)} is not a Crook in {state.seats[seat]}'s Mob.",
    )
    return card
