"""Illegal: ``decide`` — an action in, the events it causes out (or ``IllegalAction``).

An ``Emitter`` folds each event as it is emitted, so later steps see the effects of
earlier ones (a play, then the end of the turn, its loss, the draw, the next seat's
turn). A play missing a target or choice becomes a pending play (``PlayPending``); the
same seat playing the same card with the missing keys completes it. ``start``,
``outcome`` and ``next_deadline`` answer the engine's other queries.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.base import Action, IllegalAction, Outcome, Setup, get_int, get_str, require
from companion.games.illegal.accounting import hand_scores, settle
from companion.games.illegal.deck import card, card_ids, label, value
from companion.games.illegal.events import (
    BusinessLost,
    CardDrawn,
    CardsDiscarded,
    Event,
    HandDealt,
    HandEnded,
    HandRevealed,
    HandScored,
    HandShown,
    LossRequested,
    TakeoverStood,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from companion.games.illegal.fold import Emit, apply, emitter
from companion.games.illegal.legality import availability_reason, discard_reason, loss_choices
from companion.games.illegal.plays import lift_if_empty, play
from companion.games.illegal.state import (
    CHOOSE,
    DEALT_PILE,
    HAND_SIZE,
    MORE,
    OVER,
    SeatState,
    State,
    parse_options,
)


def start(setup: Setup) -> State:
    """The first hand dealt: 7 cards each, the seat left of the dealer starts."""
    opts = parse_options(setup)
    n = setup.n_seats
    blank = State(
        options=opts,
        seats=tuple(SeatState(name=s) for s in setup.seats),
        hand_no=0,
        dealer=opts.dealer,
        turn=0,
        phase=OVER,
        turn_done=(),
        draw_pile=0,
        totals=tuple(0 for _ in range(n)),
    )
    first = (opts.dealer + 1) % n
    state = apply(blank, HandDealt(1, opts.dealer, first, DEALT_PILE - HAND_SIZE * n))
    return apply(state, TurnStarted(first))


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
    return None  # Illegal has no timed rule


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes in ``state``; raises ``IllegalAction`` with a reason."""
    do = get_str(action, "do", tuple(_HANDLERS) + ("deal",))
    f = emitter(state)
    if do == "deal":
        deal(f)
        return f.events
    seat = get_int(action, "seat", lo=0, hi=state.n - 1)
    if do in ("reveal", "reveal_card"):
        _HANDLERS[do](f, seat, action)
        return f.events
    require(state.phase != OVER, "The hand is over: reveal your hand, then deal the next hand")
    _prepare(f, seat, do, action)
    _HANDLERS[do](f, seat, action)
    return f.events


def _prepare(f: Emit, seat: int, do: str, action: Action) -> None:
    """Settle what the previous action left open before ``seat`` acts."""
    magnum = do == "play" and action.get("card") == "magnum"
    st = f.state
    if st.last_takeover is not None and not magnum:
        f.emit(TakeoverStood(st.last_takeover.taker, st.last_takeover.card))
    active = f.state.seats[f.state.turn]
    if active.pending and active.pending != "magnum" and seat != f.state.turn and not magnum:
        raise IllegalAction(
            f"Waiting for {f.state.name(f.state.turn)} to complete the {label(active.pending)}"
            " (its target or choice) on their phone"
        )
    if f.state.phase == MORE and seat != f.state.turn and not magnum:
        finish_turn(f)  # the next seat acting ends an open turn
    if f.state.phase == CHOOSE and not (do == "lose" and seat == f.state.turn):
        if seat == f.state.turn and f.state.awaiting is not None:
            choices = ", ".join(label(c) for c in f.state.awaiting.choices)
            raise IllegalAction(
                f"Your turn is over: first choose which business you lose ({choices})"
            )
        auto_lose(f)


def finish_turn(f: Emit) -> None:
    """End the active seat's turn: its hassle's loss, then the draw and the next turn."""
    seat = f.state.turn
    f.emit(TurnEnded(seat))
    hassle = f.state.seats[seat].hassle
    choices = loss_choices(f.state, seat)
    if hassle is not None and len(choices) > 1:
        f.emit(LossRequested(seat, hassle, choices))
        return
    if hassle is not None and choices:
        f.emit(BusinessLost(seat, choices[0], hassle))
    continue_turn_end(f)


def auto_lose(f: Emit) -> None:
    """Nobody chose the end-of-turn loss: take the cheapest eligible business, say so."""
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


def _play(f: Emit, seat: int, action: Action) -> None:
    card_id = get_str(action, "card", card_ids())
    done = play(f, seat, card_id, action)
    if not done:
        return
    if f.state.phase == OVER or card_id == "magnum":
        return
    if card(card_id).kind == "illegal_business" and "legal_business" not in f.state.turn_done:
        return  # the turn stays open for a legal business
    finish_turn(f)


def _cards(action: Action, key: str) -> tuple[str, ...]:
    raw = action.get(key)
    if not isinstance(raw, list | tuple) or not all(isinstance(c, str) for c in raw):
        raise IllegalAction(f"'{key}' must be a list of card ids, got {raw!r}")
    unknown = [c for c in raw if c not in card_ids()]
    require(not unknown, f"Unknown card id(s) {', '.join(unknown)}: use the ids of the catalog")
    return tuple(raw)


def _discard(f: Emit, seat: int, action: Action) -> None:
    cards = _cards(action, "cards")
    reason = discard_reason(f.state, seat, cards)
    require(reason is None, reason or "")
    f.emit(CardsDiscarded(seat, cards, "turn"))
    if f.state.seats[seat].hand == 0:
        f.emit(HandEnded("hand_empty", seat))
    elif "single" in f.state.turn_done and "triple" in f.state.turn_done:
        finish_turn(f)


def _lose(f: Emit, seat: int, action: Action) -> None:
    awaiting = f.state.awaiting
    require(
        f.state.phase == CHOOSE and awaiting is not None,
        "Nothing to lose now: a Raid or Protection Money takes a business at the end of "
        "its victim's turn",
    )
    assert awaiting is not None
    card_id = get_str(action, "card", card_ids())
    require(
        card_id in awaiting.choices,
        f"The {label(awaiting.because)} takes one of "
        f"{', '.join(label(c) for c in awaiting.choices)}; not {label(card_id)}",
    )
    f.emit(BusinessLost(seat, card_id, awaiting.because))
    continue_turn_end(f)


def _end_turn(f: Emit, seat: int, action: Action) -> None:
    st = f.state
    require(seat == st.turn, f"It is {st.name(st.turn)}'s turn, not {st.name(seat)}'s")
    require(st.phase == MORE, "Play or discard a card first: every turn needs one")
    finish_turn(f)


def _show(f: Emit, seat: int, action: Action) -> None:
    st = f.state
    require(
        st.seats[seat].hassle == "tax_inspection",
        "Only a seat under Tax Inspection lays its hand open",
    )
    cards = _cards(action, "hand")
    require(
        len(cards) <= st.seats[seat].hand,
        f"{st.name(seat)} holds only {st.seats[seat].hand} cards",
    )
    for c in set(cards):
        reason = availability_reason(st, c, extra=cards.count(c), seat=seat)
        require(reason is None, reason or "")
    f.emit(HandShown(seat, cards))


def _check_reveal(st: State, seat: int, cards: tuple[str, ...]) -> None:
    s = st.seats[seat]
    for c in set(cards):
        reason = availability_reason(st, c, extra=cards.count(c), seat=seat)
        require(reason is None, reason or "")
    require(len(cards) <= s.hand, f"{s.name} holds {s.hand} cards; reveal exactly {s.hand}")


def _reveal(f: Emit, seat: int, action: Action) -> None:
    st = f.state
    require(st.phase == OVER, "Hands are revealed only after the hand ended")
    s = st.seats[seat]
    require(
        s.revealed is None or len(s.revealed) < s.hand or s.hand == 0,
        f"{s.name} revealed their hand already",
    )
    if action.get("do") == "reveal":
        cards = _cards(action, "hand")
        require(len(cards) == s.hand, f"{s.name} holds {s.hand} cards; reveal exactly {s.hand}")
    else:
        cards = (s.revealed or ()) + (get_str(action, "card", card_ids()),)
    _check_reveal(st, seat, cards)
    f.emit(HandRevealed(seat, cards))
    if all(x.revealed is not None and len(x.revealed) == x.hand for x in f.state.seats):
        scores = hand_scores(f.state)
        totals, over, winners = settle(f.state, scores)
        f.emit(HandScored(scores, totals, over, winners))


def deal(f: Emit) -> None:
    """Start the next hand of a match; the dealer moves one seat clockwise."""
    st = f.state
    require(st.phase == OVER, "The hand is still being played: finish it before dealing")
    if st.scores is None:
        missing = [s.name for s in st.seats if s.revealed is None or len(s.revealed) < s.hand]
        raise IllegalAction(f"Reveal every hand first: {', '.join(missing)} still to show")
    require(
        st.options.match_to > 0,
        "This game was a single hand (match_to 0): start a new game to play another",
    )
    require(not st.match_over, "The match is over: start a new game to play again")
    dealer = (st.dealer + 1) % st.n
    f.emit(HandDealt(st.hand_no + 1, dealer, (dealer + 1) % st.n, DEALT_PILE - HAND_SIZE * st.n))


_HANDLERS: dict[str, Callable[[Emit, int, Action], None]] = {
    "play": _play,
    "discard": _discard,
    "lose": _lose,
    "end_turn": _end_turn,
    "show": _show,
    "reveal": _reveal,
    "reveal_card": _reveal,
}
