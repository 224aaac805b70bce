"""The Nasty 7: what each player and the host may do now (``moves``), and what the table
waits for (``waiting``).

A card is played from the top of a hidden stack: the camera sees it (``play`` is sent by
the table), so a seat's only moves are to accuse the player of the last card (with or
without saying what is wrong) or to join a waiting accusation. The host (``seat=None``)
rules on an accusation, records mistakes and hesitations, corrects the last card, adds a
card the camera missed, enters a card by hand and may enter a whole accusation (the
accusers, and the ruling at once). ``play`` is the camera's action: a card by hand is a
``missed_card`` of the player to play (and "the last card was played by", ``reassign``,
when another player put it down).

Every move is what ``legality`` allows: the same ``..._reason`` functions ``decide``
calls pick the choices, and a move that is not allowed shows their sentence.

Under the nasty rule the player of the round's first phone also chooses the round's
phone word: a ``word`` move with a ``text`` parameter (1 to 60 characters), offered to
that seat only, while the word is still to choose (the seat ``waiting`` asks for it).
"""

from __future__ import annotations

from companion.games.moves import Choice, Move, Param, Waiting
from companion.games.nasty7.fold import ALLEGED, WHY
from companion.games.nasty7.fold import cards as n_cards
from companion.games.nasty7.legality import (
    WORD_MOST,
    accuse_reason,
    accused,
    card_reason,
    count_seen_reason,
    hesitation_reason,
    last_card_reason,
    missed_reason,
    mistake_reason,
    name_landed_reason,
    out_of_turn_why,
    reassign_reason,
    replace_reason,
    rule_reason,
    seen_counted_for,
    withdraw_reason,
    word_chooser,
    word_reason,
)
from companion.games.nasty7.state import (
    ACCUSE_KINDS,
    CARDS,
    MISTAKES,
    Accusation,
    State,
    card_name,
    card_phrase,
    number_for,
)
from companion.games.words import listed

#: mistakes as the rules name them (the host's choices)
MISTAKE_LABELS = {
    "wrong_number": "Said the wrong number",
    "wrong_word": "Said the wrong word or sound",
    "spoke_on_gun": "Spoke on a gun",
}

#: what a seat may accuse the last player of (the phone's buttons)
ACCUSE_LABELS = {
    "wrong_number": "Wrong count",
    "wrong_word": "Wrong word",
    "spoke_on_gun": "Spoke on a gun",
    "hesitation": "Too slow (over {s:g} s)",
}


#: the host's "not upheld" ruling, as both ruling moves say it
NOT_UPHELD = "Not upheld: the accusers take the pile"

def moves(state: State, seat: int | None) -> list[Move]:
    """What ``seat`` (``None``: the host) may do now; nothing once the game is over."""
    if state.over:
        return []
    if seat is None:
        return _host_moves(state)
    if not 0 <= seat < state.n_seats:
        return []
    return _accuse_moves(state, seat) + _word_moves(state, seat)


# --- a seat ---------------------------------------------------------------------------


def _kind_param(state: State, kinds: tuple[str, ...]) -> Param:
    return Param(
        "kind",
        "What is wrong?",
        choices=tuple(
            Choice(k, ACCUSE_LABELS[k].format(s=state.options.hesitation_s)) for k in kinds
        ),
    )


def _accuse_moves(state: State, seat: int) -> list[Move]:
    """Accuse the player of the last card (saying what is wrong, or not), or join."""
    against = accused(state)
    why = accuse_reason(state, (seat,), against)
    if why is not None:
        return [Move("accuse", "Accuse", {"seat": seat}, group="accuse", allowed=False, why=why)]
    assert against is not None
    pending = state.accusation
    name = state.seats[against]
    fixed = {"seat": seat, "by": [seat], "against": against}
    if pending is None:
        plain, which = f"Accuse {name}", f"Accuse {name} of a mistake"
    else:  # joining: the same allegation, or none
        plain = f"Join the accusation against {name}"
        which = f"Join: {name} is accused of {ALLEGED.get(pending.kind, 'a mistake')}"
    out = [Move("accuse", plain, fixed, group="accuse")]
    kinds = _kinds(state, (seat,))
    if kinds:
        out.append(Move("accuse", which, fixed, (_kind_param(state, kinds),), group="accuse"))
    return out


def _kinds(state: State, by: tuple[int, ...]) -> tuple[str, ...]:
    """What ``by`` may allege now. Joining an accusation that alleges nothing in particular
    they allege nothing either: ``decide`` would take a named mistake and drop it."""
    pending = state.accusation
    if pending is not None and not pending.kind:
        return ()
    return tuple(k for k in ACCUSE_KINDS if accuse_reason(state, by, accused(state), k) is None)


def _word_moves(state: State, seat: int) -> list[Move]:
    """Nasty rule: the player of the round's first phone chooses the round's word."""
    if word_reason(state, seat) is not None:
        return []
    text = Param("text", "What do phones say this round?", "text", minimum=1, maximum=WORD_MOST)
    return [Move("word", "Choose the phone word", {"seat": seat}, (text,))]


# --- the host -------------------------------------------------------------------------


def _host_moves(state: State) -> list[Move]:
    if rule_reason(state) is None:  # an accusation waits for the host's ruling
        assert state.accusation is not None
        return _ruling_moves(state, state.accusation)
    out = [*_landed_moves(state), *_seen_moves(state), _hand_move(state),
           *_out_of_turn_moves(state),
           *_host_accusations(state)]
    if mistake_reason(state) is None:
        out.append(_mistake_move(state))
    if hesitation_reason(state) is None:
        out.append(
            Move(
                "hesitation",
                f"{state.seats[state.turn]} hesitated (more than {state.options.hesitation_s:g} s)",
                group="penalty",
            )
        )
    out += _corrections(state)
    return out


def clock_time(t: float) -> str:
    """Game time as a clock shows it: "0:07", "12:45" (minutes since the start)."""
    whole = int(t)
    return f"{whole // 60}:{whole % 60:02d}"


def _seen_moves(state: State) -> list[Move]:
    """Each card seen beside the pile: the host counts it (a card of the player to play,
    landed when it was seen) or ignores it; one answer per card, oldest first."""
    queue = state.seen_beside
    out = []
    for which, seen in enumerate(queue):
        name, card = state.seats[seen_counted_for(state, which)], card_phrase(seen.card)
        when = f" (seen at {clock_time(seen.at)})" if len(queue) > 1 else ""
        labels = {True: f"Count it: {name} played {card}{when}",
                  False: f"Ignore {card}{when}: not a card played" if when
                  else "Ignore it: not a card played"}
        out += [Move("count_seen", label, {"count": count, "which": which},
                     group="seen_beside_the_pile")
                for count, label in labels.items()
                if count_seen_reason(state, count, which) is None]
    return out


#: the host's question about a card that landed unread
LANDED_QUESTION = "A card landed on the pile that the camera could not read: which card?"


def _landed_moves(state: State) -> list[Move]:
    """Each card that landed unread: the host names it (a card of the player to play,
    landed when the camera saw it land) or says nothing landed; oldest first."""
    out = []
    for which, landed in enumerate(state.unread):
        when = f" at {clock_time(landed.at)}"
        if name_landed_reason(state, deck(state)[0], which) is None:
            name = state.seats[state.turn]
            out.append(Move("name_landed", f"Which card did {name} play{when}?",
                            {"which": which},
                            (_cards_param(deck(state), "The card that landed"),),
                            group="landed_unread"))
        if name_landed_reason(state, None, which) is None:
            out.append(Move("name_landed", f"Nothing landed{when}", {"which": which},
                            group="landed_unread"))
    return out


def landed_sentence(state: State) -> str | None:
    """The host's question about the cards that landed unread, or ``None``."""
    n = len(state.unread)
    if not n:
        return None
    if n == 1:
        return LANDED_QUESTION
    return f"{n} cards landed on the pile that the camera could not read: name each one."


def seen_sentence(state: State) -> str | None:
    """The host's question about the cards seen beside the pile, or ``None``."""
    queue = state.seen_beside
    if not queue:
        return None
    if len(queue) == 1:
        seen = queue[0]
        return (f"{state.seats[seen.seat]}'s card ({card_name(seen.card)}) was seen beside "
                "the pile: count it?")
    return f"{len(queue)} cards were seen beside the pile: count or ignore each one."


def _ruling_moves(state: State, acc: Accusation) -> list[Move]:
    name = state.seats[acc.against]
    out = [
        Move("rule", f"Upheld: {name} takes the pile", {"upheld": True}, group="rule"),
        Move("rule", NOT_UPHELD, {"upheld": False}, group="rule"),
    ]
    if withdraw_reason(state) is None:
        out.append(Move("withdraw", "Withdrawn: no penalty", group="rule"))
    out += _seen_moves(state)  # "ignore it" only: counting it waits for the ruling
    out += _landed_moves(state)  # "nothing landed" only, likewise
    more = _accusers(state, acc.against)
    if more:
        out.append(
            Move(
                "accuse",
                f"More players accuse {name}",
                {"against": acc.against},
                (_seats_param(state, more, "Who else accuses?"),),
                group="accuse",
            )
        )
    out.append(_hand_move(state))  # not now: the sentence says why
    return out


def _accusers(state: State, against: int) -> tuple[int, ...]:
    """The seats that may accuse ``against`` (or join the accusation against them) now."""
    return tuple(s for s in range(state.n_seats) if accuse_reason(state, (s,), against) is None)


def _seats_param(state: State, seats: tuple[int, ...], label: str) -> Param:
    return Param("by", label, "some", tuple(Choice(s, state.seats[s]) for s in seats))


def _cards_param(cards: tuple[str, ...], label: str) -> Param:
    return Param("card", label, choices=tuple(Choice(c, card_name(c)) for c in cards))


def deck(state: State) -> tuple[str, ...]:
    """The kinds of card in this game's deck (no twins in the younger players' version)."""
    return tuple(c for c in CARDS if card_reason(state, c) is None)


def _host_accusations(state: State) -> list[Move]:
    """A whole accusation entered by the host: the accusers, what (or not), the ruling."""
    against = state.last_player
    seats = () if against is None else _accusers(state, against)
    if against is None or not seats:
        return []
    name = state.seats[against]
    accusers = _seats_param(state, seats, "Who accuses?")
    kinds = _kind_param(state, _kinds(state, seats[:1]))
    upheld = Param(
        "upheld",
        "The ruling",
        choices=(
            Choice(True, f"Upheld: {name} takes the pile"),
            Choice(False, NOT_UPHELD),
        ),
    )
    fixed = {"against": against}
    return [
        Move("accuse", f"Accuse {name}", fixed, (accusers,), group="accuse"),
        Move("accuse", f"Accuse {name} of a mistake", fixed, (accusers, kinds), group="accuse"),
        Move("accuse", f"Accuse {name} and rule", fixed, (accusers, upheld), group="accuse"),
        Move(
            "accuse",
            f"Accuse {name} of a mistake and rule",
            fixed,
            (accusers, kinds, upheld),
            group="accuse",
        ),
    ]


def _mistake_move(state: State) -> Move:
    return Move(
        "mistake",
        "Record a mistake",
        params=(
            Param(
                "seat",
                "Who made it?",
                choices=tuple(
                    Choice(s, state.seats[s])
                    for s in range(state.n_seats)
                    if mistake_reason(state, s) is None
                ),
            ),
            Param(
                "kind",
                "Which mistake?",
                choices=tuple(Choice(k, MISTAKE_LABELS[k]) for k in MISTAKES),
            ),
        ),
        group="penalty",
    )


def _corrections(state: State) -> list[Move]:
    """Who really played the last card, which card it was, a card the camera missed."""
    out = []
    if last_card_reason(state, "correct it") is None:
        others = tuple(s for s in range(state.n_seats) if reassign_reason(state, s) is None)
        if others:
            out.append(
                Move(
                    "reassign",
                    "The last card was played by",
                    params=(
                        Param(
                            "by",
                            "Who played it?",
                            choices=tuple(Choice(s, state.seats[s]) for s in others),
                        ),
                    ),
                    group="correct",
                )
            )
        cards = tuple(c for c in CARDS if replace_reason(state, c) is None)
        out.append(
            Move(
                "replace_card",
                "The last card was really",
                params=(_cards_param(cards, "Which card?"),),
                group="correct",
            )
        )
    if missed_reason(state) is None:
        cards = tuple(c for c in CARDS if missed_reason(state, c) is None)
        ago = Param(
            "ago", "How many seconds ago did it land?", "number", minimum=0, maximum=60, step=0.5
        )
        out.append(
            Move(
                "missed_card",
                f"The camera missed a card of {state.seats[state.turn]}",
                params=(_cards_param(cards, "Which card?"), ago),
                group="correct",
            )
        )
    return out


def _hand_move(state: State) -> Move:
    """A card entered by hand (the camera is off, or missed it just now): a card of the
    player to play, landed now (the big button: it is the usual case); or why not now."""
    why = missed_reason(state)
    if why is not None:
        return Move("missed_card", "Enter a card by hand", group="card", allowed=False, why=why)
    cards = tuple(c for c in CARDS if missed_reason(state, c) is None)
    name = state.seats[state.turn]
    return Move("missed_card", f"{name} played a card",
                params=(_cards_param(cards, f"Which card did {name} play?"),), group="card")


def _out_of_turn_moves(state: State) -> list[Move]:
    """A card entered by hand that another player put down: it costs that player the pile,
    so the host is asked once more (yes: that player takes the pile; no: it was the seat
    to play's card after all)."""
    if missed_reason(state) is not None or state.finisher is not None:
        return []
    out = []
    turn = state.seats[state.turn]
    for seat in range(state.n_seats):
        if seat == state.turn or missed_reason(state, by=seat) is not None:
            continue
        name = state.seats[seat]
        cards = tuple(c for c in CARDS if missed_reason(state, c, by=seat) is None)
        why = WHY[out_of_turn_why(state, seat)].format(o=name, s=state.options.hesitation_s)
        sure = Param(
            "by",
            f"{why}: {name} takes the pile ({n_cards(len(state.pile) + 1)} with this one) "
            "and starts the next round. Is that right?",
            choices=(Choice(seat, f"Yes: {name} takes the pile", costly=True),
                     Choice(state.turn, f"No: {turn} played it")),
        )
        # never the look of the seat to play's card: this one costs a player the pile
        out.append(Move("missed_card", f"{name} played out of turn (takes the pile)",
                        params=(_cards_param(cards, f"Which card did {name} play?"), sure),
                        group="out_of_turn", costly=True))
    return out


# --- what the table waits for ---------------------------------------------------------


def waiting(state: State) -> Waiting:
    """Who must act now and why, in one sentence (the count only on an accusation or a
    penalty, never during play). The player to play acts with a card on the table
    (``on="camera"``); the first phone's player under the nasty rule is asked for the word
    as well; during an accusation the host rules (``on="ruling"``)."""
    names = state.seats
    if state.over:
        who = listed(names[s] for s in state.winners)
        return Waiting((), "over", f"{who} {'wins' if len(state.winners) == 1 else 'win'}!")
    acc = state.accusation
    if acc is not None:
        accusers = listed(names[s] for s in acc.by)
        alleged = f" of {ALLEGED[acc.kind]}" if acc.kind in ALLEGED else ""
        return Waiting(
            (),
            "ruling",
            (
                f"{accusers} accuse{'s' if len(acc.by) == 1 else ''} {names[acc.against]}"
                f"{alleged}: the count was {state.count}, and the host rules whether it is "
                "upheld."
            ),
            host=True,
        )
    why = _play_sentence(state)
    landed = landed_sentence(state)
    if landed is not None:  # the clock waits for the host's answer
        return Waiting((state.turn,), "seen", f"{why}. {landed}", host=True)
    seen = seen_sentence(state)
    if seen is not None:  # the clock waits for the host's answer
        return Waiting((state.turn,), "seen", f"{why}. {seen}", host=True)
    chooser = word_chooser(state)
    if chooser is None:
        return Waiting((state.turn,), "camera", why + ".")
    seats = (state.turn,) if chooser == state.turn else (state.turn, chooser)
    return Waiting(
        seats,
        "camera",
        f"{why}; {names[chooser]} chooses the phone word.",
        asks={chooser: "Choose the phone word for this round."},
    )


def _play_sentence(state: State) -> str:
    """Whose turn it is, and why (without the final full stop)."""
    names = state.seats
    if state.finisher is not None:
        return (
            f"{names[state.finisher]} played their last card: accuse now, "
            f"or {names[state.finisher]} wins"
        )
    reveal = state.reveal
    if reveal is not None and not state.pile:
        said = WHY.get(reveal.why, "{o} was penalised").format(
            o=names[reveal.seat], s=state.options.hesitation_s
        )
        return (
            f"{said}; the count was {number_for(reveal.figures)}; "
            f"{names[state.turn]} starts the next round"
        )
    if not state.pile:
        return f"{names[state.turn]} starts the round"
    skipped = state.skipped
    if skipped is not None and skipped != state.turn:
        return f"{names[skipped]} skips: {names[state.turn]} to play"
    return f"{names[state.turn]} to play"
