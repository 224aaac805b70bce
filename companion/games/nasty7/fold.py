"""The Nasty 7: ``apply(state, event)``, the projector that folds one event into a state."""

from __future__ import annotations

from dataclasses import replace

from companion.games.nasty7.events import (
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardPlayed,
    Event,
    GameEnded,
    PenaltyCardsGiven,
    PileTaken,
    WordSet,
)
from companion.games.nasty7.state import FIGURES, PHONES, TWINS, Accusation, Reveal, State


def apply(state: State, event: Event) -> State:
    """The state after ``event`` (one of ``event_types``)."""
    if isinstance(event, CardPlayed):
        return _apply_card(state, event)
    if isinstance(event, PileTaken):
        return _apply_pile(state, event)
    if isinstance(event, AccusationOpened):
        reveal = Reveal(state.figures, "accusation", event.against)
        return replace(state, accusation=Accusation(event.by, event.against), reveal=reveal)
    if isinstance(event, AccusersJoined):
        assert state.accusation is not None
        acc = Accusation(state.accusation.by + event.by, state.accusation.against)
        return replace(state, accusation=acc)
    if isinstance(event, AccusationRuled):
        return replace(state, accusation=None)
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
    if word_seat is None and e.card in PHONES:
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
    )


def _apply_pile(state: State, e: PileTaken) -> State:
    stacks = list(state.stacks)
    for seat, cards in zip(e.seats, e.cards, strict=True):
        stacks[seat] += cards
    finisher = (
        state.finisher if state.finisher is not None and stacks[state.finisher] == 0 else None
    )
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
    )
