"""Illegal: the end of a turn (its loss, the draw, the next seat) and booked discards.

Steps of ``decide`` shared by several handlers; each works on an ``Emit`` (the events
so far and the state they lead to).
"""

from __future__ import annotations

from companion.games.base import require
from companion.games.frozen import replace
from companion.games.illegal.deck import label, value
from companion.games.illegal.events import (
    BusinessLost,
    CardDrawn,
    CardsDiscarded,
    HandEnded,
    LossRequested,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from companion.games.illegal.fold import Emit
from companion.games.illegal.legality import (
    card_reason,
    discard_reason,
    loss_choices,
    turn_cards,
)
from companion.games.illegal.plays import lift_if_empty
from companion.games.illegal.state import HAND_SIZE, State


def finish_turn(f: Emit) -> None:
    """End the active seat's turn: its hassle's loss, then the draw and the next turn.

    A loss with more than one possibility waits for its victim (``lose``); with exactly
    one the engine takes it.
    """
    seat = f.state.turn
    f.emit(TurnEnded(seat))
    hassle = f.state.seats[seat].hassle
    choices = loss_choices(f.state, seat)
    if hassle is not None and len(choices) > 1:
        f.emit(LossRequested(seat, hassle, choices))
        return
    if hassle is not None and choices:
        f.emit(BusinessLost(seat, choices[0], hassle, chosen=False))
    continue_turn_end(f)


def lose_cheapest(f: Emit) -> None:
    """Records of format 1 (``unchosen_loss: "cheapest"``): the next player acted before the
    victim chose, so the cheapest business the hassle may take goes."""
    awaiting = f.state.awaiting
    assert awaiting is not None
    cheapest = min(awaiting.choices, key=value)
    f.emit(BusinessLost(awaiting.seat, cheapest, awaiting.because, chosen=False))
    continue_turn_end(f)


def continue_turn_end(f: Emit) -> None:
    """After the loss: an emptied Raid/Protection Money goes, the seat draws, next turn."""
    seat = f.state.turn
    lift_if_empty(f, seat, at_end_of_turn=True)
    s = f.state.seats[seat]
    want = 1 if f.state.options.draw == "one" else max(HAND_SIZE - s.hand, 0)
    if want and f.state.draw_pile == 0:
        f.emit(HandEnded("draw_pile_empty", seat))
        return
    if want:
        f.emit(CardDrawn(seat, min(want, f.state.draw_pile)))
    next_turn(f)


def next_turn(f: Emit) -> None:
    """Pass the turn clockwise, skipping seats that must sit out."""
    nxt = (f.state.turn + 1) % f.state.n
    for _ in range(f.state.n * 4):
        if f.state.seats[nxt].skips > 0:
            f.emit(TurnSkipped(nxt))
            nxt = (nxt + 1) % f.state.n
            continue
        f.emit(TurnStarted(nxt))
        return


def turn_goes_on(st: State) -> bool:
    """Whether the active seat may still add a card after its play (a legal business to an
    illegal one, or the other way round; with ``legal_extra: "any"`` to any card; with
    ``"after_illegal"`` (format 1) only a legal business after an illegal one)."""
    seat = st.turn
    main, legal = turn_cards(st)
    if st.options.legal_extra == "after_illegal":
        return main == ["illegal_business"] and not legal
    if st.seats[seat].hand < 1:
        return False
    any_card = st.options.legal_extra == "any"
    if main and not legal:
        joins = any_card or main[0] == "illegal_business"
        return joins and card_reason(st, seat, "tropical_fish") is None
    if legal and not main:
        return any_card or card_reason(st, seat, "gambling") is None
    return False


def flush_gathered(f: Emit) -> None:
    """Book the cards gathered in the discard zone: one card, or three identical ones."""
    cards = f.state.gathered
    seat = f.state.turn
    if not cards:
        return
    require(
        len(cards) != 2,
        f"Two {label(cards[0])} lie on the discard pile: add a third identical card for a "
        "triple, or take one back and ask the host to cancel",
    )
    reason = discard_reason(replace(f.state, gathered=()), seat, cards)
    require(reason is None, reason or "")
    book_discard(f, seat, cards)


def book_discard(f: Emit, seat: int, cards: tuple[str, ...]) -> None:
    """The turn's discard: the hand ends when it was the last card; after a single card and
    a triple nothing more can follow, so the turn ends."""
    f.emit(CardsDiscarded(seat, cards, "turn"))
    if f.state.seats[seat].hand == 0:
        f.emit(HandEnded("hand_empty", seat))
    elif "single" in f.state.turn_done and "triple" in f.state.turn_done:
        finish_turn(f)
