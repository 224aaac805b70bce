"""The Nasty 7: ``apply(state, event)``, the projector that folds one event into a state.

``_APPLY`` is the fold table (event type -> its function). Besides the table, the fold
keeps ``log`` (the recent lines, in words; the last one is what the host's Undo names), the round's landing times and the latest ``Dispute`` (for the
replay clip), and the state before the last card (so the host can correct that card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from companion.games.frozen import replace
from companion.games.nasty7.events import (
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardLandedUnread,
    CardPlayed,
    CardReassigned,
    CardReplaced,
    CardSeenBeside,
    Event,
    GameEnded,
    LandingNamed,
    MissedCardAdded,
    PenaltyCardsGiven,
    PileSightChanged,
    PileTaken,
    SeenCardSettled,
    WordSet,
)
from companion.games.nasty7.state import (
    FIGURES,
    NAMED_KEPT,
    PHONES,
    TWINS,
    Accusation,
    Dispute,
    Reveal,
    SeenCard,
    State,
    UnreadCard,
    card_phrase,
)
from companion.games.words import listed

#: why a pile was taken, in words ({o}: the offender)
WHY = {
    "hesitation": "{o} hesitated more than {s:g} seconds",
    "wrong_number": "{o} said the wrong number",
    "wrong_word": "{o} said the wrong word",
    "spoke_on_gun": "{o} spoke on a gun",
    "out_of_turn": "{o} played out of turn",
    "played_when_skipping": "{o} played instead of skipping",
    "upheld": "The accusation against {o} was upheld",
    "not_upheld": "The accusation against {o} was not upheld",
}

#: what an accusation alleges, in words (after "of")
ALLEGED = {
    "wrong_number": "a wrong count",
    "wrong_word": "a wrong word",
    "spoke_on_gun": "speaking on a gun",
    "hesitation": "hesitating",
}


#: how many recent lines the state keeps (``State.log``)
MAX_LOG = 12


def apply(state: State, event: Event) -> State:
    """The state after ``event`` (one of ``EVENT_TYPES``), through the fold table."""
    fold = _APPLY.get(type(event))
    if fold is None:
        raise TypeError(f"not a Nasty 7 event: {event!r}")
    after = fold(state, event)
    line = event_sentence(event, state.seats)
    # the log's last line is what Undo takes back: never the camera's notice of the glare
    kept = line and not isinstance(event, PileSightChanged)
    log = (*state.log, line)[-MAX_LOG:] if kept else state.log
    if state.options.seen_one_at_a_time and isinstance(
            event, CardPlayed | MissedCardAdded | PileTaken | GameEnded):
        after = replace(after, seen_beside=())  # records before 3: the next play dropped it
    if isinstance(event, CardPlayed | CardReassigned | CardReplaced | MissedCardAdded
                  | CardSeenBeside | CardLandedUnread | PileSightChanged):
        return replace(after, log=log)
    return replace(after, log=log, before_card=None, last_card=None)


def _apply_seen(state: State, e: CardSeenBeside) -> State:
    """One more card waits for the host's answer (a second one does not replace the first)."""
    seen = SeenCard(e.seat, e.card, e.at, e.serial)
    if state.options.seen_one_at_a_time:  # records before 3: it replaced the one waiting
        return replace(state, seen_beside=(seen,))
    return replace(state, seen_beside=(*state.seen_beside, seen))


def _apply_settled(state: State, e: SeenCardSettled) -> State:
    """The host answered for one waiting card: it leaves the queue."""
    return replace(state, seen_beside=_answered(state.seen_beside, e.which))


def _apply_unread(state: State, e: CardLandedUnread) -> State:
    """One more card that landed unread waits for the host to name it."""
    return replace(state, unread=(*state.unread, UnreadCard(e.seat, e.at)))


def _apply_named(state: State, e: LandingNamed) -> State:
    """The host (or the camera, reading it later) named a card that landed unread, or the
    host said nothing landed: it leaves the queue; a named one's landing time is kept."""
    named = state.named
    if e.card is not None and state.unread:
        at = state.unread[len(state.unread) - 1 if e.which is None else e.which].at
        named = (*named, at)[-NAMED_KEPT:]
    return replace(state, unread=_answered(state.unread, e.which), named=named)


T = TypeVar("T")


def _answered(queue: tuple[T, ...], which: int | None) -> tuple[T, ...]:
    """A queue of cards waiting for the host without the one answered (``which``: its
    place, ``None`` the latest)."""
    at = len(queue) - 1 if which is None else which
    return queue[:at] + queue[at + 1:]


def _apply_missed(state: State, e: MissedCardAdded) -> State:
    card = CardPlayed(e.seat, e.card, e.landed, e.in_turn, e.serial)
    untimed = not e.camera and not state.options.hand_clock  # the host rules on hesitation
    return replace(_apply_card(state, card), timer_from=e.at, untimed=untimed)


def _apply_sight(state: State, e: PileSightChanged) -> State:
    """The camera's view of the pile turned; seeing it whole again starts the clock again
    (a card that landed unseen is read now, if it lies there: it must not come late)."""
    timer = state.timer_from
    if timer is not None and not e.blind and not state.options.glare_clock:
        timer = max(timer, e.at)
    return replace(state, blind=e.blind, timer_from=timer)


def _apply_opened(state: State, e: AccusationOpened) -> State:
    reveal = Reveal(state.figures, "accusation", e.against)
    return replace(state, accusation=Accusation(e.by, e.against, e.kind), reveal=reveal)


def _apply_joined(state: State, e: AccusersJoined) -> State:
    assert state.accusation is not None
    return replace(state, accusation=replace(state.accusation, by=state.accusation.by + e.by))


def _apply_ruled(state: State, e: AccusationRuled) -> State:
    return replace(state, accusation=None, dispute=_accusation_dispute(state, e))


def _apply_withdrawn(state: State, e: AccusationWithdrawn) -> State:
    return replace(state, accusation=None, reveal=None, timer_from=e.at)


def _apply_given(state: State, e: PenaltyCardsGiven) -> State:
    stacks = [n - 1 if s in e.by else n for s, n in enumerate(state.stacks)]
    stacks[e.to] += len(e.by)
    return replace(state, stacks=tuple(stacks))


def _apply_word(state: State, e: WordSet) -> State:
    return replace(state, word=e.text, word_set=True)


def _apply_ended(state: State, e: GameEnded) -> State:
    return replace(state, over=True, winners=e.winners, timer_from=None)


def _apply_card(state: State, e: CardPlayed) -> State:
    stacks = list(state.stacks)
    stacks[e.seat] -= 1
    # a taker of the last pile played one of its own cards: when none is left, its next
    # cards are the swept ones, played for real
    own = tuple((s, left - 1 if s == e.seat else left) for s, left in state.swept_own)
    swept = () if any(left <= 0 for _, left in own) else state.swept
    step = 2 if e.card in TWINS else 1
    word_seat = state.word_seat
    nasty_from = state.options.nasty_from
    if word_seat is None and e.card in PHONES and 0 < nasty_from <= state.round_no:
        word_seat = e.seat
    return replace(
        state,
        stacks=tuple(stacks),
        pile=state.pile + (e.card,),
        pile_serials=state.pile_serials + (e.serial,),
        figures=state.figures + FIGURES[e.card],
        turn=(e.seat + step) % state.n_seats,
        last_player=e.seat,
        timer_from=e.at,
        word_seat=word_seat,
        reveal=None,
        finisher=e.seat if e.in_turn and stacks[e.seat] == 0 else None,
        plays=state.plays + 1,
        landed=state.landed + (e.at,),
        untimed=False,
        swept=swept,
        swept_own=own if swept else (),
        # the card seen beside the pile that slid onto it is answered by this play
        seen_beside=tuple(s for s in state.seen_beside
                          if e.serial is None or s.serial != e.serial),
        before_card=replace(state, before_card=None, last_card=None),
        last_card=e,
    )


def _apply_correction(state: State, e: CardReassigned | CardReplaced) -> State:
    """Play the last card again on the state before it, with the host's correction."""
    before, card = state.before_card, state.last_card
    if before is None or card is None:
        raise ValueError("only the last card can be corrected, while nothing happened since")
    if isinstance(e, CardReassigned):
        played = CardPlayed(e.seat, card.card, card.at, e.in_turn, card.serial)
    else:
        played = CardPlayed(card.seat, e.card, card.at, card.in_turn, None)
    after = _apply_card(before, played)
    return replace(after, plays=state.plays, dispute=state.dispute, timer_from=state.timer_from,
                   untimed=state.untimed, seen_beside=state.seen_beside, unread=state.unread,
                   blind=state.blind)


def _apply_pile(state: State, e: PileTaken) -> State:
    stacks = list(state.stacks)
    for seat, cards in zip(e.seats, e.cards, strict=True):
        stacks[seat] += cards
    finisher = (
        state.finisher if state.finisher is not None and stacks[state.finisher] == 0 else None
    )
    dispute = state.dispute
    # the cards of the pile are swept off the table, to the bottom of the takers' stacks:
    # seen again anywhere they are no play and no question, until a taker has played its
    # own cards (then it plays them; a taker without cards of its own plays them next)
    own = tuple((s, stacks[s] - cards) for s, cards in zip(e.seats, e.cards, strict=True)
                if cards > 0)
    swept = () if any(left == 0 for _, left in own) else state.pile_serials
    if e.why == "hesitation" and state.timer_from is not None:
        n = dispute.n + 1 if dispute else 1
        start = state.landed[-1] if state.landed else state.timer_from
        dispute = Dispute(n, "hesitation", e.offender, start, e.at, round(e.at - start, 3))
    return replace(
        state,
        stacks=tuple(stacks),
        pile=(),
        pile_serials=(),
        swept=swept,
        swept_own=own if swept else (),
        untimed=False,
        figures=0,
        turn=e.starter,
        last_player=None,
        round_no=state.round_no + 1,
        round_starter=e.starter,
        timer_from=None,
        word=state.options.word,
        word_seat=None,
        word_set=False,
        reveal=Reveal(state.figures, e.why, e.offender),
        finisher=finisher,
        landed=(),
        dispute=dispute,
    )


def _accusation_dispute(state: State, e: AccusationRuled) -> Dispute | None:
    """From the landing of the card before the accused one (the gap the clock judges)."""
    acc = state.accusation
    if acc is None or not state.landed:
        return state.dispute
    n = state.dispute.n + 1 if state.dispute else 1
    gap = round(state.landed[-1] - state.landed[-2], 3) if len(state.landed) > 1 else None
    start = state.landed[-2] if len(state.landed) > 1 else state.landed[-1]
    return Dispute(n, "accusation", acc.against, start, e.at, gap, e.upheld, acc.kind)


#: the fold table: event type -> how it changes the state
_APPLY: dict[type, Callable[[State, Any], State]] = {
    CardPlayed: _apply_card,
    PileTaken: _apply_pile,
    CardReassigned: _apply_correction,
    CardReplaced: _apply_correction,
    MissedCardAdded: _apply_missed,
    CardSeenBeside: _apply_seen,
    SeenCardSettled: _apply_settled,
    CardLandedUnread: _apply_unread,
    LandingNamed: _apply_named,
    PileSightChanged: _apply_sight,
    AccusationOpened: _apply_opened,
    AccusersJoined: _apply_joined,
    AccusationRuled: _apply_ruled,
    AccusationWithdrawn: _apply_withdrawn,
    PenaltyCardsGiven: _apply_given,
    WordSet: _apply_word,
    GameEnded: _apply_ended,
}


def cards(n: int) -> str:
    """The number of cards in words: "1 card", "5 cards"."""
    return f"{n} card" if n == 1 else f"{n} cards"


def event_sentence(e: Event, players: Sequence[str]) -> str:
    """One event in words with player and card names ("Ben played Twin racketeers"); ""
    for a ruling (the pile move that follows says it). The history's sentences
    (``describe``) and the state's ``log`` (the host's Undo) both use it."""

    def n(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else "someone"

    if isinstance(e, CardPlayed):
        return f"{n(e.seat)} played {card_phrase(e.card)}{'' if e.in_turn else ' out of turn'}"
    if isinstance(e, CardReassigned):
        return f"the host gave the last card to {n(e.seat)}"
    if isinstance(e, CardReplaced):
        return f"the host corrected the last card: it was {card_phrase(e.card)}"
    if isinstance(e, MissedCardAdded):
        late = "" if e.in_turn else " out of turn"
        if e.read:
            return (f"the camera read {card_phrase(e.card)} played by {n(e.seat)}{late} "
                    "after it landed")
        how = "counted" if e.camera else "entered"
        return f"the host {how} {card_phrase(e.card)} played by {n(e.seat)}{late}"
    if isinstance(e, CardSeenBeside):
        return f"the camera saw {card_phrase(e.card)} beside the pile while {n(e.seat)} was to play"
    if isinstance(e, SeenCardSettled):
        return "" if e.counted else "the host did not count the card seen beside the pile"
    if isinstance(e, CardLandedUnread):
        return (f"a card landed on the pile while {n(e.seat)} was to play, and the camera "
                "could not read it")
    if isinstance(e, LandingNamed):
        return "" if e.card is not None else "the host said no card landed there"
    if isinstance(e, PileSightChanged):
        return ("a lamp's glare hid part of the pile from the camera" if e.blind
                else "the camera could read the whole pile again")
    if isinstance(e, AccusationOpened):
        what = f" of {ALLEGED[e.kind]}" if e.kind in ALLEGED else ""
        return f"{' and '.join(n(s) for s in e.by)} accused {n(e.against)}{what}"
    if isinstance(e, AccusersJoined):
        return f"{' and '.join(n(s) for s in e.by)} joined the accusation"
    if isinstance(e, AccusationRuled):
        return ""
    if isinstance(e, AccusationWithdrawn):
        return "the accusation was withdrawn"
    if isinstance(e, PileTaken):
        why = "{o} hesitated" if e.why == "hesitation" else WHY[e.why]
        why = why.format(o=n(e.offender)).replace("The accusation", "the accusation")
        takers = listed(n(s) for s in e.seats)
        return f"{why}: {takers} took the pile ({cards(sum(e.cards))})"
    if isinstance(e, PenaltyCardsGiven):
        return f"even nastier: {n(e.to)} got a card from {' and '.join(n(s) for s in e.by)}"
    if isinstance(e, WordSet):
        return f"{n(e.seat)} chose the word “{e.text}”"
    return f"{' and '.join(n(s) for s in e.winners)} won"
