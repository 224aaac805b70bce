"""Illegal at the table: camera tags and buttons turned into engine actions.

Zones (drawn once on the camera page; ``TagInput.zone`` carries the name):

- ``"play"`` (also ``"pile"`` or no zone): a card played. It is the active seat's, unless
  the card says otherwise: a Magnum asks "whose Magnum?" (``magnum_shown``; its player
  claims it on the phone, the host page or with the seat button), never silently the
  active seat's. While the active seat's Bribe waits for its cost, a business card shown
  is that cost; while a takeover waits for the business taken, a business card shown is it.
- ``"discard"``: a card discarded by the active seat (``discard_card``: three identical
  cards in a row make a triple).
- ``"seat:N"`` (N = the seat, counted from 0 as in records): the zone in front of that
  player. A hassle or a solution laid there is the active seat's play on that seat; a
  Magnum laid there is that seat's; any other card is that seat's own play, except while
  that seat is under Tax Inspection and it is not its turn: then it is a card of its open
  hand (``show_card``). After the hand, a card shown there belongs to that seat's reveal.

After the hand, cards shown in the play zone are the reveal of the first seat that still
holds cards not shown (a seat with an empty hand reveals with one tap on its phone).
"""

from __future__ import annotations

from companion.games.base import Action, ButtonInput, IllegalAction, TableInput, TagInput
from companion.games.illegal.deck import card_ids, is_business, kind
from companion.games.illegal.legality import turn_reason
from companion.games.illegal.state import MORE, OVER, State

PLAY_ZONES = ("play", "pile", None)
DISCARD_ZONE = "discard"
SEAT_ZONE = "seat:"


def zone_seat(state: State, zone: str | None) -> int | None:
    """The seat of a ``seat:N`` zone, or None (another zone, or no such seat)."""
    if zone is None or not zone.startswith(SEAT_ZONE):
        return None
    number = zone[len(SEAT_ZONE) :]
    if not number.isdigit() or int(number) >= state.n:
        return None
    return int(number)


def action_for_input(state: State, inp: TableInput) -> Action | None:
    """A table input as an action (see the module doc); ``None`` when it means nothing now."""
    if isinstance(inp, ButtonInput):
        return _button(state, inp)
    if not isinstance(inp, TagInput) or not inp.seen:
        return None
    owner = zone_seat(state, inp.zone)
    if owner is None and inp.zone not in PLAY_ZONES and inp.zone != DISCARD_ZONE:
        return None  # a zone this game gives no meaning
    card = inp.card
    if card not in card_ids():
        raise IllegalAction("That tag is not an Illegal card: show a card of this deck")
    if state.phase == OVER:
        return _reveal(state, card, owner) if inp.zone != DISCARD_ZONE else None
    if inp.zone == DISCARD_ZONE:
        return {"do": "discard_card", "seat": state.turn, "card": card}
    if owner is not None and _scans_open_hand(state, owner, card):
        return {"do": "show_card", "seat": owner, "card": card}
    return _play(state, card, owner)


def _scans_open_hand(state: State, seat: int, card: str) -> bool:
    """A card shown in front of a player under Tax Inspection, off their turn, that is not
    a play on them (hassle, solution) nor a Magnum: a card of their open hand."""
    s = state.seats[seat]
    return (
        s.hassle == "tax_inspection"
        and seat != state.turn
        and len(s.shown) < s.hand
        and kind(card) not in ("hassle", "solution", "magnum")
    )


def _reveal(state: State, card: str, owner: int | None) -> Action | None:
    if owner is not None:
        return {"do": "reveal_card", "seat": owner, "card": card}
    for i, s in enumerate(state.seats):
        if s.hand > 0 and (s.revealed is None or len(s.revealed) < s.hand):
            return {"do": "reveal_card", "seat": i, "card": card}
    return None


def _play(state: State, card: str, owner: int | None) -> Action:
    turn = state.turn
    active = state.seats[turn]
    given = dict(active.pending_given)
    if owner in (None, turn) and active.pending and is_business(card):
        if active.pending == "bribe" and "discard" not in given:
            return {"do": "play", "seat": turn, "card": "bribe", "discard": card}
        if kind(active.pending) == "takeover" and "take" not in given:
            return {"do": "play", "seat": turn, "card": active.pending, "take": card}
    if card == "magnum":
        return (
            {"do": "play", "seat": owner, "card": card}
            if owner is not None
            else {"do": "magnum_shown"}
        )
    actor = turn
    if state.phase == MORE and turn_reason(state, turn, card) is not None:
        actor = next_seat(state)  # the open turn cannot take this card: the next player's
    if owner is not None and kind(card) in ("hassle", "solution"):
        return {"do": "play", "seat": actor, "card": card, "target": owner}
    return {"do": "play", "seat": actor if owner is None else owner, "card": card}


def next_seat(state: State) -> int:
    """The seat whose turn comes next (seats that sit out skipped)."""
    for step in range(1, state.n):
        seat = (state.turn + step) % state.n
        if state.seats[seat].skips == 0:
            return seat
    return (state.turn + 1) % state.n


def _button(state: State, inp: ButtonInput) -> Action | None:
    role, seat = inp.role, inp.seat
    if role == "next" and state.phase == OVER and state.scores is not None:
        return {"do": "deal"}
    if state.phase == OVER:
        return None
    if role == "seat" and isinstance(seat, int) and state.unclaimed:
        return {"do": "play", "seat": seat, "card": "magnum"}  # "that Magnum is mine"
    if role == "confirm" and (state.phase == MORE or state.gathered):
        return {"do": "end_turn", "seat": state.turn}
    active = state.seats[state.turn]
    if role == "seat" and isinstance(seat, int) and active.pending:
        return {"do": "play", "seat": state.turn, "card": active.pending, "target": seat}
    return None
