"""Illegal: ``decide`` — an action in, the events it causes out (or ``IllegalAction``).

``decide`` parses the action (``actions.ACTIONS``) and hands it to its handler
(``_HANDLERS``, by action class); every handler is ``(state, action, now) -> events``.
Inside, an ``Emitter`` folds each event as it is emitted, so later steps see the effects
of earlier ones (a play, then the end of the turn, its loss, the draw, the next seat's
turn; ``turns``). A play missing a target or choice becomes a pending play
(``PlayPending``); the same seat playing the same card with the missing keys completes
it. ``outcome`` and ``next_deadline`` answer the engine's other queries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.actions import Deadline, GameAction
from companion.games.base import IllegalAction, Outcome, require
from companion.games.frozen import replace
from companion.games.illegal.accounting import hand_scores, settle
from companion.games.illegal.actions import (
    ACTIONS,
    Cancel,
    Deal,
    Discard,
    DiscardCard,
    EndTurn,
    Lose,
    MagnumShown,
    Play,
    Reveal,
    RevealCard,
    Show,
    ShowCard,
    Trade,
)
from companion.games.illegal.deck import label
from companion.games.illegal.events import (
    BusinessLost,
    CardsTraded,
    DiscardGathered,
    Event,
    HandDealt,
    HandEnded,
    HandRevealed,
    HandScored,
    HandShown,
    LossConfirmed,
    MoveCancelled,
    MoveWaits,
    TakeoverStood,
)
from companion.games.illegal.events import MagnumShown as MagnumSeen
from companion.games.illegal.fold import Emit, emitter
from companion.games.illegal.legality import (
    OVER_NOW,
    card_reason,
    cards_reason,
    discard_reason,
    empty_handed,
    loss_choices,
    open_hand_reason,
    revealed_reason,
    seat_reason,
)
from companion.games.illegal.plays import play, with_given
from companion.games.illegal.state import (
    CHOOSE,
    DEALT_PILE,
    HAND_SIZE,
    MORE,
    OVER,
    TURN,
    State,
)
from companion.games.illegal.turns import (
    book_discard,
    continue_turn_end,
    finish_turn,
    flush_gathered,
    lose_cheapest,
    turn_goes_on,
)

NOTHING_TO_CANCEL = "Nothing to cancel: no unfinished play, discard or Magnum"


def outcome(state: State) -> Outcome | None:
    """The hand's (or the match's) result once every seat revealed its hand."""
    if state.scores is None:
        return None
    return Outcome.of(
        state.winners,
        {
            "scores": list(state.scores),
            "match": list(state.totals),
            "hand": state.hand_no,
            "match_over": state.match_over,
            "match_to": state.options.match_to,
            "hands": [list(h) for h in state.history],
        },
    )


def next_deadline(state: State) -> float | None:
    """When an unfinished move is called off (option ``move_timeout_s``; else never)."""
    timeout = state.options.move_timeout_s
    if timeout <= 0 or state.waiting_since is None or state.phase == OVER:
        return None
    return state.waiting_since + timeout


def decide(state: State, action: Mapping[str, Any] | GameAction, now: float) -> list[Event]:
    """The events ``action`` causes in ``state``; raises ``IllegalAction`` with a reason."""
    act = ACTIONS.parse(action)
    return _HANDLERS[type(act)](state, act, now)


# --- what every seat action shares ---------------------------------------------------


def _seat(state: State, seat: int | None) -> int:
    """``seat`` checked against the table (the parser bounds it by the largest table)."""
    require(seat is not None, "Choose the player first")
    assert seat is not None
    reason = seat_reason(state, seat)
    require(reason is None, reason or "")
    return seat


def prepare(state: State, seat: int, *, kind: str, magnum: bool = False) -> Emit:
    """An emitter for ``seat``'s action during the hand, after settling what the previous
    action left open (``kind`` is the action's name); ``moves`` judges in its state too."""
    require(state.phase != OVER, OVER_NOW)
    f = emitter(state)
    st = f.state
    if st.last_takeover is not None and not magnum:
        f.emit(TakeoverStood(st.last_takeover.taker, st.last_takeover.card))
    if f.state.gathered and kind != DiscardCard.do and not magnum:
        flush_gathered(f)
    active = f.state.seats[f.state.turn]
    if active.pending and active.pending != "magnum" and seat != f.state.turn and not magnum:
        raise IllegalAction(
            f"Waiting for {f.state.name(f.state.turn)} to complete the {label(active.pending)}"
            " (its target or choice) on their phone"
        )
    if f.state.phase == MORE and seat != f.state.turn and not magnum:
        finish_turn(f)  # the next seat acting ends an open turn
    _loss_first(f, seat, kind=kind, magnum=magnum)
    return f


def _loss_first(f: Emit, seat: int, *, kind: str, magnum: bool) -> None:
    """While a loss waits for its victim only the victim's choice goes on; with
    ``unchosen_loss: "cheapest"`` (format 1) another player acting takes the cheapest."""
    awaiting = f.state.awaiting
    if f.state.phase != CHOOSE or awaiting is None:
        return
    if kind == Lose.do and seat == awaiting.seat:
        return
    choices = ", ".join(label(c) for c in awaiting.choices)
    if seat == awaiting.seat:
        raise IllegalAction(f"Your turn is over: first choose which business you lose ({choices})")
    if f.state.options.unchosen_loss == "cheapest":
        lose_cheapest(f)
        return
    if magnum:
        return
    raise IllegalAction(
        f"Waiting for {f.state.name(awaiting.seat)} to choose which business the "
        f"{label(awaiting.because)} takes ({choices}); it is their choice. Then go on"
    )


def _end(f: Emit, now: float) -> list[Event]:
    """The events, with the moment an unfinished move started waiting."""
    if f.state.unfinished() and f.state.waiting_since is None:
        f.emit(MoveWaits(now))
    return f.events


# --- the handlers ----------------------------------------------------------------------


def _play(state: State, action: Play, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    f = prepare(state, seat, kind=Play.do, magnum=action.card == "magnum")
    s = f.state.seats[seat]
    if s.pending == action.card and state.options.pending_keys is None:
        action = with_given(action, s.pending_given)  # the keys given before still hold
    if not play(f, action):
        return _end(f, now)
    if f.state.phase == OVER or action.card == "magnum":
        return _end(f, now)  # the Magnum is never the turn's card
    if action.card == "bribe" and state.options.bribe_extra:
        return _end(f, now)  # nor is the Bribe (except in format 1)
    if not turn_goes_on(f.state):
        finish_turn(f)
    return _end(f, now)


def _discard(state: State, action: Discard, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    f = prepare(state, seat, kind=Discard.do)
    reason = discard_reason(f.state, seat, action.cards)
    require(reason is None, reason or "")
    book_discard(f, seat, action.cards)
    return _end(f, now)


def _discard_card(state: State, action: DiscardCard, now: float) -> list[Event]:
    """One card laid in the discard zone: booked as a single discard, or gathered until
    three identical cards make a triple (a different card, any other action or the end
    of the turn books a gathered single card)."""
    seat = _seat(state, action.seat)
    f = prepare(state, seat, kind=DiscardCard.do)
    card_id = action.card
    if f.state.gathered and card_id != f.state.gathered[0]:
        flush_gathered(f)
    st = f.state
    bare = replace(st, gathered=())
    cards = st.gathered + (card_id,)
    single = discard_reason(bare, seat, cards) if len(cards) == 1 else "two"
    triple = discard_reason(bare, seat, (card_id,) * 3)
    if single is not None and triple is not None:
        raise IllegalAction(triple if single == "two" else single)
    f.emit(DiscardGathered(seat, card_id))
    if len(cards) == 3 or triple is not None:
        flush_gathered(f)
    return _end(f, now)


def _lose(state: State, action: Lose, now: float) -> list[Event]:
    """The victim's choice of the business an end-of-turn Raid / Protection Money takes.

    It may come while the turn is still open (it ends the turn), while the loss waits,
    or after the engine took the only possible business (then it confirms that one).
    """
    seat = _seat(state, action.seat)
    f = prepare(state, seat, kind=Lose.do)
    card_id = action.card
    st = f.state
    if st.phase == MORE and seat == st.turn and loss_choices(st, seat):
        finish_turn(f)
    if f.state.forced_loss == (seat, card_id) and f.state.phase != CHOOSE:
        f.emit(LossConfirmed(seat, card_id))
        return _end(f, now)
    awaiting = f.state.awaiting
    require(
        f.state.phase == CHOOSE and awaiting is not None,
        "Nothing to lose now: a Raid or Protection Money takes a business at the end of "
        "its victim's turn",
    )
    assert awaiting is not None
    require(
        seat == awaiting.seat,
        f"The choice is {f.state.name(awaiting.seat)}'s: the {label(awaiting.because)} "
        "takes one of their businesses",
    )
    require(
        card_id in awaiting.choices,
        f"The {label(awaiting.because)} takes one of "
        f"{', '.join(label(c) for c in awaiting.choices)}; not {label(card_id)}",
    )
    f.emit(BusinessLost(seat, card_id, awaiting.because))
    continue_turn_end(f)
    return _end(f, now)


def trade_reason(st: State, seat: int, other: int, give: int, got: int) -> str | None:
    """Why ``seat`` may not give ``give`` cards to ``other`` and get ``got`` back now."""
    if st.phase == OVER:
        return OVER_NOW
    if seat != st.turn:
        return f"Trade only on your own turn: it is {st.name(st.turn)}'s turn"
    if st.phase not in (TURN, MORE):
        return "Your turn is over: trade on your next turn"
    if other == seat:
        return "Trade with another player, not with yourself"
    if give < 1:
        return "Give your trading partner at least one card (the rules ask for one)"
    me, them = st.seats[seat], st.seats[other]
    if give > me.hand:
        return f"You hold only {me.hand} card(s): you cannot give {give}"
    if got > them.hand:
        return f"{them.name} holds only {them.hand} card(s): not {got}"
    if them.hand + give - got < 1:
        return f"{them.name} would hold no card: a player needs a card to play on their turn"
    if st.phase != MORE and me.hand - give + got < 1:
        return "Keep at least one card: you must still play or discard a card this turn"
    return None


def _trade(state: State, action: Trade, now: float) -> list[Event]:
    """A trade (Tausch) on the trading seat's turn: it gives ``give`` cards to its partner
    and gets ``got`` back (uneven trades allowed; at least one card given)."""
    seat = _seat(state, action.seat)
    other = _seat(state, action.with_)
    f = prepare(state, seat, kind=Trade.do)
    reason = trade_reason(f.state, seat, other, action.give, action.get_)
    require(reason is None, reason or "")
    f.emit(CardsTraded(seat, other, action.give, action.get_))
    return _end(f, now)


def _end_turn(state: State, action: EndTurn, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    f = prepare(state, seat, kind=EndTurn.do)
    st = f.state
    require(seat == st.turn, f"It is {st.name(st.turn)}'s turn, not {st.name(seat)}'s")
    if empty_handed(st, seat):  # nothing to play or discard (docs/rules/illegal.md, 3b)
        if st.options.empty_hand == "ends":
            f.emit(HandEnded("hand_empty", seat))
        else:
            finish_turn(f)
        return _end(f, now)
    require(st.phase == MORE, "Play or discard a card first: every turn needs one")
    finish_turn(f)
    return _end(f, now)


def _magnum_shown(state: State, action: MagnumShown, now: float) -> list[Event]:
    """A Magnum in the play zone: nobody is booked yet; its player claims it."""
    require(state.phase != OVER, OVER_NOW)
    require(not state.unclaimed, "A Magnum is already waiting for its player to claim it")
    reason = card_reason(state, state.turn, "magnum")
    require(reason is None, reason or "")
    require(
        "magnum" not in state.discards,
        "The deck's one Magnum lies in the discard pile already: check the card (a misread tag?)",
    )
    f = emitter(state)
    f.emit(MagnumSeen())
    return _end(f, now)


def cancel_events(st: State, seat: int | None) -> list[Event]:
    """Calling off unfinished moves: ``seat``'s shown play (and, on its turn, the cards on
    the discard zone), or without ``seat`` every one (and an unclaimed Magnum)."""
    out: list[Event] = []
    for i in range(st.n) if seat is None else (seat,):
        pending = st.seats[i].pending
        if pending:
            out.append(MoveCancelled(i, "pending", (pending,)))
    if st.gathered and seat in (None, st.turn):
        out.append(MoveCancelled(st.turn, "gathered", st.gathered))
    if st.unclaimed and seat is None:
        out.append(MoveCancelled(None, "magnum"))
    return out


def _cancel(state: State, action: Cancel, now: float) -> list[Event]:
    seat = None if action.seat is None else _seat(state, action.seat)
    events = cancel_events(state, seat)
    require(bool(events), NOTHING_TO_CANCEL)
    return events


def _timeout(state: State, action: Deadline, now: float) -> list[Event]:
    """The unfinished move waited too long: a single card on the discard zone is booked
    (it is a complete discard), everything else is called off."""
    f = emitter(state)
    if len(state.gathered) == 1:
        reason = discard_reason(replace(state, gathered=()), state.turn, state.gathered)
        if reason is None:
            flush_gathered(f)
    f.emit(*cancel_events(f.state, None))
    require(bool(f.events), NOTHING_TO_CANCEL)
    return f.events


def _check_cards(st: State, seat: int, cards: tuple[str, ...]) -> None:
    """No more copies of a card than the deck has (``seat``'s own shown cards aside)."""
    reason = cards_reason(st, seat, cards)
    require(reason is None, reason or "")


def _show(state: State, action: Show, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    if state.options.show == "part_ends_turn":
        return _show_v1(state, seat, action.hand, now)
    s = state.seats[seat]
    reason = open_hand_reason(state, seat)
    require(reason is None, reason or "")
    cards = action.hand
    require(
        len(cards) == s.hand,
        f"{s.name} holds {s.hand} cards: lay all of them open (you entered {len(cards)})",
    )
    _check_cards(state, seat, cards)
    return [HandShown(seat, cards)]


def _show_v1(state: State, seat: int, cards: tuple[str, ...], now: float) -> list[Event]:
    """Records of format 1 (option ``show: "part_ends_turn"``): the cards listed may be part
    of the hand, and the line settles what the previous one left open, as any line does."""
    f = prepare(state, seat, kind=Show.do)
    s = f.state.seats[seat]
    reason = open_hand_reason(f.state, seat)
    require(reason is None, reason or "")
    require(len(cards) <= s.hand, f"{s.name} holds only {s.hand} cards")
    _check_cards(f.state, seat, cards)
    f.emit(HandShown(seat, cards))
    return _end(f, now)


def _show_card(state: State, action: ShowCard, now: float) -> list[Event]:
    """The events of ``ShowCard`` (its docstring says what it is)."""
    seat = _seat(state, action.seat)
    s = state.seats[seat]
    reason = open_hand_reason(state, seat)
    require(reason is None, reason or "")
    require(
        len(s.shown) < s.hand,
        f"{s.name}'s open hand already shows all {s.hand} cards: to start again, enter it "
        "on the phone",
    )
    cards = s.shown + (action.card,)
    _check_cards(state, seat, cards)
    return [HandShown(seat, cards)]


def _revealed(state: State, seat: int, cards: tuple[str, ...], *, whole: bool) -> list[Event]:
    """``seat`` reveals ``cards`` (its ``whole`` hand, or the cards shown so far)."""
    reason = revealed_reason(state, seat, cards, whole=whole)
    require(reason is None, reason or "")
    f = emitter(state)
    f.emit(HandRevealed(seat, cards))
    if all(x.revealed is not None and len(x.revealed) == x.hand for x in f.state.seats):
        scores = hand_scores(f.state)
        totals, over, winners = settle(f.state, scores)
        f.emit(HandScored(scores, totals, over, winners))
    return f.events


def _reveal(state: State, action: Reveal, now: float) -> list[Event]:
    return _revealed(state, _seat(state, action.seat), action.hand, whole=True)


def _reveal_card(state: State, action: RevealCard, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    cards = (state.seats[seat].revealed or ()) + (action.card,)
    return _revealed(state, seat, cards, whole=False)


def deal_reason(st: State) -> str | None:
    """Why the next hand may not be dealt now, or None."""
    if st.phase != OVER:
        return "The hand is still being played: finish it before dealing"
    if st.scores is None:
        missing = [s.name for s in st.seats if s.revealed is None or len(s.revealed) < s.hand]
        return f"Reveal every hand first: {', '.join(missing)} still to show"
    if st.options.match_to <= 0:
        return "This game was a single hand: start a new game to play another"
    if st.match_over:
        return "The match is over: start a new game to play again"
    return None


def _deal(state: State, action: Deal, now: float) -> list[Event]:
    """Start the next hand of a match; the dealer moves one seat clockwise."""
    reason = deal_reason(state)
    require(reason is None, reason or "")
    dealer = (state.dealer + 1) % state.n
    return [HandDealt(state.hand_no + 1, dealer, (dealer + 1) % state.n,
                      DEALT_PILE - HAND_SIZE * state.n)]


Handler = Callable[[State, Any, float], list[Event]]

_HANDLERS: dict[type[GameAction], Handler] = {
    Play: _play,
    Discard: _discard,
    DiscardCard: _discard_card,
    Lose: _lose,
    EndTurn: _end_turn,
    Trade: _trade,
    MagnumShown: _magnum_shown,
    Cancel: _cancel,
    Show: _show,
    ShowCard: _show_card,
    Reveal: _reveal,
    RevealCard: _reveal_card,
    Deal: _deal,
    Deadline: _timeout,
}
