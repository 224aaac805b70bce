"""The Nasty 7 (*Die fiesen 7*): the count, skips, the 3-second rule, accusations, stacks.

A pure engine (``companion.games.base.Engine``); the rules and every interpretation are
in ``docs/rules/nasty7.md``. Actions (record lines without ``t``):

- ``{"do": "play", "card": id}`` by the seat whose turn it is; optional ``"seat"`` (a
  different seat marks an out-of-turn play: that seat takes the pile) and ``"serial"``
  (the physical card, so the same card cannot be played twice while on the pile).
- ``{"do": "accuse", "by": [seats], "against": seat, "upheld": bool}`` settles at once;
  without ``upheld`` it opens a pending accusation (the count is revealed, the clock
  stops) that more seats may join with further ``accuse`` actions, settled by
  ``{"do": "rule", "upheld": bool}`` or dropped by ``{"do": "withdraw"}``.
- ``{"do": "mistake", "seat": s, "kind": "wrong_number"|"wrong_word"|"spoke_on_gun"}``.
- ``{"do": "word", "text": "..."}`` (option ``nasty``; optional ``"seat"``).
- ``{"do": "deadline"}`` at ``next_deadline``: the hesitation rule (or, after a seat's
  last card, the end of the game).

Views: ``public_view`` (the table: ``status``, ``seats`` with card counts, ``turn``,
``skipping``, ``pile``, ``top``, ``word``, ``deadline``/``timer`` for the hesitation bar,
``accusation``, ``revealed_count``/``revealed`` only on an accusation or a penalty, never
the running count during play), ``seat_view`` (adds ``you``, ``your_cards``,
``your_turn``, ``you_skip``, ``can_accuse``, ``choose_word``) and ``state_json`` (the
referee: everything). Every key is documented in ``companion.games.nasty7_views``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from companion.games.base import (
    Action,
    Engine,
    IllegalAction,
    Outcome,
    Setup,
    check_options,
    check_seats,
    get_int,
    get_str,
    require,
)
from companion.games.nasty7_state import (
    CARDS,
    EVENT_TYPES,
    FIGURES,
    MISTAKES,
    PHONES,
    TWINS,
    Accusation,
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardPlayed,
    Event,
    GameEnded,
    PenaltyCardsGiven,
    PileTaken,
    Reveal,
    State,
    WordSet,
    deadline,
    number_for,
    rules_from_options,
)
from companion.games.nasty7_table import action_for_input
from companion.games.nasty7_views import public_view, seat_view, signals, state_json

# fmt: off
__all__ = [
    "name", "aliases", "title", "min_seats", "max_seats", "default_options", "event_types",
    "new_game", "decide", "apply", "outcome", "next_deadline", "public_view", "seat_view",
    "signals", "state_json", "action_for_input", "number_for", "State",
]
# fmt: on

name = "nasty7"
aliases: tuple[str, ...] = ("fiese7", "fiese_7", "die_fiesen_7", "the_nasty_7", "nasty_7")
title = "The Nasty 7"
min_seats = 2
max_seats = 6
default_options: Mapping[str, Any] = {
    "hesitation_s": 3.0,
    "deck_size": 110,
    "no_twins": False,
    "nasty": False,
    "even_nastier": False,
    "starter": 0,
    "word": "hmmmrrr",
}
event_types: Mapping[str, type] = EVENT_TYPES

_ME = cast(Engine, sys.modules[__name__])


# --- setup --------------------------------------------------------------------------


def new_game(setup: Setup) -> State:
    """The dealt table: ``deck_size // seats`` cards each, the rest back in the box.

    Raises ``SetupError`` for a seat count outside 2..6 or a bad option value.
    """
    check_seats(_ME, setup)
    rules = rules_from_options(check_options(_ME, setup.options), setup.n_seats)
    each, left = divmod(rules.deck_size, setup.n_seats)
    return State(
        seats=tuple(setup.seats),
        rules=rules,
        stacks=(each,) * setup.n_seats,
        out_of_game=left,
        turn=rules.starter,
        round_starter=rules.starter,
        word=rules.word,
    )


# --- decide -------------------------------------------------------------------------


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes at game time ``now``, or ``IllegalAction`` why not."""
    do = get_str(action, "do")
    handler = _HANDLERS.get(do)
    if handler is None:
        known = ", ".join(sorted(_HANDLERS))
        raise IllegalAction(f"The Nasty 7 has no action {do!r}; use one of: {known}")
    if state.over:
        raise IllegalAction(
            f"The game is over: {_names(state, state.winners)} won. Start a new game to play again."
        )
    return handler(state, action, now)


def _decide_play(state: State, action: Action, now: float) -> list[Event]:
    card = get_str(action, "card", CARDS)
    require(
        not (state.rules.no_twins and card in TWINS),
        "This game is played without twins (option no_twins): take the twin cards out of the deck.",
    )
    seat = _seat(state, action, "seat") if action.get("seat") is not None else state.turn
    serial = _serial(action)
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
        events += _penalty(_fold(state, events), seat, "out_of_turn")
    return _close(state, events)


def _decide_accuse(state: State, action: Action, now: float) -> list[Event]:
    by = _seat_list(state, action)
    upheld = action.get("upheld")
    require(upheld is None or isinstance(upheld, bool), "'upheld' must be true or false.")
    events: list[Event]
    pending = state.accusation
    if pending is None:
        require(
            bool(state.pile) and state.last_player is not None,
            "No card is on the pile: there is nothing to accuse anyone of yet.",
        )
        against = _seat(state, action, "against")
        require(
            against == state.last_player,
            f"Only the player of the last card ({_names(state, (state.last_player or 0,))}) "
            "can be accused; record anything else as a mistake.",
        )
        events = [AccusationOpened(by, against)]
    else:
        against = _seat(state, action, "against") if "against" in action else pending.against
        require(
            against == pending.against,
            f"An accusation against {state.seats[pending.against]} waits for the host's "
            "ruling; settle it first.",
        )
        new = tuple(s for s in by if s not in pending.by)
        events = [AccusersJoined(new)] if new else []
    require(against not in by, f"{state.seats[against]} cannot accuse themselves.")
    if upheld is None:
        require(
            bool(events),
            f"{_names(state, by)} already accused {state.seats[against]}: the host must now rule.",
        )
        return events
    return _rule(state, events, upheld)


def _decide_rule(state: State, action: Action, now: float) -> list[Event]:
    require(state.accusation is not None, "No accusation is waiting for a ruling.")
    _require_host(action)
    upheld = action.get("upheld")
    require(isinstance(upheld, bool), "'upheld' must be true or false.")
    return _rule(state, [], bool(upheld))


def _decide_withdraw(state: State, action: Action, now: float) -> list[Event]:
    require(state.accusation is not None, "No accusation is waiting: nothing to withdraw.")
    _require_host(action)
    return [AccusationWithdrawn(now)]


def _decide_mistake(state: State, action: Action, now: float) -> list[Event]:
    seat = _seat(state, action, "seat")
    kind = get_str(action, "kind", MISTAKES)
    _require_no_accusation(state)
    require(
        bool(state.pile), "No card is on the pile: a mistake counts only after a card was played."
    )
    return _close(state, _penalty(state, seat, kind))


def _decide_word(state: State, action: Action, now: float) -> list[Event]:
    require(
        state.rules.nasty,
        f"The nasty rule is off: phones are answered with "
        f"'{state.rules.word}'. Start a game with the option nasty to choose words.",
    )
    chooser = state.word_seat
    require(
        chooser is not None,
        "No phone has been played this round: the player of the "
        "round's first phone chooses the word.",
    )
    assert chooser is not None
    require(not state.word_set, f"The word for this round is already '{state.word}'.")
    if action.get("seat") is not None:
        require(
            _seat(state, action, "seat") == chooser,
            f"Only {state.seats[chooser]} (first phone of the round) chooses the word.",
        )
    text = get_str(action, "text").strip()
    require(0 < len(text) <= 60, "The word must be 1 to 60 characters long.")
    return [WordSet(chooser, text)]


def _decide_deadline(state: State, action: Action, now: float) -> list[Event]:
    due = next_deadline(state)
    require(due is not None and now >= due, "No deadline is due now.")
    if state.finisher is not None:  # nobody contested the last card in time
        return [GameEnded((state.finisher,))]
    return _close(state, _penalty(state, state.turn, "hesitation"))


_HANDLERS: dict[str, Callable[[State, Action, float], list[Event]]] = {
    "play": _decide_play,
    "accuse": _decide_accuse,
    "rule": _decide_rule,
    "withdraw": _decide_withdraw,
    "mistake": _decide_mistake,
    "word": _decide_word,
    "deadline": _decide_deadline,
}


# --- penalties ----------------------------------------------------------------------


def _penalty(state: State, seat: int, why: str) -> list[Event]:
    """``seat`` takes the pile and starts; even nastier adds the opponents' top cards."""
    events: list[Event] = [PileTaken((seat,), (len(state.pile),), seat, why, seat)]
    first_card = len(state.pile) == 1 and state.last_player == seat == state.round_starter
    if state.rules.even_nastier and first_card and why in MISTAKES + ("upheld",):
        givers = tuple(s for s, n in enumerate(state.stacks) if s != seat and n > 0)
        if givers:
            events.append(PenaltyCardsGiven(seat, givers))
    return events


def _rule(state: State, events: list[Event], upheld: bool) -> list[Event]:
    """``events`` (opening/joining) + the ruling and its pile move, on ``state``."""
    pending = _fold(state, events).accusation
    assert pending is not None
    events = [*events, AccusationRuled(upheld)]
    if upheld:
        return _close(state, events + _penalty(state, pending.against, "upheld"))
    return _close(state, [*events, _shared_pile(state, pending)])


def _shared_pile(state: State, acc: Accusation) -> PileTaken:
    """Not upheld: the pile dealt one by one to the accusers, clockwise from the accused."""
    n = state.n_seats
    order = tuple(s for s in ((acc.against + k) % n for k in range(1, n)) if s in acc.by)
    pile = len(state.pile)
    base, extra = divmod(pile, len(order))
    cards = tuple(base + (1 if i < extra else 0) for i in range(len(order)))
    last = order[(pile - 1) % len(order)] if pile else order[0]
    return PileTaken(order, cards, last, "not_upheld", acc.against)


def _close(state: State, events: list[Event]) -> list[Event]:
    """``events`` plus ``GameEnded`` when, after a pile move, some stack is empty."""
    if not any(isinstance(e, PileTaken) for e in events):
        return events
    after = _fold(state, events)
    empty = tuple(s for s, n in enumerate(after.stacks) if n == 0)
    return [*events, GameEnded(empty)] if empty and not after.over else events


# --- apply --------------------------------------------------------------------------


def apply(state: State, event: Any) -> State:
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


def _seat(state: State, action: Action, key: str) -> int:
    return get_int(action, key, lo=0, hi=state.n_seats - 1)


def _serial(action: Action) -> int | None:
    if action.get("serial") is None:
        return None
    return get_int(action, "serial", lo=0)


def _seat_list(state: State, action: Action) -> tuple[int, ...]:
    raw: Any = action.get("by")
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = [raw]
    require(
        isinstance(raw, list | tuple) and len(raw) > 0,
        "'by' must list the accusing seats, e.g. [0, 2].",
    )
    seats = tuple(_seat(state, {"by": s}, "by") for s in raw)
    require(len(set(seats)) == len(seats), "'by' names a seat twice.")
    return seats


def _require_host(action: Action) -> None:
    """Rulings come from the host: a seat's phone adds its ``seat`` and is refused."""
    require(
        action.get("seat") is None,
        "Only the host rules on an accusation: use the host's phone or buttons.",
    )


def _require_no_accusation(state: State) -> None:
    acc = state.accusation
    if acc is not None:
        raise IllegalAction(
            f"Wait: {_accuse_phrase(state, acc.by)} {state.seats[acc.against]}; "
            "the host must rule first."
        )
