"""The Nasty 7: ``decide(state, action, now)``, its handlers and the penalties.

Each handler asks ``legality`` whether the rules (``docs/rules/nasty7.md``) allow its
action, raising ``IllegalAction`` with that module's sentence if not, and returns the
past-tense events the action causes. ``outcome`` and ``next_deadline`` answer the
engine's queries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.actions import Deadline, GameAction
from companion.games.base import Action, IllegalAction, Outcome
from companion.games.nasty7.actions import (
    ACTIONS,
    Accuse,
    CountSeen,
    Hesitation,
    LandedUnread,
    MissedCard,
    Mistake,
    NameLanded,
    Play,
    Reassign,
    ReplaceCard,
    Rule,
    SeenBeside,
    Sight,
    Withdraw,
    Word,
)
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
from companion.games.nasty7.fold import apply
from companion.games.nasty7.legality import (
    accuse_reason,
    accuser_seats,
    count_seen_reason,
    deadline_reason,
    hesitation_reason,
    missed_reason,
    mistake_reason,
    name_landed_reason,
    out_of_turn_why,
    over_reason,
    play_reason,
    reassign_reason,
    replace_reason,
    rule_reason,
    seen_counted_for,
    seen_reason,
    withdraw_reason,
    word_reason,
)
from companion.games.nasty7.state import (
    MISTAKES,
    Accusation,
    PileReason,
    State,
    deadline,
    same_landing,
)

# --- decide -------------------------------------------------------------------------


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes at game time ``now``, or ``IllegalAction`` why not."""
    act = ACTIONS.parse(action)
    _allow(over_reason(state))
    return _HANDLERS[type(act)](state, act, now)


def _allow(why: str | None) -> None:
    """Refuse with the rules' sentence (``legality``), if there is one."""
    if why is not None:
        raise IllegalAction(why)


def _decide_play(state: State, action: Play, now: float) -> list[Event]:
    _allow(play_reason(state, action.card, action.seat, action.serial))
    if action.landed is not None:
        return _read_landed(state, action, action.landed, now)
    if state.finisher is not None:  # the next play: the finisher's last card stood
        return [GameEnded((state.finisher,))]
    seat = state.turn if action.seat is None else action.seat
    events: list[Event] = [CardPlayed(seat, action.card, now, seat == state.turn, action.serial)]
    if seat != state.turn:
        events += _penalty(_fold(state, events), seat, out_of_turn_why(state, seat), now)
    return _close(state, events)


def _decide_reassign(state: State, action: Reassign, now: float) -> list[Event]:
    """The host: the last card was played by ``by``; a seat that was not to play takes the pile."""
    _allow(reassign_reason(state, action.by_))
    before = state.before_card
    assert before is not None
    seat = action.by_
    in_turn = seat == before.turn
    events: list[Event] = [CardReassigned(seat, in_turn)]
    if not in_turn:
        events += _penalty(_fold(state, events), seat, out_of_turn_why(before, seat), now)
    return _close(state, events)


def _decide_replace_card(state: State, action: ReplaceCard, now: float) -> list[Event]:
    """The events of ``ReplaceCard`` (its docstring says what it is)."""
    _allow(replace_reason(state, action.card))
    return [CardReplaced(action.card)]


def _decide_missed_card(state: State, action: MissedCard, now: float) -> list[Event]:
    """The host: the camera missed a card (or there is none); it joins the pile now.

    The seat to play's card, or ``by``'s: a seat not to play takes the pile with it.
    """
    _allow(missed_reason(state, action.card, by=action.by_, at=action.at, now=now))
    if state.finisher is not None:  # a card after the finisher's last: the game ended
        return [GameEnded((state.finisher,))]
    landed = now
    if action.ago is not None:  # the host's "about n seconds ago": after the last card
        earliest = state.landed[-1] if state.landed else 0.0
        landed = max(earliest, round(now - action.ago, 6))
    if action.at is not None:
        landed = float(action.at)
    seat = state.turn if action.by_ is None else action.by_
    events: list[Event] = [
        MissedCardAdded(seat, action.card, landed, now, in_turn=seat == state.turn)
    ]
    if seat != state.turn:
        events += _penalty(_fold(state, events), seat, out_of_turn_why(state, seat), now)
    return _close(state, events)


def _decide_seen_beside(state: State, action: SeenBeside, now: float) -> list[Event]:
    """The camera saw a card of the game outside every zone: the host is asked."""
    _allow(seen_reason(state, action.card, action.serial))
    return [CardSeenBeside(state.turn, action.card, now, action.serial)]


def _decide_count_seen(state: State, action: CountSeen, now: float) -> list[Event]:
    """The host: the card seen beside the pile was played when it landed, or it was not."""
    _allow(count_seen_reason(state, action.count, action.which))
    which = len(state.seen_beside) - 1 if action.which is None else action.which
    seen = state.seen_beside[which]
    if not action.count:
        return [SeenCardSettled(False, now, which)]
    return _book_answered(state, SeenCardSettled(True, now, which),
                          seen_counted_for(state, which), seen.card, seen.at, now, seen.serial)


def _decide_landed_unread(state: State, action: LandedUnread, now: float) -> list[Event]:
    """The camera saw a card land on the pile and could not read it: the host is asked."""
    return [CardLandedUnread(state.turn, now if action.at is None else min(action.at, now))]


def _decide_sight(state: State, action: Sight, now: float) -> list[Event]:
    """The camera: glare hides part of the pile from now on, or no longer does."""
    return [] if action.blind == state.blind else [PileSightChanged(action.blind, now)]


def _decide_name_landed(state: State, action: NameLanded, now: float) -> list[Event]:
    """The host: the card that landed unread was ``card``, played when it landed (or none)."""
    _allow(name_landed_reason(state, action.card, action.which))
    which = len(state.unread) - 1 if action.which is None else action.which
    if action.card is None:
        return [LandingNamed(None, now, which)]
    return _book_answered(state, LandingNamed(action.card, now, which), state.turn,
                          action.card, state.unread[which].at, now)


def _read_landed(state: State, action: Play, landed: float, now: float) -> list[Event]:
    """The camera read a card it had seen land unread at ``landed``: it answers that
    landing's question, if it still waits (the host's card no longer asks), played when it
    landed by the seat to play, once. (The host named it already: ``inputs`` sends
    nothing.) The host said nothing landed: it is played all the same, when it landed."""
    which = same_landing([u.at for u in state.unread], landed)
    if which is not None:
        _allow(name_landed_reason(state, action.card, which))
        return _book_answered(state, LandingNamed(action.card, now, which), state.turn,
                              action.card, state.unread[which].at, now, action.serial, read=True)
    return _book_answered(state, None, state.turn, action.card, landed, now, action.serial,
                          read=True)


def _book_answered(state: State, answered: Event | None, seat: int, card: str, at: float,
                   now: float, serial: int | None = None, read: bool = False) -> list[Event]:
    """The host's answer about a card the camera saw (beside the pile, or landed unread),
    or the camera's own read of a card it saw land unread (``read``), books it: played by
    ``seat`` when it landed (``at``, not before the card before it), or, after the
    finisher's last card, the game ends. The next player's clock runs from ``now``."""
    first = [] if answered is None else [answered]
    if state.finisher is not None:  # a card after the finisher's last: the game ended
        return [*first, GameEnded((state.finisher,))]
    landed = max(state.landed[-1] if state.landed else 0.0, at)
    return [*first, MissedCardAdded(seat, card, landed, now, serial, camera=True, read=read)]


def _decide_accuse(state: State, action: Accuse, now: float) -> list[Event]:
    kind = action.kind or ""
    _allow(accuse_reason(state, action.by_, action.against, kind, action.upheld))
    by = accuser_seats(action.by_)
    pending = state.accusation
    if pending is None:
        assert action.against is not None
        events: list[Event] = [AccusationOpened(by, action.against, kind)]
    else:
        new = tuple(s for s in by if s not in pending.by)
        events = [AccusersJoined(new)] if new else []
    if action.upheld is None:
        return events
    return _rule(state, events, action.upheld, now)


def _decide_rule(state: State, action: Rule, now: float) -> list[Event]:
    _allow(rule_reason(state))
    return _rule(state, [], action.upheld, now)


def _decide_withdraw(state: State, action: Withdraw, now: float) -> list[Event]:
    _allow(withdraw_reason(state))
    return [AccusationWithdrawn(now)]


def _decide_mistake(state: State, action: Mistake, now: float) -> list[Event]:
    _allow(mistake_reason(state, action.seat))
    return _close(state, _penalty(state, action.seat, action.kind, now))


def _decide_hesitation(state: State, action: Hesitation, now: float) -> list[Event]:
    """The host saw the seat to play hesitate (camera off, or the clock was not running)."""
    _allow(hesitation_reason(state, action.against))
    if state.finisher is not None:  # the finisher's last card stood
        return [GameEnded((state.finisher,))]
    return _close(state, _penalty(state, state.turn, "hesitation", now))


def _decide_word(state: State, action: Word, now: float) -> list[Event]:
    _allow(word_reason(state, action.seat, action.text))
    assert state.word_seat is not None
    return [WordSet(state.word_seat, action.text.strip())]


def _decide_deadline(state: State, action: Deadline, now: float) -> list[Event]:
    _allow(deadline_reason(state, now))
    if state.finisher is not None:  # nobody contested the last card in time
        return [GameEnded((state.finisher,))]
    return _close(state, _penalty(state, state.turn, "hesitation", now))


Handler = Callable[[State, Any, float], list[Event]]

#: action class -> its handler; every handler is ``(state, action, now) -> events``
_HANDLERS: dict[type[GameAction], Handler] = {
    Play: _decide_play,
    Accuse: _decide_accuse,
    Rule: _decide_rule,
    Withdraw: _decide_withdraw,
    Mistake: _decide_mistake,
    Word: _decide_word,
    Deadline: _decide_deadline,
    Reassign: _decide_reassign,
    ReplaceCard: _decide_replace_card,
    MissedCard: _decide_missed_card,
    Hesitation: _decide_hesitation,
    SeenBeside: _decide_seen_beside,
    CountSeen: _decide_count_seen,
    LandedUnread: _decide_landed_unread,
    NameLanded: _decide_name_landed,
    Sight: _decide_sight,
}


# --- penalties ----------------------------------------------------------------------


def _penalty(state: State, seat: int, why: PileReason, now: float) -> list[Event]:
    """``seat`` takes the pile and starts; even nastier adds the opponents' top cards."""
    events: list[Event] = [PileTaken((seat,), (len(state.pile),), seat, why, seat, now)]
    first_card = len(state.pile) == 1 and state.last_player == seat == state.round_starter
    if state.options.even_nastier and first_card and why in MISTAKES + ("upheld",):
        givers = tuple(s for s, n in enumerate(state.stacks) if s != seat and n > 0)
        if givers:
            events.append(PenaltyCardsGiven(seat, givers))
    return events


def _rule(state: State, events: list[Event], upheld: bool, now: float) -> list[Event]:
    """``events`` (opening/joining) + the ruling and its pile move, on ``state``."""
    pending = _fold(state, events).accusation
    assert pending is not None
    events = [*events, AccusationRuled(upheld, now)]
    if upheld:
        return _close(state, events + _penalty(state, pending.against, "upheld", now))
    return _close(state, [*events, _shared_pile(state, pending, now)])


def _shared_pile(state: State, acc: Accusation, now: float) -> PileTaken:
    """Not upheld: the pile dealt one by one to the accusers, clockwise from the accused."""
    n = state.n_seats
    order = tuple(s for s in ((acc.against + k) % n for k in range(1, n)) if s in acc.by)
    pile = len(state.pile)
    base, extra = divmod(pile, len(order))
    cards = tuple(base + (1 if i < extra else 0) for i in range(len(order)))
    last = order[(pile - 1) % len(order)] if pile else order[0]
    return PileTaken(order, cards, last, "not_upheld", acc.against, now)


def _close(state: State, events: list[Event]) -> list[Event]:
    """``events`` plus ``GameEnded`` when, after a pile move, some stack is empty."""
    if not any(isinstance(e, PileTaken) for e in events):
        return events
    after = _fold(state, events)
    empty = tuple(s for s, n in enumerate(after.stacks) if n == 0)
    return [*events, GameEnded(empty)] if empty and not after.over else events


# --- queries ------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The winner once the game is over (``detail["winner"]``: the seat, as records show it)."""
    if not state.over:
        return None
    winners = state.winners
    detail: dict[str, Any] = {
        "winner": winners[0] if len(winners) == 1 else list(winners),
        "winners": list(winners),
        "names": [state.seats[s] for s in winners],
        "stacks": list(state.stacks),
    }
    return Outcome.of(winners, detail)


def next_deadline(state: State) -> float | None:
    """When the seat to play is penalised for hesitating (game time), or ``None``.

    No deadline before a round's first card, while an accusation waits, or once the game
    is over. After a seat's last card the deadline ends the game instead.
    """
    return deadline(state)


# --- helpers ------------------------------------------------------------------------


def _fold(state: State, events: Sequence[Event]) -> State:
    for event in events:
        state = apply(state, event)
    return state
