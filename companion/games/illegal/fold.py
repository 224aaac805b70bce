"""Illegal: ``apply(state, event)``, the projector, with a human sentence for each event.

``apply`` folds one event and keeps the sentence that describes it in ``state.log``
(the dashboard's short log). ``emitter(state)`` is the ``Emitter`` that ``decide`` uses:
it folds each event as it is emitted, so a later step sees an earlier step's effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from companion.games.emit import Emitter
from companion.games.frozen import replace
from companion.games.illegal.deck import kind, label
from companion.games.illegal.events import (
    BusinessLost,
    BusinessTaken,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    CardsPassed,
    CardsTraded,
    DiscardGathered,
    Event,
    HandDealt,
    HandEnded,
    HandRevealed,
    HandScored,
    HandShown,
    HassleRemoved,
    LossConfirmed,
    LossRequested,
    MagnumShown,
    MoveCancelled,
    MoveWaits,
    PlayPending,
    SkipsAdded,
    TakeoverCancelled,
    TakeoverStood,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from companion.games.illegal.state import (
    CHOOSE,
    ENDING,
    HAND_SIZE,
    LOG_KEPT,
    MORE,
    OVER,
    TURN,
    Awaiting,
    SeatState,
    State,
    Takeover,
)
from companion.games.money import euros

_WHY_ENDED = {
    "day_of_accounting": "{name} calls the Day of Accounting: the hand ends",
    "draw_pile_empty": "{name} cannot draw: the draw pile is empty and the hand ends",
    "hand_empty": "{name} has no cards left: the hand ends",
}




# --- sentences -------------------------------------------------------------------------


def describe(state: State, e: Event) -> str | None:
    """One sentence for the table about event ``e`` (about to be folded into ``state``)."""
    return sentence(state.name, e)


def sentence(n: Callable[[int], str], e: Event) -> str | None:
    """One sentence about event ``e``; ``n`` names a seat."""
    if isinstance(e, HandDealt):
        return f"Hand {e.hand_no}: {n(e.dealer)} deals, {n(e.first)} starts"
    if isinstance(e, PlayPending):
        what = {
            "target": "a target",
            "take": "the business to take",
            "discard": "the business card it costs",
            "lose": "the business to lose",
        }
        return (f"{n(e.seat)} lays down {label(e.card)} and still has to choose "
                f"{what.get(e.needs, e.needs)}")
    if isinstance(e, CardPlayed):
        on = f" on {n(e.target)}" if e.target is not None and kind(e.card) != "takeover" else ""
        late = " (out of turn)" if e.out_of_turn else ""
        return f"{n(e.seat)} plays {label(e.card)}{on}{late}"
    if isinstance(e, CardsDiscarded):
        cards = ", ".join(label(c) for c in e.cards)
        return f"{n(e.seat)} discards {cards}" + (" for the Bribe" if e.why == "bribe" else "")
    if isinstance(e, HassleRemoved):
        why = "nothing left to take" if e.by == "empty" else label(e.by)
        return f"{label(e.card)} leaves {n(e.seat)}'s Market Open ({why})"
    if isinstance(e, BusinessLost):
        how = "" if e.chosen else " (the only possibility)"
        return f"{n(e.seat)} loses {label(e.card)} to {label(e.why)}{how}"
    if isinstance(e, BusinessTaken):
        return f"{n(e.seat)} takes {label(e.card)} from {n(e.victim)} ({label(e.via)})"
    if isinstance(e, TakeoverCancelled):
        return (
            f"{n(e.seat)}'s Magnum stops the takeover: {label(e.card)} goes back to {n(e.victim)}"
        )
    return _describe_move(n, e)


def _describe_move(n: Callable[[int], str], e: Event) -> str | None:
    if isinstance(e, MagnumShown):
        return "A Magnum was shown: whose is it? Its player says so on the phone or button"
    if isinstance(e, DiscardGathered):
        return f"{n(e.seat)} lays {label(e.card)} on the discard pile"
    if isinstance(e, MoveCancelled):
        what = {
            "pending": "the unfinished play",
            "gathered": "the cards on the discard zone",
            "magnum": "the unclaimed Magnum",
        }[e.what]
        return f"Cancelled: {what} (take the cards back)"
    if isinstance(e, CardsTraded):
        return f"{n(e.seat)} trades with {n(e.other)}: gives {e.gave} card(s), gets {e.got}"
    if isinstance(e, LossConfirmed):
        return f"{n(e.seat)} confirms losing {label(e.card)}"
    return _describe_turn(n, e)


def _describe_turn(n: Callable[[int], str], e: Event) -> str | None:
    if isinstance(e, SkipsAdded):
        turns = "the next turn" if e.turns == 1 else f"the next {e.turns} turns"
        return f"{n(e.seat)} sits out {turns}" if e.turns else None
    if isinstance(e, CardsPassed):
        return "Everyone passes one card face down to the left"
    if isinstance(e, LossRequested):
        return f"{n(e.seat)} must choose a business for the {label(e.hassle)}"
    if isinstance(e, TurnSkipped):
        return f"{n(e.seat)} sits this turn out"
    if isinstance(e, TurnStarted):
        return f"{n(e.seat)}'s turn"
    if isinstance(e, HandEnded):
        return _WHY_ENDED.get(e.why, "The hand ends").format(name=n(e.seat))
    if isinstance(e, HandScored):
        parts = ", ".join(f"{n(i)} {euros(v)}" for i, v in enumerate(e.scores))
        return f"Accounting: {parts}"
    return None  # draws, turn ends, reveals: visible in the tableau itself


# --- folding ---------------------------------------------------------------------------


def _seat(state: State, seat: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def _without(cards: tuple[str, ...], one: str) -> tuple[str, ...]:
    """``cards`` minus one copy of ``one`` (the last played copy)."""
    if one not in cards:
        return cards
    i = len(cards) - 1 - cards[::-1].index(one)
    return cards[:i] + cards[i + 1 :]


def _dealt(state: State, e: HandDealt) -> State:
    seats = tuple(SeatState(name=s.name, hand=HAND_SIZE) for s in state.seats)
    return replace(
        state,
        seats=seats,
        hand_no=e.hand_no,
        dealer=e.dealer,
        turn=e.first,
        phase=TURN,
        turn_done=(),
        draw_pile=e.draw_pile,
        discards=(),
        awaiting=None,
        last_takeover=None,
        ended_by=None,
        scores=None,
        winners=(),
        unclaimed=False,
        gathered=(),
        forced_loss=None,
    )


_NOT_PENDING: dict[str, Any] = {"pending": None, "pending_needs": None, "pending_given": ()}


def _played(state: State, e: CardPlayed) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, hand=s.hand - 1, shown=_without(s.shown, e.card), **_NOT_PENDING)
    if e.card == "magnum":  # a Magnum shown but not placed waits on no one any more
        state = replace(
            state,
            unclaimed=False,
            seats=tuple(
                replace(x, **_NOT_PENDING) if x.pending == "magnum" else x for x in state.seats
            ),
        )
    k = kind(e.card)
    if k == "market_open":
        state = _seat(state, e.seat, market_open=True)
    elif k in ("legal_business", "illegal_business"):
        state = _seat(state, e.seat, businesses=state.seats[e.seat].businesses + (e.card,))
    elif k == "hassle" and e.target is not None:
        state = _seat(state, e.target, hassle=e.card)
    else:
        state = replace(state, discards=state.discards + (e.card,))
    if not e.out_of_turn and e.card != "magnum":
        # a Bribe is not the turn's card (except in records of format 1: bribe_extra off)
        entry = "bribe" if e.card == "bribe" and state.options.bribe_extra else k
        phase = state.phase if entry == "bribe" else MORE
        state = replace(state, turn_done=state.turn_done + (entry,), phase=phase)
    return state


def _discarded(state: State, e: CardsDiscarded) -> State:
    s = state.seats[e.seat]
    shown = s.shown
    for c in e.cards:  # (format 1, option show "part_ends_turn", kept what was shown)
        shown = shown if state.options.show else _without(shown, c)
    # a discard drops a shown play
    state = _seat(state, e.seat, hand=s.hand - len(e.cards), shown=shown, **_NOT_PENDING)
    state = replace(state, discards=state.discards + e.cards)
    if e.why != "turn":
        return state
    state = replace(state, gathered=())
    done = ("single",) if len(e.cards) == 1 else ("triple",)
    return replace(state, turn_done=state.turn_done + done, phase=MORE)


def _hassle_removed(state: State, e: HassleRemoved) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, hassle=None, shown=() if e.card == "tax_inspection" else s.shown)
    return replace(state, discards=state.discards + (e.card,))


def _lost(state: State, e: BusinessLost) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, businesses=_without(s.businesses, e.card))
    state = replace(
        state,
        discards=state.discards + (e.card,),
        forced_loss=None if e.chosen else (e.seat, e.card),
    )
    if state.awaiting is not None and state.awaiting.seat == e.seat and state.phase == CHOOSE:
        state = replace(state, awaiting=None, phase=ENDING)
    return state


def _taken(state: State, e: BusinessTaken) -> State:
    victim = state.seats[e.victim]
    state = _seat(state, e.victim, businesses=_without(victim.businesses, e.card))
    state = _seat(state, e.seat, businesses=state.seats[e.seat].businesses + (e.card,))
    return replace(state, last_takeover=Takeover(e.seat, e.victim, e.card, e.via, e.hassle))


def _cancelled(state: State, e: TakeoverCancelled) -> State:
    taker = state.seats[e.taker]
    state = _seat(state, e.taker, businesses=_without(taker.businesses, e.card))
    state = _seat(state, e.victim, businesses=state.seats[e.victim].businesses + (e.card,))
    if e.hassle_restored is not None:
        state = _seat(state, e.taker, hassle=e.hassle_restored)
        state = replace(state, discards=_without(state.discards, e.hassle_restored))
    return replace(state, last_takeover=None)  # the takeover card lies in the discards


def _passed(state: State, e: CardsPassed) -> State:
    had = [s.hand > 0 for s in state.seats]
    seats = tuple(
        replace(s, hand=s.hand - int(had[i]) + int(had[i - 1]), shown=())
        for i, s in enumerate(state.seats)
    )
    return replace(state, seats=seats)


def _traded(state: State, e: CardsTraded) -> State:
    giver, other = state.seats[e.seat], state.seats[e.other]
    state = _seat(state, e.seat, hand=giver.hand - e.gave + e.got, shown=())
    return _seat(state, e.other, hand=other.hand + e.gave - e.got, shown=())


def _cancelled_move(state: State, e: MoveCancelled) -> State:
    if e.what == "magnum":
        return replace(state, unclaimed=False)
    if e.what == "gathered":
        return replace(state, gathered=())
    assert e.seat is not None
    return _seat(state, e.seat, **_NOT_PENDING)


def _scored(state: State, e: HandScored) -> State:
    return replace(
        state,
        scores=e.scores,
        totals=e.totals,
        history=state.history + (e.scores,),
        match_over=e.match_over,
        winners=e.winners,
    )


_APPLY: dict[type, Callable[[State, Any], State]] = {
    HandDealt: _dealt,
    PlayPending: lambda st, e: replace(
        _seat(st, e.seat, pending=e.card, pending_needs=e.needs, pending_given=e.given),
        unclaimed=st.unclaimed and e.card != "magnum",  # a Magnum being placed is claimed
    ),
    MagnumShown: lambda st, e: replace(st, unclaimed=True),
    DiscardGathered: lambda st, e: replace(st, gathered=st.gathered + (e.card,)),
    MoveCancelled: _cancelled_move,
    MoveWaits: lambda st, e: replace(st, waiting_since=e.at),
    CardsTraded: _traded,
    LossConfirmed: lambda st, e: replace(st, forced_loss=None),
    CardPlayed: _played,
    CardsDiscarded: _discarded,
    HassleRemoved: _hassle_removed,
    BusinessLost: _lost,
    BusinessTaken: _taken,
    TakeoverStood: lambda st, e: replace(st, last_takeover=None),
    TakeoverCancelled: _cancelled,
    SkipsAdded: lambda st, e: _seat(st, e.seat, skips=st.seats[e.seat].skips + e.turns),
    CardsPassed: _passed,
    HandShown: lambda st, e: _seat(st, e.seat, shown=e.cards),
    TurnEnded: lambda st, e: replace(st, phase=ENDING),
    LossRequested: lambda st, e: replace(
        st, phase=CHOOSE, awaiting=Awaiting(e.seat, "lose", e.choices, e.hassle)
    ),
    CardDrawn: lambda st, e: replace(
        _seat(st, e.seat, hand=st.seats[e.seat].hand + e.count), draw_pile=st.draw_pile - e.count
    ),
    TurnSkipped: lambda st, e: _seat(st, e.seat, skips=st.seats[e.seat].skips - 1),
    TurnStarted: lambda st, e: replace(st, turn=e.seat, phase=TURN, turn_done=()),
    HandEnded: lambda st, e: replace(
        st,
        phase=OVER,
        ended_by=e.why,
        awaiting=None,
        last_takeover=None,
        unclaimed=False,
        gathered=(),
        seats=tuple(replace(s, **_NOT_PENDING) for s in st.seats),
    ),
    HandRevealed: lambda st, e: _seat(st, e.seat, revealed=e.cards),
    HandScored: _scored,
}


def apply(state: State, event: Event) -> State:
    """Fold one event (the engine's ``apply``); its human sentence joins ``state.log``."""
    fold = _APPLY.get(type(event))
    if fold is None:
        raise TypeError(f"illegal: unknown event {event!r}")
    note = describe(state, event)
    state = fold(state, event)
    if state.waiting_since is not None and not state.unfinished():
        state = replace(state, waiting_since=None)
    if note:
        state = replace(state, log=(state.log + (note,))[-LOG_KEPT:])
    return state


#: The events ``decide`` emitted so far and the state they lead to.
Emit: TypeAlias = Emitter[State, Event]


def emitter(state: State) -> Emit:
    """An ``Emitter`` that folds each event into ``state`` as ``decide`` emits it."""
    return Emitter(state, apply)
