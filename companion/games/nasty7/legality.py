"""The Nasty 7: who may do what now, written once (pure checks).

Every check returns ``None`` when the rules allow the action, or the one sentence a player
reads why not. ``decide`` raises that sentence as ``IllegalAction`` (one check per action,
``..._reason``), ``moves`` offers exactly the actions whose check passes and shows the
sentence beside one that does not, ``inputs`` refuses a foreign card or a seat's button
with it, and ``views`` a seat the game does not have. Every refusal sentence of the game
is in this module, once (tests/games/nasty7/test_legality.py checks it); the rules and
every interpretation are in ``docs/rules/nasty7.md``.

Who may send an action is not checked here: ``ActionSet.admit`` owns it (each action's
``by``, and a field only the host fills, like the ruling an accusation may carry).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.nasty7.fold import ALLEGED
from companion.games.nasty7.state import (
    FIGURES,
    TWINS,
    PileReason,
    State,
    card_phrase,
    deadline,
)
from companion.games.words import listed

#: how long a phone word may be (counted without the spaces around it)
WORD_MOST = 60

NOTHING_TO_ACCUSE = "No card is on the pile: there is nothing to accuse anyone of yet."


def names(state: State, seats: Sequence[int]) -> str:
    """The players' names as a sentence lists them ("Ann, Ben and Cy"), or "nobody"."""
    return listed(state.seats[s] for s in seats) or "nobody"


def accuser_seats(raw: tuple[int, ...] | int) -> tuple[int, ...]:
    """The accusers of an ``accuse`` (its ``by``: one seat or a list)."""
    return (raw,) if isinstance(raw, int) else tuple(raw)


# --- the building blocks ------------------------------------------------------------------


def over_reason(state: State) -> str | None:
    """Nothing is allowed once the game is over."""
    if not state.over:
        return None
    return (
        f"The game is over: {names(state, state.winners)} won. Start a new game to play again."
    )


def seat_reason(state: State, seat: int | None) -> str | None:
    """A seat the game does not have (actions allow up to 12 seats; a game has 2 to 6)."""
    if seat is None or 0 <= seat < state.n_seats:
        return None
    return f"This game has {state.n_seats} players, not {seat + 1}."


def card_reason(state: State, card: str) -> str | None:
    """A card that is not in this game's deck (the twins, in the younger players' version)."""
    if state.options.no_twins and card in TWINS:
        return (
            "This game is played without twins (the version for younger players): "
            "take the twin cards out of the deck."
        )
    return None


def figure_reason(card: str | None) -> str | None:
    """A card on the pile that is not a card of this game at all."""
    if card in FIGURES:
        return None
    return "That card is not a card of The Nasty 7: take it off the pile."


def waiting_reason(state: State) -> str | None:
    """While an accusation waits, the host rules before anything else happens."""
    acc = state.accusation
    if acc is None:
        return None
    verb = "accuses" if len(acc.by) == 1 else "accuse"
    return (
        f"Wait: {names(state, acc.by)} {verb} {state.seats[acc.against]}; "
        "the host must rule first."
    )


def stack_reason(state: State, seat: int) -> str | None:
    """A seat without cards cannot play one."""
    if state.stacks[seat] > 0:
        return None
    return f"{state.seats[seat]} has no cards left to play."


def serial_reason(state: State, serial: int | None) -> str | None:
    """A physical card (its tag's number) already on the pile cannot land there again."""
    if serial is None or serial not in state.pile_serials:
        return None
    return (
        f"Card #{serial} is already on the pile: the same card cannot be played twice. "
        "Put it back where it was."
    )


def last_card_reason(state: State, what: str) -> str | None:
    """Only the last card can be corrected, and only while nothing happened after it."""
    why = waiting_reason(state)
    if why is None and (state.before_card is None or state.last_card is None):
        why = (
            "Only the last card can be corrected, and only before anything else happens: "
            f"use Undo to go back to it, then {what}."
        )
    return why


# --- cards ----------------------------------------------------------------------------------


def play_reason(
    state: State, card: str, seat: int | None = None, serial: int | None = None
) -> str | None:
    """A card on the pile: by the seat to play, or by ``seat`` out of turn.

    Allowed (it ends the game) when a finisher's last card stood until now.
    """
    why = card_reason(state, card) or seat_reason(state, seat) or waiting_reason(state)
    if why is not None or state.finisher is not None:
        return why
    return serial_reason(state, serial) or stack_reason(
        state, state.turn if seat is None else seat
    )


def missed_reason(
    state: State,
    card: str | None = None,
    *,
    by: int | None = None,
    at: float | None = None,
    now: float = 0.0,
) -> str | None:
    """The host adds a card the camera missed, of the seat to play or of ``by`` (``card``
    None: any card; ``at``: when it landed, between the last card and ``now``)."""
    why = (
        (None if card is None else card_reason(state, card))
        or seat_reason(state, by)
        or waiting_reason(state)
    )
    if why is not None or state.finisher is not None:
        return why
    if at is not None:
        earliest = state.landed[-1] if state.landed else 0.0
        if not earliest <= float(at) <= now:
            return (
                f"The missed card must have landed after the last card ({earliest:.1f} s) "
                f"and not after now ({now:.1f} s)."
            )
    return stack_reason(state, state.turn if by is None else by)


def reassign_reason(state: State, seat: int) -> str | None:
    """The host gives the last card to ``seat`` (a seat not to play takes the pile)."""
    why = last_card_reason(state, "say who played it") or seat_reason(state, seat)
    if why is not None:
        return why
    before, last = state.before_card, state.last_card
    assert before is not None and last is not None
    if seat == last.seat:
        return f"The last card is already booked to {state.seats[seat]}."
    return stack_reason(before, seat)


def replace_reason(state: State, card: str) -> str | None:
    """The host says which card the last card really was."""
    why = last_card_reason(state, "correct it") or card_reason(state, card)
    if why is not None:
        return why
    assert state.last_card is not None
    if card == state.last_card.card:
        return f"The last card is already {card_phrase(card)}."
    return None


def seen_reason(state: State, card: str, serial: int | None = None) -> str | None:
    """The camera saw a card of the game outside every zone: the host will be asked (even
    while an accusation waits: the camera reports a card once, and nothing it saw leaves
    without an answer)."""
    why = serial_reason(state, serial) or card_reason(state, card)
    if state.options.seen_one_at_a_time:  # records before 3: it replaces the one waiting
        return why
    if why is None and serial is not None and any(s.serial == serial for s in state.seen_beside):
        why = f"Card #{serial} already waits for the host's answer: it was seen beside the pile."
    return why


def count_seen_reason(state: State, count: bool, which: int | None = None) -> str | None:
    """The host counts a card seen beside the pile (``which``: its place in the queue,
    ``None`` the latest; played when it landed, by the seat to play now), or not."""
    if not state.seen_beside:
        return "No card seen beside the pile is waiting for an answer."
    if which is not None and which >= len(state.seen_beside):
        return "That card seen beside the pile no longer waits for an answer: choose one that does."
    if not count:
        return None
    why = waiting_reason(state)
    if why is not None or state.finisher is not None:
        return why
    return stack_reason(state, seen_counted_for(state, which))


def name_landed_reason(
    state: State, card: str | None = None, which: int | None = None
) -> str | None:
    """The host names a card that landed unread (``which``: its place in the queue,
    ``None`` the latest; played when it landed, by the seat to play now), or says nothing
    landed (``card`` None)."""
    if not state.unread:
        return "No card that the camera could not read is waiting for an answer."
    if which is not None and which >= len(state.unread):
        return "That card no longer waits for an answer: choose one that does."
    if card is None:
        return None
    why = card_reason(state, card) or waiting_reason(state)
    if why is not None or state.finisher is not None:
        return why
    return stack_reason(state, state.turn)


def seen_counted_for(state: State, which: int | None = None) -> int:
    """Whose card a counted card seen beside the pile is: the seat to play now (records
    before version 3, ``seen_one_at_a_time``: the seat that was to play when it was seen)."""
    if state.options.seen_one_at_a_time:
        return state.seen_beside[-1 if which is None else which].seat
    return state.turn


def out_of_turn_why(state: State, seat: int) -> PileReason:
    """Why ``seat``'s card now costs it the pile: it had to skip, or it was not next."""
    return "played_when_skipping" if seat == state.skipped else "out_of_turn"


# --- accusations ----------------------------------------------------------------------------


def accuse_reason(
    state: State,
    by: tuple[int, ...] | int,
    against: int | None = None,
    kind: str = "",
    upheld: bool | None = None,
) -> str | None:
    """``by`` accuse ``against`` (the player of the last card) of ``kind`` (``""``: not
    said), or join the waiting accusation; with ``upheld`` (the host's entry) it is settled
    at once."""
    seats = accuser_seats(by)
    if not seats:
        return "Choose who accuses first."
    why = next((w for w in (seat_reason(state, s) for s in seats) if w is not None), None)
    if why is not None:
        return why
    if len(set(seats)) != len(seats):
        return "The same player is named twice among the accusers."
    why = seat_reason(state, against)
    pending = state.accusation
    if pending is None:
        if not state.pile or state.last_player is None:
            return NOTHING_TO_ACCUSE
        if why is None and against != state.last_player:
            why = (
                f"Only the player of the last card ({state.seats[state.last_player]}) "
                "can be accused; record anything else as a mistake."
            )
    else:
        accused = state.seats[pending.against]
        if why is None and against not in (None, pending.against):
            why = f"An accusation against {accused} waits for the host's ruling; settle it first."
        if why is None and kind and pending.kind and kind != pending.kind:
            why = (
                f"{accused} is already accused of {ALLEGED.get(pending.kind, 'a mistake')}: "
                "join that accusation, or wait for the host's ruling."
            )
        against = pending.against
    if why is not None:
        return why
    assert against is not None
    if against in seats:
        return f"{state.seats[against]} played the last card and cannot accuse themselves."
    if upheld is None and pending is not None and all(s in pending.by for s in seats):
        return (
            f"{names(state, seats)} already accused {state.seats[against]}: "
            "the host must now rule."
        )
    return None


def accused(state: State) -> int | None:
    """Whom an accusation now is against: the waiting one's accused, else the player of
    the last card (``None`` before a round's first card)."""
    return state.accusation.against if state.accusation is not None else state.last_player


def rule_reason(state: State) -> str | None:
    """The host rules on the waiting accusation."""
    if state.accusation is None:
        return "No accusation is waiting for a ruling."
    return None


def withdraw_reason(state: State) -> str | None:
    """The host drops the waiting accusation."""
    if state.accusation is None:
        return "No accusation is waiting: nothing to withdraw."
    return None


# --- penalties ------------------------------------------------------------------------------


def mistake_reason(state: State, seat: int | None = None) -> str | None:
    """The host records a mistake of ``seat``: it takes the pile."""
    why = seat_reason(state, seat) or waiting_reason(state)
    if why is None and not state.pile:
        why = "No card is on the pile: a mistake counts only after a card was played."
    return why


def hesitation_reason(state: State, against: int | None = None) -> str | None:
    """The host saw the seat to play hesitate (``against``: that seat, to check)."""
    why = waiting_reason(state)
    if why is None and not state.pile:
        why = "No card is on the pile: the first card of a round may take its time."
    if why is None and against is not None:
        why = seat_reason(state, against)
        if why is None and against != state.turn:
            why = f"Only the player to play ({state.seats[state.turn]}) can hesitate now."
    return why


def deadline_reason(state: State, now: float) -> str | None:
    """The clock: the seat to play hesitated past its deadline (or the finisher won)."""
    due = deadline(state)
    if due is None or now < due:
        return "No deadline is due now."
    return None


# --- the nasty rule ---------------------------------------------------------------------------


def word_reason(state: State, seat: int | None = None, text: str | None = None) -> str | None:
    """The player of the round's first phone chooses the round's phone word (``seat``
    None: the host enters it; ``text`` None: whatever word)."""
    word = state.options.word
    if not state.options.nasty:
        return (
            f"The nasty rule is off: phones are answered with '{word}'. Start a game with "
            "the nasty rule to choose words."
        )
    if state.round_no < state.options.nasty_from:
        return (
            f"The first round is played with '{word}': players choose the word "
            f"from round {state.options.nasty_from}."
        )
    chooser = state.word_seat
    if chooser is None:
        return (
            "No phone has been played this round: the player of the "
            "round's first phone chooses the word."
        )
    if state.word_set:
        return f"The word for this round is already '{state.word}'."
    why = seat_reason(state, seat)
    if why is None and seat is not None and seat != chooser:
        why = f"Only {state.seats[chooser]} (first phone of the round) chooses the word."
    if why is None and text is not None and not 0 < len(text.strip()) <= WORD_MOST:
        why = f"The word must be 1 to {WORD_MOST} characters long."
    return why


def word_chooser(state: State) -> int | None:
    """The seat that may still choose this round's phone word, or ``None``."""
    return state.word_seat if word_reason(state) is None else None
