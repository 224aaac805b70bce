"""The Nasty 7: ``decide(state, action, now)``, its handlers and the penalties.

Each handler checks an action against the rules (``docs/rules/nasty7.md``) and returns
the past-tense events it causes, or raises ``IllegalAction`` with a reason a player
understands. ``outcome`` and ``next_deadline`` answer the engine's queries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.actions import Deadline, GameAction
from companion.games.base import Action, IllegalAction, Outcome, require
from companion.games.nasty7.actions import (
    ACTIONS,
    Accuse,
    CountSeen,
    Hesitation,
    MissedCard,
    Mistake,
    Play,
    Reassign,
    ReplaceCard,
    Rule,
    SeenBeside,
    Withdraw,
    Word,
)
from companion.games.nasty7.events import (
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardPlayed,
    CardReassigned,
    CardReplaced,
    CardSeenBeside,
    Event,
    GameEnded,
    MissedCardAdded,
    PenaltyCardsGiven,
    PileTaken,
    SeenCardSettled,
    WordSet,
)
from companion.games.nasty7.fold import ALLEGED, apply
from companion.games.nasty7.state import (
    MISTAKES,
    TWINS,
    Accusation,
    PileReason,
    State,
    card_phrase,
    deadline,
)

# --- decide -------------------------------------------------------------------------


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes at game time ``now``, or ``IllegalAction`` why not."""
    act = ACTIONS.parse(action)
    if state.over:
        raise IllegalAction(
            f"The game is over: {_names(state, state.winners)} won. Start a new game to play again."
        )
    return _HANDLERS[type(act)](state, act, now)


def _decide_play(state: State, action: Play, now: float) -> list[Event]:
    card = _card(state, action.card)
    seat = _seat(state, action.seat) if action.seat is not None else state.turn
    serial = action.serial
    _require_no_accusation(state)
    if state.finisher is not None:  # the next play: the finisher's last card stood
        return [GameEnded((state.finisher,))]
    require(
        serial is None or serial not in state.pile_serials,
        f"Card #{serial} is already on the pile: the same card cannot be played twice. "
        "Put it back where it was.",
    )
    require(state.stacks[seat] > 0, f"{state.seats[seat]} has no cards left to play.")
    events: list[Event] = [CardPlayed(seat, card, now, seat == state.turn, serial)]
    if seat != state.turn:
        events += _penalty(_fold(state, events), seat, _out_of_turn(state, seat), now)
    return _close(state, events)


def _out_of_turn(state: State, seat: int) -> PileReason:
    """Why ``seat``'s card out of turn costs it the pile: it had to skip, or it was not next."""
    return "played_when_skipping" if seat == state.skipped else "out_of_turn"


def _decide_reassign(state: State, action: Reassign, now: float) -> list[Event]:
    """The host: the last card was played by ``by``; a seat that was not to play takes the pile."""
    _require_host(action)
    before, card = _last_card(state, "say who played it")
    seat = _seat(state, action.by_)
    require(
        seat != card.seat,
        f"The last card is already booked to {state.seats[seat]}.",
    )
    require(before.stacks[seat] > 0, f"{state.seats[seat]} has no cards left to play.")
    in_turn = seat == before.turn
    events: list[Event] = [CardReassigned(seat, in_turn)]
    if not in_turn:
        events += _penalty(_fold(state, events), seat, _out_of_turn(before, seat), now)
    return _close(state, events)


def _decide_replace_card(state: State, action: ReplaceCard, now: float) -> list[Event]:
    """The host: the camera misread the last card; it was ``card``."""
    _require_host(action)
    _, last = _last_card(state, "correct it")
    card = _card(state, action.card)
    require(card != last.card, f"The last card is already {card_phrase(card)}.")
    return [CardReplaced(card)]


def _decide_missed_card(state: State, action: MissedCard, now: float) -> list[Event]:
    """The host: the camera missed a card of the seat to play; it joins the pile now."""
    _require_host(action)
    card = _card(state, action.card)
    _require_no_accusation(state)
    if state.finisher is not None:  # a card after the finisher's last: the game ended
        return [GameEnded((state.finisher,))]
    earliest = state.landed[-1] if state.landed else 0.0
    landed = now
    if action.ago is not None:  # the host's "about n seconds ago": after the last card
        landed = max(earliest, round(now - action.ago, 6))
    if action.at is not None:
        landed = float(action.at)
        require(
            earliest <= landed <= now,
            f"The missed card must have landed after the last card ({earliest:.1f} s) "
            f"and not after now ({now:.1f} s).",
        )
    seat = state.turn
    require(state.stacks[seat] > 0, f"{state.seats[seat]} has no cards left to play.")
    return [MissedCardAdded(seat, card, landed, now)]


def _decide_seen_beside(state: State, action: SeenBeside, now: float) -> list[Event]:
    """The camera saw a card of the game outside every zone: the host is asked."""
    _require_no_accusation(state)
    require(
        action.serial is None or action.serial not in state.pile_serials,
        f"Card #{action.serial} is on the pile already.",
    )
    return [CardSeenBeside(state.turn, _card(state, action.card), now, action.serial)]


def _decide_count_seen(state: State, action: CountSeen, now: float) -> list[Event]:
    """The host: the card seen beside the pile was played when it landed, or it was not."""
    _require_host(action)
    seen = state.seen_beside
    require(seen is not None, "No card seen beside the pile is waiting for an answer.")
    assert seen is not None
    if not action.count:
        return [SeenCardSettled(False, now)]
    _require_no_accusation(state)
    if state.finisher is not None:  # a card after the finisher's last: the game ended
        return [SeenCardSettled(True, now), GameEnded((state.finisher,))]
    require(state.stacks[seen.seat] > 0, f"{state.seats[seen.seat]} has no cards left to play.")
    landed = max(state.landed[-1] if state.landed else 0.0, seen.at)
    return [SeenCardSettled(True, now), MissedCardAdded(seen.seat, seen.card, landed, now,
                                                        seen.serial)]


def _decide_accuse(state: State, action: Accuse, now: float) -> list[Event]:
    by = _seat_list(state, action.by_)
    kind = action.kind or ""
    require(
        action.upheld is None or action.seat is None,
        "Only the host rules on an accusation: accuse, and the host rules.",
    )
    pending = state.accusation
    if pending is None:
        require(
            bool(state.pile) and state.last_player is not None,
            "No card is on the pile: there is nothing to accuse anyone of yet.",
        )
        against = _seat(state, action.against) if action.against is not None else None
        require(
            against == state.last_player,
            f"Only the player of the last card ({_names(state, (state.last_player or 0,))}) "
            "can be accused; record anything else as a mistake.",
        )
        assert against is not None
        events: list[Event] = [AccusationOpened(by, against, kind)]
    else:
        against = _seat(state, action.against) if action.against is not None else pending.against
        require(
            against == pending.against,
            f"An accusation against {state.seats[pending.against]} waits for the host's "
            "ruling; settle it first.",
        )
        require(
            not kind or not pending.kind or kind == pending.kind,
            f"{state.seats[pending.against]} is already accused of "
            f"{ALLEGED.get(pending.kind, 'a mistake')}: join that accusation, or wait for "
            "the host's ruling.",
        )
        new = tuple(s for s in by if s not in pending.by)
        events = [AccusersJoined(new)] if new else []
    require(against not in by, f"{state.seats[against]} cannot accuse themselves.")
    if action.upheld is None:
        require(
            bool(events),
            f"{_names(state, by)} already accused {state.seats[against]}: the host must now rule.",
        )
        return events
    return _rule(state, events, action.upheld, now)


def _decide_rule(state: State, action: Rule, now: float) -> list[Event]:
    require(state.accusation is not None, "No accusation is waiting for a ruling.")
    _require_host(action)
    return _rule(state, [], action.upheld, now)


def _decide_withdraw(state: State, action: Withdraw, now: float) -> list[Event]:
    require(state.accusation is not None, "No accusation is waiting: nothing to withdraw.")
    _require_host(action)
    return [AccusationWithdrawn(now)]


def _decide_mistake(state: State, action: Mistake, now: float) -> list[Event]:
    seat = _seat(state, action.seat)
    _require_no_accusation(state)
    require(
        bool(state.pile), "No card is on the pile: a mistake counts only after a card was played."
    )
    return _close(state, _penalty(state, seat, action.kind, now))


def _decide_hesitation(state: State, action: Hesitation, now: float) -> list[Event]:
    """The host saw the seat to play hesitate (camera off, or the clock was not running)."""
    _require_host(action)
    _require_no_accusation(state)
    require(
        bool(state.pile),
        "No card is on the pile: the first card of a round may take its time.",
    )
    if action.against is not None:
        require(
            _seat(state, action.against) == state.turn,
            f"Only the player to play ({state.seats[state.turn]}) can hesitate now.",
        )
    if state.finisher is not None:  # the finisher's last card stood
        return [GameEnded((state.finisher,))]
    return _close(state, _penalty(state, state.turn, "hesitation", now))


def _decide_word(state: State, action: Word, now: float) -> list[Event]:
    word = state.options.word
    require(
        state.options.nasty,
        f"The nasty rule is off: phones are answered with '{word}'. Start a game with "
        "the nasty rule to choose words.",
    )
    require(
        state.round_no >= state.options.nasty_from,
        f"The first round is played with '{word}': players choose the word "
        f"from round {state.options.nasty_from}.",
    )
    chooser = state.word_seat
    require(
        chooser is not None,
        "No phone has been played this round: the player of the "
        "round's first phone chooses the word.",
    )
    assert chooser is not None
    require(not state.word_set, f"The word for this round is already '{state.word}'.")
    if action.seat is not None:
        require(
            _seat(state, action.seat) == chooser,
            f"Only {state.seats[chooser]} (first phone of the round) chooses the word.",
        )
    text = action.text.strip()
    require(0 < len(text) <= 60, "The word must be 1 to 60 characters long.")
    return [WordSet(chooser, text)]


def _decide_deadline(state: State, action: Deadline, now: float) -> list[Event]:
    due = next_deadline(state)
    require(due is not None and now >= due, "No deadline is due now.")
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


def _names(state: State, seats: Sequence[int]) -> str:
    return " and ".join(state.seats[s] for s in seats) or "nobody"


def _accuse_phrase(state: State, by: Sequence[int]) -> str:
    return f"{_names(state, by)} {'accuses' if len(by) == 1 else 'accuse'}"


def _seat(state: State, seat: int) -> int:
    """``seat`` if the game has it (actions allow up to 12 seats; a game has 2 to 6)."""
    require(0 <= seat < state.n_seats, f"This game has {state.n_seats} players, not {seat + 1}.")
    return seat


def _card(state: State, card: str) -> str:
    require(
        not (state.options.no_twins and card in TWINS),
        "This game is played without twins (the version for younger players): "
        "take the twin cards out of the deck.",
    )
    return card


def _last_card(state: State, what: str) -> tuple[State, CardPlayed]:
    """The state before the last card and that card, while nothing happened since."""
    _require_no_accusation(state)
    before, card = state.before_card, state.last_card
    if before is None or card is None:
        raise IllegalAction(
            f"Only the last card can be corrected, and only before anything else happens: "
            f"use Undo to go back to it, then {what}."
        )
    return before, card


def _seat_list(state: State, raw: tuple[int, ...] | int) -> tuple[int, ...]:
    seats = (raw,) if isinstance(raw, int) else raw
    require(len(seats) > 0, "Choose who accuses first.")
    for seat in seats:
        _seat(state, seat)
    require(len(set(seats)) == len(seats), "The same player is named twice among the accusers.")
    return seats


def _require_host(action: GameAction) -> None:
    """Rulings come from the host: a seat's phone adds its ``seat`` and is refused."""
    require(
        action.seat is None,
        "Only the host rules on an accusation or corrects a card: use the host's phone.",
    )


def _require_no_accusation(state: State) -> None:
    acc = state.accusation
    if acc is not None:
        raise IllegalAction(
            f"Wait: {_accuse_phrase(state, acc.by)} {state.seats[acc.against]}; "
            "the host must rule first."
        )
