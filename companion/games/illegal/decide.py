"""Illegal: ``decide`` — an action in, the events it causes out (or ``IllegalAction``).

An ``Emitter`` folds each event as it is emitted, so later steps see the effects of
earlier ones (a play, then the end of the turn, its loss, the draw, the next seat's
turn). A play missing a target or choice becomes a pending play (``PlayPending``); the
same seat playing the same card with the missing keys completes it. ``start``,
``outcome`` and ``next_deadline`` answer the engine's other queries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.games.base import (
    DEADLINE,
    Action,
    IllegalAction,
    Outcome,
    Setup,
    get_int,
    get_str,
    require,
)
from companion.games.illegal.accounting import hand_scores, settle
from companion.games.illegal.deck import card_ids, label
from companion.games.illegal.events import (
    BusinessLost,
    CardDrawn,
    CardsDiscarded,
    CardsTraded,
    DiscardGathered,
    Event,
    HandDealt,
    HandEnded,
    HandRevealed,
    HandScored,
    HandShown,
    LossConfirmed,
    LossRequested,
    MagnumShown,
    MoveCancelled,
    MoveWaits,
    TakeoverStood,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from companion.games.illegal.fold import Emit, apply, emitter
from companion.games.illegal.legality import (
    availability_reason,
    card_reason,
    discard_reason,
    loss_choices,
    turn_cards,
)
from companion.games.illegal.plays import lift_if_empty, play
from companion.games.illegal.state import (
    CHOOSE,
    DEALT_PILE,
    HAND_SIZE,
    MORE,
    OVER,
    TURN,
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
    """When an unfinished move is called off (option ``move_timeout_s``; else never)."""
    timeout = state.options.move_timeout_s
    if timeout <= 0 or state.waiting_since is None or state.phase == OVER:
        return None
    return state.waiting_since + timeout


def _timeout(f: Emit) -> None:
    """The unfinished move waited too long: a single card on the discard zone is booked
    (it is a complete discard), everything else is called off."""
    st = f.state
    if len(st.gathered) == 1:
        reason = discard_reason(replace(st, gathered=()), st.turn, st.gathered)
        if reason is None:
            flush_gathered(f)
    _cancel(f, {})


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes in ``state``; raises ``IllegalAction`` with a reason."""
    do = get_str(action, "do", tuple(_HANDLERS) + ("deal", "magnum_shown", "cancel", DEADLINE))
    f = emitter(state)
    if do == DEADLINE:
        _timeout(f)
        return f.events
    if do == "deal":
        deal(f)
        return f.events
    if do == "magnum_shown":
        _magnum_shown(f)
    elif do == "cancel":
        _cancel(f, action)
    else:
        _act(f, do, action)
    if f.state.unfinished() and f.state.waiting_since is None:
        f.emit(MoveWaits(now))
    return f.events


def _act(f: Emit, do: str, action: Action) -> None:
    state = f.state
    seat = get_int(action, "seat", lo=0, hi=state.n - 1)
    if do in ("reveal", "reveal_card", "show", "show_card"):  # never waits, never ends a turn
        _HANDLERS[do](f, seat, action)
        return
    require(state.phase != OVER, "The hand is over: reveal your hand, then deal the next hand")
    _prepare(f, seat, do, action)
    _HANDLERS[do](f, seat, action)


def _prepare(f: Emit, seat: int, do: str, action: Action) -> None:
    """Settle what the previous action left open before ``seat`` acts."""
    magnum = do == "play" and action.get("card") == "magnum"
    st = f.state
    if st.last_takeover is not None and not magnum:
        f.emit(TakeoverStood(st.last_takeover.taker, st.last_takeover.card))
    if f.state.gathered and do != "discard_card" and not magnum:
        flush_gathered(f)
    active = f.state.seats[f.state.turn]
    if active.pending and active.pending != "magnum" and seat != f.state.turn and not magnum:
        raise IllegalAction(
            f"Waiting for {f.state.name(f.state.turn)} to complete the {label(active.pending)}"
            " (its target or choice) on their phone"
        )
    if f.state.phase == MORE and seat != f.state.turn and not magnum:
        finish_turn(f)  # the next seat acting ends an open turn
    awaiting = f.state.awaiting
    if f.state.phase == CHOOSE and awaiting is not None and not magnum:
        if do == "lose" and seat == awaiting.seat:
            return
        choices = ", ".join(label(c) for c in awaiting.choices)
        if seat == awaiting.seat:
            raise IllegalAction(
                f"Your turn is over: first choose which business you lose ({choices})"
            )
        raise IllegalAction(
            f"Waiting for {f.state.name(awaiting.seat)} to choose which business the "
            f"{label(awaiting.because)} takes ({choices}); it is their choice. Then go on"
        )


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
    s = f.state.seats[seat]
    if s.pending == card_id:  # completing a shown card: the keys given before still hold
        action = {**dict(s.pending_given), **{k: v for k, v in action.items() if v is not None}}
    done = play(f, seat, card_id, action)
    if not done:
        return
    if f.state.phase == OVER or card_id in ("magnum", "bribe"):
        return  # neither the Magnum nor the Bribe is the turn's card
    if not _turn_goes_on(f.state):
        finish_turn(f)


def _turn_goes_on(st: State) -> bool:
    """Whether the active seat may still add a card (a legal business to an illegal one,
    or the other way round; with ``legal_extra: "any"`` to any card)."""
    seat = st.turn
    if st.seats[seat].hand < 1:
        return False
    main, legal = turn_cards(st)
    any_card = st.options.legal_extra == "any"
    if main and not legal:
        joins = any_card or main[0] == "illegal_business"
        return joins and card_reason(st, seat, "tropical_fish") is None
    if legal and not main:
        return any_card or card_reason(st, seat, "gambling") is None
    return False


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
    _book_discard(f, seat, cards)


def _discard_card(f: Emit, seat: int, action: Action) -> None:
    """One card laid in the discard zone: booked as a single discard, or gathered until
    three identical cards make a triple (a different card, any other action or the end
    of the turn books a gathered single card)."""
    card_id = get_str(action, "card", card_ids())
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
    _book_discard(f, seat, cards)


def _book_discard(f: Emit, seat: int, cards: tuple[str, ...]) -> None:
    f.emit(CardsDiscarded(seat, cards, "turn"))
    if f.state.seats[seat].hand == 0:
        f.emit(HandEnded("hand_empty", seat))
    elif "single" in f.state.turn_done and "triple" in f.state.turn_done:
        finish_turn(f)


def _lose(f: Emit, seat: int, action: Action) -> None:
    """The victim's choice of the business an end-of-turn Raid / Protection Money takes.

    It may come while the turn is still open (it ends the turn), while the loss waits,
    or after the engine took the only possible business (then it confirms that one).
    """
    card_id = get_str(action, "card", card_ids())
    st = f.state
    if st.phase == MORE and seat == st.turn and loss_choices(st, seat):
        finish_turn(f)
    if f.state.forced_loss == (seat, card_id) and f.state.phase != CHOOSE:
        f.emit(LossConfirmed(seat, card_id))
        return
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


def _trade(f: Emit, seat: int, action: Action) -> None:
    """A trade (Tausch) on the trading seat's turn: it gives ``give`` cards to ``with``
    and gets ``get`` back (uneven trades allowed; at least one card given)."""
    st = f.state
    other = get_int(action, "with", lo=0, hi=st.n - 1)
    give = get_int(action, "give", lo=0, hi=99)
    got = get_int(action, "get", lo=0, hi=99)
    require(seat == st.turn, f"Trade only on your own turn: it is {st.name(st.turn)}'s turn")
    require(st.phase in (TURN, MORE), "Your turn is over: trade on your next turn")
    require(other != seat, "Trade with another player, not with yourself")
    require(give >= 1, "Give your trading partner at least one card (the rules ask for one)")
    me, them = st.seats[seat], st.seats[other]
    require(give <= me.hand, f"You hold only {me.hand} card(s): you cannot give {give}")
    require(got <= them.hand, f"{them.name} holds only {them.hand} card(s): not {got}")
    require(
        them.hand + give - got >= 1,
        f"{them.name} would hold no card: a player needs a card to play on their turn",
    )
    require(
        st.phase == MORE or me.hand - give + got >= 1,
        "Keep at least one card: you must still play or discard a card this turn",
    )
    f.emit(CardsTraded(seat, other, give, got))


def _magnum_shown(f: Emit) -> None:
    """A Magnum in the play zone: nobody is booked yet; its player claims it."""
    st = f.state
    require(st.phase != OVER, "The hand is over: reveal your hand, then deal the next hand")
    require(not st.unclaimed, "A Magnum is already waiting for its player to claim it")
    reason = card_reason(st, st.turn, "magnum")
    require(reason is None, reason or "")
    require(
        "magnum" not in st.discards,
        "The deck's one Magnum lies in the discard pile already: check the card (a misread tag?)",
    )
    f.emit(MagnumShown())


def _cancel(f: Emit, action: Action) -> None:
    """Call off unfinished moves: ``seat``'s shown play (and, on its turn, the cards on
    the discard zone), or without ``seat`` every one (and an unclaimed Magnum)."""
    st = f.state
    seat = get_int(action, "seat", lo=0, hi=st.n - 1) if action.get("seat") is not None else None
    seats = range(st.n) if seat is None else (seat,)
    for i in seats:
        pending = st.seats[i].pending
        if pending:
            f.emit(MoveCancelled(i, "pending", (pending,)))
    if st.gathered and seat in (None, st.turn):
        f.emit(MoveCancelled(st.turn, "gathered", st.gathered))
    if st.unclaimed and seat is None:
        f.emit(MoveCancelled(None, "magnum"))
    require(bool(f.events), "Nothing to cancel: no unfinished play, discard or Magnum")


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
    require(st.phase != OVER, "The hand is over: reveal your hand instead")
    require(
        len(cards) == st.seats[seat].hand,
        f"{st.name(seat)} holds {st.seats[seat].hand} cards: lay all of them open "
        f"(you entered {len(cards)})",
    )
    for c in set(cards):
        reason = availability_reason(st, c, extra=cards.count(c), seat=seat)
        require(reason is None, reason or "")
    f.emit(HandShown(seat, cards))


def _show_card(f: Emit, seat: int, action: Action) -> None:
    """One card of a Tax Inspection hand, scanned in front of its player."""
    st = f.state
    s = st.seats[seat]
    require(s.hassle == "tax_inspection", "Only a seat under Tax Inspection lays its hand open")
    require(st.phase != OVER, "The hand is over: reveal your hand instead")
    require(
        len(s.shown) < s.hand,
        f"{s.name}'s open hand already shows all {s.hand} cards: to start again, enter it "
        "on the phone",
    )
    cards = s.shown + (get_str(action, "card", card_ids()),)
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
    "discard_card": _discard_card,
    "trade": _trade,
    "lose": _lose,
    "end_turn": _end_turn,
    "show": _show,
    "show_card": _show_card,
    "reveal": _reveal,
    "reveal_card": _reveal,
}
