"""Illegal: the state, the events and how each event folds into the state.

The state is what the table can know: tableaux, hand *sizes*, the draw pile count, the
face-up discard pile, cards made public (Tax Inspection, the end-of-hand reveal). It never
holds a hidden hand. Card data (kinds, values, counts) comes from the catalog
``companion/games/data/illegal.json`` via ``card(id)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.games.cards import CardType, catalog

HAND_SIZE = 7
NOTES_KEPT = 8

# phases of a hand
TURN = "turn"  # the active seat must play or discard
MORE = "more"  # the active seat may add a card (legal after illegal, triple after single)
ENDING = "ending"  # the turn is over, its loss and draw follow (never seen between actions)
CHOOSE = "choose"  # the active seat must choose its end-of-turn loss
OVER = "over"  # the hand ended: seats reveal, then the hand is scored


def card(card_id: str) -> CardType:
    """The catalog entry of ``card_id`` (KeyError for an unknown id)."""
    return catalog("illegal").by_id(card_id)


def card_ids() -> tuple[str, ...]:
    return catalog("illegal").ids()


def kind(card_id: str) -> str:
    return card(card_id).kind


def value(card_id: str) -> int:
    return card(card_id).value


def label(card_id: str) -> str:
    return card(card_id).label("en")


def is_business(card_id: str) -> bool:
    return kind(card_id) in ("legal_business", "illegal_business")


@dataclass(frozen=True)
class Options:
    """The game's options, normalised (see ``illegal.default_options``)."""

    dealer: int
    match_to: int
    draw: str  # "one" | "refill"
    hassle_leaves: str  # "end_of_turn" | "at_once"
    magnum_restores_hassle: bool


@dataclass(frozen=True)
class SeatState:
    name: str
    market_open: bool = False
    hassle: str | None = None
    businesses: tuple[str, ...] = ()
    hand: int = 0
    skips: int = 0
    shown: tuple[str, ...] = ()  # cards of the hand laid open (Tax Inspection)
    revealed: tuple[str, ...] | None = None  # the hand shown after the hand ended
    pending: str | None = None  # a card shown whose targets/choices are still missing


@dataclass(frozen=True)
class Awaiting:
    """A choice the rules leave to ``seat``: ``what`` among ``choices``."""

    seat: int
    what: str  # "lose"
    choices: tuple[str, ...]
    because: str  # the card that causes it


@dataclass(frozen=True)
class Takeover:
    """The last takeover, which a Magnum may still cancel."""

    taker: int
    victim: int
    card: str
    via: str
    hassle: str | None  # the hassle Relatives removed from the taker


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[SeatState, ...]
    hand_no: int
    dealer: int
    turn: int
    phase: str
    turn_done: tuple[str, ...]
    draw_pile: int
    discards: tuple[str, ...] = ()
    awaiting: Awaiting | None = None
    last_takeover: Takeover | None = None
    ended_by: str | None = None
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    match_over: bool = False
    winners: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    def name(self, seat: int) -> str:
        return self.seats[seat].name


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandDealt:
    hand_no: int
    dealer: int
    first: int
    draw_pile: int


@dataclass(frozen=True)
class PlayPending:
    seat: int
    card: str
    needs: str


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: str
    target: int | None = None
    out_of_turn: bool = False


@dataclass(frozen=True)
class CardsDiscarded:
    seat: int
    cards: tuple[str, ...]
    why: str  # "turn" | "bribe"


@dataclass(frozen=True)
class HassleRemoved:
    seat: int
    card: str
    by: str  # a card id, or "empty" when nothing is left for it to take


@dataclass(frozen=True)
class BusinessLost:
    seat: int
    card: str
    why: str  # the card that costs it
    chosen: bool = True  # False: the engine took the cheapest, nobody chose


@dataclass(frozen=True)
class BusinessTaken:
    seat: int
    victim: int
    card: str
    via: str
    hassle: str | None = None


@dataclass(frozen=True)
class TakeoverStood:
    seat: int
    card: str


@dataclass(frozen=True)
class TakeoverCancelled:
    seat: int
    taker: int
    victim: int
    card: str
    hassle_restored: str | None = None


@dataclass(frozen=True)
class SkipsAdded:
    seat: int
    turns: int


@dataclass(frozen=True)
class CardsPassed:
    by: int  # the seat whose paranoia card made everyone pass


@dataclass(frozen=True)
class HandShown:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TurnEnded:
    seat: int


@dataclass(frozen=True)
class LossRequested:
    seat: int
    hassle: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class CardDrawn:
    seat: int
    count: int


@dataclass(frozen=True)
class TurnSkipped:
    seat: int


@dataclass(frozen=True)
class TurnStarted:
    seat: int


@dataclass(frozen=True)
class HandEnded:
    why: str  # "day_of_accounting" | "draw_pile_empty" | "hand_empty"
    seat: int


@dataclass(frozen=True)
class HandRevealed:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class HandScored:
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    match_over: bool
    winners: tuple[int, ...]


EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        HandDealt,
        PlayPending,
        CardPlayed,
        CardsDiscarded,
        HassleRemoved,
        BusinessLost,
        BusinessTaken,
        TakeoverStood,
        TakeoverCancelled,
        SkipsAdded,
        CardsPassed,
        HandShown,
        TurnEnded,
        LossRequested,
        CardDrawn,
        TurnSkipped,
        TurnStarted,
        HandEnded,
        HandRevealed,
        HandScored,
    )
}


# --- fold ------------------------------------------------------------------------------


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
    )


def _played(state: State, e: CardPlayed) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, hand=s.hand - 1, pending=None, shown=_without(s.shown, e.card))
    if e.card == "magnum":  # a Magnum shown but not placed waits on no one any more
        state = replace(
            state,
            seats=tuple(
                replace(x, pending=None) if x.pending == "magnum" else x for x in state.seats
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
        phase = MORE if k == "illegal_business" else state.phase
        state = replace(state, turn_done=state.turn_done + (k,), phase=phase)
    return state


def _discarded(state: State, e: CardsDiscarded) -> State:
    hand = state.seats[e.seat].hand - len(e.cards)
    state = _seat(state, e.seat, hand=hand, pending=None)  # a discard drops a shown play
    state = replace(state, discards=state.discards + e.cards)
    if e.why != "turn":
        return state
    done = ("single",) if len(e.cards) == 1 else ("triple",)
    return replace(state, turn_done=state.turn_done + done, phase=MORE)


def _hassle_removed(state: State, e: HassleRemoved) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, hassle=None, shown=() if e.card == "tax_inspection" else s.shown)
    return replace(state, discards=state.discards + (e.card,))


def _lost(state: State, e: BusinessLost) -> State:
    s = state.seats[e.seat]
    state = _seat(state, e.seat, businesses=_without(s.businesses, e.card))
    state = replace(state, discards=state.discards + (e.card,))
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


def _scored(state: State, e: HandScored) -> State:
    return replace(
        state,
        scores=e.scores,
        totals=e.totals,
        history=state.history + (e.scores,),
        match_over=e.match_over,
        winners=e.winners,
    )


_FOLD: dict[type, Callable[[State, Any], State]] = {
    HandDealt: _dealt,
    PlayPending: lambda st, e: _seat(st, e.seat, pending=e.card),
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
        seats=tuple(replace(s, pending=None) for s in st.seats),
    ),
    HandRevealed: lambda st, e: _seat(st, e.seat, revealed=e.cards),
    HandScored: _scored,
}


def apply(state: State, event: Any, describe: Callable[[State, Any], str | None]) -> State:
    """Fold one event; ``describe`` adds its human sentence to ``state.notes``."""
    fold = _FOLD.get(type(event))
    if fold is None:
        raise TypeError(f"illegal: unknown event {event!r}")
    note = describe(state, event)
    state = fold(state, event)
    if note:
        state = replace(state, notes=(state.notes + (note,))[-NOTES_KEPT:])
    return state
