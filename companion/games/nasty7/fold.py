"""The Nasty 7: ``apply(state, event)``, the projector that folds one event into a state.

Besides the table, the fold keeps ``note`` (the last thing that happened, in words: the
host's Undo names it), the round's landing times and the latest ``Dispute`` (for the
replay clip), and the state before the last card (so the host can correct that card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.games.nasty7.events import (
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardPlayed,
    CardReassigned,
    CardReplaced,
    Event,
    GameEnded,
    MissedCardAdded,
    PenaltyCardsGiven,
    PileTaken,
    WordSet,
)
from companion.games.nasty7.state import (
    FIGURES,
    PHONES,
    TWINS,
    Accusation,
    Dispute,
    Reveal,
    State,
    card_phrase,
)

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


def apply(state: State, event: Event) -> State:
    """The state after ``event`` (one of ``event_types``)."""
    after = _apply(state, event)
    note = event_sentence(event, state.seats) or state.note
    if isinstance(event, CardPlayed | CardReassigned | CardReplaced | MissedCardAdded):
        return replace(after, note=note)
    return replace(after, note=note, before_card=None, last_card=None)


def _apply(state: State, event: Event) -> State:
    if isinstance(event, CardPlayed):
        return _apply_card(state, event)
    if isinstance(event, PileTaken):
        return _apply_pile(state, event)
    if isinstance(event, CardReassigned | CardReplaced):
        return _apply_correction(state, event)
    if isinstance(event, MissedCardAdded):
        card = CardPlayed(event.seat, event.card, event.landed)
        return replace(_apply_card(state, card), timer_from=event.at)
    if isinstance(event, AccusationOpened):
        reveal = Reveal(state.figures, "accusation", event.against)
        acc = Accusation(event.by, event.against, event.kind)
        return replace(state, accusation=acc, reveal=reveal)
    if isinstance(event, AccusersJoined):
        assert state.accusation is not None
        acc = replace(state.accusation, by=state.accusation.by + event.by)
        return replace(state, accusation=acc)
    if isinstance(event, AccusationRuled):
        return replace(state, accusation=None, dispute=_accusation_dispute(state, event))
    if isinstance(event, AccusationWithdrawn):
        return replace(state, accusation=None, reveal=None, timer_from=event.at)
    if isinstance(event, PenaltyCardsGiven):
        stacks = [n - 1 if s in event.by else n for s, n in enumerate(state.stacks)]
        stacks[event.to] += len(event.by)
        return replace(state, stacks=tuple(stacks))
    if isinstance(event, WordSet):
        return replace(state, word=event.text, word_set=True)
    if isinstance(event, GameEnded):
        return replace(state, over=True, winners=event.winners, timer_from=None)
    raise TypeError(f"not a Nasty 7 event: {event!r}")


def _apply_card(state: State, e: CardPlayed) -> State:
    stacks = list(state.stacks)
    stacks[e.seat] -= 1
    step = 2 if e.card in TWINS else 1
    word_seat = state.word_seat
    nasty_from = state.rules.nasty_from
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
    return replace(after, plays=state.plays, dispute=state.dispute, timer_from=state.timer_from)


def _apply_pile(state: State, e: PileTaken) -> State:
    stacks = list(state.stacks)
    for seat, cards in zip(e.seats, e.cards, strict=True):
        stacks[seat] += cards
    finisher = (
        state.finisher if state.finisher is not None and stacks[state.finisher] == 0 else None
    )
    dispute = state.dispute
    if e.why == "hesitation" and state.timer_from is not None:
        n = dispute.n + 1 if dispute else 1
        start = state.landed[-1] if state.landed else state.timer_from
        dispute = Dispute(n, "hesitation", e.offender, start, e.at, round(e.at - start, 3))
    return replace(
        state,
        stacks=tuple(stacks),
        pile=(),
        pile_serials=(),
        figures=0,
        turn=e.starter,
        last_player=None,
        round_no=state.round_no + 1,
        round_starter=e.starter,
        timer_from=None,
        word=state.rules.word,
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


def cards(n: int) -> str:
    """The number of cards in words: "1 card", "5 cards"."""
    return f"{n} card" if n == 1 else f"{n} cards"


def event_sentence(e: Event, players: Sequence[str]) -> str:
    """One event in words with player and card names ("Ben played Twin racketeers"); ""
    for a ruling (the pile move that follows says it). The history's sentences
    (``describe``) and the host's Undo (``note``) both use it."""

    def n(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else "someone"

    if isinstance(e, CardPlayed):
        return f"{n(e.seat)} played {card_phrase(e.card)}{'' if e.in_turn else ' out of turn'}"
    if isinstance(e, CardReassigned):
        return f"the host gave the last card to {n(e.seat)}"
    if isinstance(e, CardReplaced):
        return f"the host corrected the last card: it was {card_phrase(e.card)}"
    if isinstance(e, MissedCardAdded):
        return f"the host added {card_phrase(e.card)} the camera missed, played by {n(e.seat)}"
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
        takers = " and ".join(n(s) for s in e.seats)
        return f"{why}: {takers} took the pile ({cards(sum(e.cards))})"
    if isinstance(e, PenaltyCardsGiven):
        return f"even nastier: {n(e.to)} got a card from {' and '.join(n(s) for s in e.by)}"
    if isinstance(e, WordSet):
        return f"{n(e.seat)} chose the word “{e.text}”"
    return f"{' and '.join(n(s) for s in e.winners)} won"
