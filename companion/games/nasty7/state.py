"""The Nasty 7: options, state and the count (events are in ``nasty7.events``).

Everything here is a value: ``State`` is a frozen dataclass, and
``number_for(n)`` is the number a player must say when ``n`` racketeers lie on the pile
(1, 2, ..., 7, 6, ..., 1, 2, ...; period 12; 0 for an empty pile). Stacks are counted,
not listed: the real deck is shuffled by hand, so nobody (not even the engine) knows
the order of the cards in a stack.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from companion.games.base import Setup, SetupError
from companion.games.cards import catalog

#: card id -> racketeers it adds to the count (the issue's "figures")
FIGURES: dict[str, int] = {
    "racketeer": 1,
    "twin_racketeer": 2,
    "phone": 1,
    "twin_phone": 2,
    "gun": 1,
}
CARDS: tuple[str, ...] = tuple(FIGURES)
TWINS: frozenset[str] = frozenset({"twin_racketeer", "twin_phone"})
PHONES: frozenset[str] = frozenset({"phone", "twin_phone"})

#: kinds of a recorded mistake (``{"do": "mistake", "kind": ...}``)
MistakeKind = Literal["wrong_number", "wrong_word", "spoke_on_gun"]
MISTAKES: tuple[str, ...] = get_args(MistakeKind)

#: what an accusation alleges (``{"do": "accuse", "kind": ...}``); ``""``: not said
AccuseKind = Literal["wrong_number", "wrong_word", "spoke_on_gun", "hesitation"]
ACCUSE_KINDS: tuple[str, ...] = get_args(AccuseKind)

#: why a pile was taken (``PileTaken.why``): the mistakes plus these
PileReason = Literal[
    MistakeKind,
    "hesitation",
    "out_of_turn",
    "played_when_skipping",
    "upheld",
    "not_upheld",
]
PILE_REASONS: tuple[str, ...] = get_args(PileReason)

#: the ``nasty`` option's values: off, from the first round, from the second round
NASTY_CHOICES: tuple[str, ...] = ("off", "first_round", "second_round")
_NASTY_FROM = {"off": 0, "first_round": 1, "second_round": 2, False: 0, True: 1}

#: every card, the whole deck; ``deck_size`` 0 deals it (without twins under ``no_twins``)
WHOLE_DECK = 0

#: why a count is shown to the table (``Reveal.why``): an accusation waits, or a pile move
RevealReason = Literal["accusation", PileReason]

#: option name -> default value (``engine.default_options``)
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "hesitation_s": 3.0,
    "deck_size": WHOLE_DECK,
    "no_twins": False,
    "nasty": "off",
    "even_nastier": False,
    "starter": 0,
    "word": "hmmmrrr",
    #: who times a card the host enters by hand (``HAND_ENTRY_TIMINGS``)
    "hand_entry_timing": "host_rules",
    #: who times the cards while the camera says glare hides tags over the pile
    #: (``GLARE_TIMINGS``)
    "glare_timing": "host_rules",
    #: version-1 records only (``upgrade_options``), so not offered on the setup page
    #: (``None``: off)
    "late_at_limit": None,
    #: version-1 and -2 records only (``upgrade_options``; ``None``: off): one card seen
    #: beside the pile waits at a time, and the next card played or pile taken drops it
    "seen_one_at_a_time": None,
}


#: the ``hand_entry_timing`` option's values: after a card entered by hand the host rules
#: on hesitation (no automatic deadline: the host's typing is no player's hesitation), or
#: the clock runs from the moment the host entered it (as before the option existed)
HAND_ENTRY_TIMINGS: tuple[str, ...] = ("host_rules", "clock")

#: the ``glare_timing`` option's values: while the camera says a lamp's glare would hide a
#: tag over part of the pile, the host rules on hesitation (no automatic deadline: the
#: camera cannot time a card it cannot see; the clock starts again when it sees the whole
#: pile), or the clock runs on regardless (as before the option existed)
GLARE_TIMINGS: tuple[str, ...] = ("host_rules", "clock")

#: options only older records set (``upgrade_options``): no setup control, no label
V1_ONLY_OPTIONS: frozenset[str] = frozenset({"late_at_limit", "seen_one_at_a_time"})


def number_for(figures: int) -> int:
    """The number said for the ``figures``-th racketeer of a round (0 before the first).

    The count runs 1..7 then 6..1 then 2..7 again: neither 7 nor 1 is said twice, so it
    repeats every 12 racketeers.
    """
    if figures <= 0:
        return 0
    m = (figures - 1) % 12
    return m + 1 if m <= 6 else 13 - m


def card_name(card: str) -> str:
    """The card's name as printed in the catalog ("Twin racketeers"), never its id."""
    for c in catalog("nasty7").cards:
        if c.id == card:
            return c.label()
    return card


def card_phrase(card: str) -> str:
    """The card in a sentence: "a Racketeer", "Twin racketeers"."""
    name = card_name(card)
    return name if card in TWINS else f"a {name}"


def deck_cards(no_twins: bool) -> int:
    """Cards in the box (the catalog's counts), without the twins for ``no_twins``."""
    cards = catalog("nasty7").cards
    return sum(c.count for c in cards if not (no_twins and c.id in TWINS))


@dataclass(frozen=True)
class Options:
    """The options of one game, checked (see ``DEFAULT_OPTIONS``).

    ``deck_size`` is the number of cards dealt (``WHOLE_DECK`` already resolved);
    ``nasty_from`` is the first round whose first phone chooses the word (0: never).
    """

    hesitation_s: float = 3.0
    deck_size: int = 110
    no_twins: bool = False
    nasty_from: int = 0
    even_nastier: bool = False
    starter: int = 0
    word: str = "hmmmrrr"
    #: a card at exactly ``hesitation_s`` is late (version-1 records; the rules say "more
    #: than 3 seconds", so it is in time by default)
    late_at_limit: bool = False
    #: ``hand_entry_timing`` is ``"clock"``: a card entered by hand starts the clock
    hand_clock: bool = False
    #: ``glare_timing`` is ``"clock"``: the clock runs while glare hides part of the pile
    glare_clock: bool = False
    #: records of versions 1 and 2: a card seen beside the pile replaces the one waiting,
    #: and the next card played (or entered, or a pile taken, the game's end) drops it
    seen_one_at_a_time: bool = False

    @property
    def nasty(self) -> bool:
        """Whether the nasty rule (players choose the phone word) is on at all."""
        return self.nasty_from > 0


def parse_options(raw: Mapping[str, Any], n_seats: int) -> Options:
    """The checked options of a game of ``n_seats`` (``raw`` merged with the defaults);
    ``SetupError`` says what to change."""
    opts = {**DEFAULT_OPTIONS, **raw}
    hes = opts["hesitation_s"]
    if isinstance(hes, bool) or not isinstance(hes, int | float) or not 0 < hes <= 60:
        raise SetupError(f"nasty7: hesitation_s must be seconds between 0 and 60, got {hes!r}")
    deck = opts["deck_size"]
    if deck == WHOLE_DECK and not isinstance(deck, bool):
        deck = deck_cards(opts["no_twins"] is True)
    if isinstance(deck, bool) or not isinstance(deck, int) or deck < n_seats:
        raise SetupError(
            f"nasty7: deck_size must be a whole number of at least {n_seats} "
            f"(one card per player), or 0 for the whole deck, got {deck!r}"
        )
    starter = opts["starter"]
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < n_seats:
        raise SetupError(f"nasty7: starter must be a seat from 0 to {n_seats - 1}, got {starter!r}")
    for hidden in ("late_at_limit", "seen_one_at_a_time"):
        if opts[hidden] is not None and not isinstance(opts[hidden], bool):
            raise SetupError(
                f"nasty7: {hidden} must be true, false or null, got {opts[hidden]!r}")
    late = opts["late_at_limit"]
    for flag in ("no_twins", "even_nastier"):
        if not isinstance(opts[flag], bool):
            raise SetupError(f"nasty7: {flag} must be true or false, got {opts[flag]!r}")
    nasty = opts["nasty"]
    if not isinstance(nasty, bool | str) or nasty not in _NASTY_FROM:
        raise SetupError(
            f"nasty7: nasty must be one of {', '.join(NASTY_CHOICES)} (or true/false), "
            f"got {nasty!r}"
        )
    word = opts["word"]
    if not isinstance(word, str) or not word.strip():
        raise SetupError(f"nasty7: word must be the non-empty phone word, got {word!r}")
    timing, glare = (_choice(opts, name, values) for name, values in (
        ("hand_entry_timing", HAND_ENTRY_TIMINGS), ("glare_timing", GLARE_TIMINGS)))
    return Options(
        float(hes),
        deck,
        opts["no_twins"],
        _NASTY_FROM[nasty],
        opts["even_nastier"],
        starter,
        word.strip(),
        late is True,
        timing == "clock",
        glare == "clock",
        opts["seen_one_at_a_time"] is True,
    )


def _choice(opts: Mapping[str, Any], name: str, values: Sequence[str]) -> str:
    """Option ``name``, one of ``values``, or ``SetupError`` naming them."""
    value = opts[name]
    if not isinstance(value, str) or value not in values:
        raise SetupError(f"nasty7: {name} must be one of {', '.join(values)}, got {value!r}")
    return value


#: the cards a version-1 record dealt when its header named no ``deck_size`` (the default
#: was 110 then, with or without twins; since 418b880 the default 0 deals the whole deck)
V1_DECK_SIZE = 110


def upgrade_options(version: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that give a record of format ``version`` the meaning it had when written.

    Version 1 (up to 419f6ec): ``deck_size`` defaulted to 110 cards even without twins
    (the whole deck is dealt since); a card at exactly ``hesitation_s`` after the last one
    was late (``late_at_limit``: the table penalised it then, and the record's later lines
    follow from that); ``nasty`` was true/false (still read: true is ``first_round``).

    Versions 1 and 2 (up to 9b05956): a card the host entered by hand (``missed_card``)
    started the next player's clock when it was entered, and a hesitation penalty
    followed automatically: ``hand_entry_timing`` is ``"clock"`` unless the header names
    it (the option, and its default ``"host_rules"``, came with 0df0111). One card seen
    beside the pile waited at a time and the next play dropped it, so the clock ran
    again (``seen_one_at_a_time``; the queue came with 0df0111 too). A version-2 header
    that names ``hand_entry_timing`` was written by 0df0111 or later (the code before
    refused an option it did not know): its cards seen beside the pile queue.
    """
    out = dict(options)
    if version < 2:
        out.setdefault("deck_size", V1_DECK_SIZE)
        out.setdefault("late_at_limit", True)
    if version < 3 and "hand_entry_timing" not in options:
        out["hand_entry_timing"] = "clock"
        out.setdefault("seen_one_at_a_time", True)
    return out


def upgrade_action(version: int, line: Mapping[str, Any]) -> dict[str, Any]:
    """One line of a record of format ``version`` as it was read then.

    Version 1 ignored an ``accuse`` line's ``kind`` (any value, and a joining accuser
    could name another one than the first): it is dropped, so the accusation alleges
    nothing in particular, as it did then.
    """
    out = dict(line)
    if version < 2 and out.get("do") == "accuse":
        out.pop("kind", None)
    return out


@dataclass(frozen=True)
class Accusation:
    """An accusation waiting for the host's ruling: ``by`` accuse ``against``."""

    by: tuple[int, ...]
    against: int
    kind: str = ""


@dataclass(frozen=True)
class Reveal:
    """A count shown to the whole table: ``figures`` racketeers, and why it is shown.

    ``why`` is ``"accusation"`` while an accusation waits, else a ``PILE_REASONS`` value;
    ``seat`` is the accused or penalised seat.
    """

    figures: int
    why: RevealReason
    seat: int


@dataclass(frozen=True)
class Dispute:
    """The latest decided dispute, for its replay clip: a hesitation or an accusation.

    ``n`` counts the game's disputes (1, 2, ...); ``seat`` is the penalised or accused
    seat; ``start`` is when the card before the disputed moment landed and ``end`` when it
    was decided (game time); ``seconds`` is the gap the 3-second rule looks at (``None``
    when it does not apply); ``upheld`` for an accusation.
    """

    n: int
    kind: str
    seat: int
    start: float
    end: float
    seconds: float | None = None
    upheld: bool | None = None
    alleged: str = ""


@dataclass(frozen=True)
class CardPlayed:
    """``seat`` put ``card`` on the pile at game time ``at``; ``in_turn`` False: out of turn.

    An event (``events.py`` lists it with the others); defined here because the state keeps
    the last one (``State.last_card``) to correct who played it or which card it was.
    """

    seat: int
    card: str
    at: float
    in_turn: bool = True
    serial: int | None = None


@dataclass(frozen=True)
class SeenCard:
    """A card of the game the camera saw outside every zone while ``seat`` was to play.

    The host is asked whether it counts; ``at`` is when it landed there (game time).
    """

    seat: int
    card: str
    at: float
    serial: int | None = None


@dataclass(frozen=True)
class UnreadCard:
    """A card the camera saw land on the pile at ``at`` (game time) but could not read
    (a lamp's glare over its tag), while ``seat`` was to play: the host says which card."""

    seat: int
    at: float


@dataclass(frozen=True)
class State:
    """The whole table: stacks (card counts), the pile, the count, whose turn.

    ``timer_from`` is when the hesitation clock started (the last card landed, or an
    accusation was withdrawn); ``None`` before a round's first card. ``finisher`` is a
    seat that has just played its last card: it wins unless an upheld accusation or a
    mistake against it comes before the next play (or the hesitation deadline).
    """

    seats: tuple[str, ...]
    options: Options
    stacks: tuple[int, ...]
    out_of_game: int
    pile: tuple[str, ...] = ()
    pile_serials: tuple[int | None, ...] = ()
    figures: int = 0
    turn: int = 0
    last_player: int | None = None
    round_no: int = 1
    round_starter: int = 0
    timer_from: float | None = None
    word: str = "hmmmrrr"
    word_seat: int | None = None
    word_set: bool = False
    accusation: Accusation | None = None
    reveal: Reveal | None = None
    finisher: int | None = None
    winners: tuple[int, ...] = ()
    over: bool = False
    plays: int = 0
    #: landing times of this round's cards (the dispute clip and the hesitation gap)
    landed: tuple[float, ...] = ()
    dispute: Dispute | None = None
    #: the cards seen beside the pile, oldest first, each waiting for the host's answer
    #: (no hesitation penalty while any waits; a play does not clear them)
    seen_beside: tuple[SeenCard, ...] = ()
    #: the cards the camera saw land on the pile but could not read, oldest first, each
    #: waiting for the host to say which card it was (no hesitation penalty meanwhile)
    unread: tuple[UnreadCard, ...] = ()
    #: when the cards landed that the host named after they landed unread (the last
    #: ``NAMED_KEPT``): the camera reading one later books nothing more
    named: tuple[float, ...] = ()
    #: the last card was entered by hand and the host rules on hesitation
    #: (``hand_entry_timing`` ``"host_rules"``): no automatic deadline until the next card
    untimed: bool = False
    #: the camera says a lamp's glare would hide a tag over part of the pile
    #: (``PileSightChanged``): under ``glare_timing`` ``"host_rules"`` no automatic deadline
    blind: bool = False
    #: the serials of the last pile taken: its cards are swept off the table, not played
    swept: tuple[int | None, ...] = ()
    #: (seat, own cards left) of each seat that took the last pile: the pile went to the
    #: bottom of its stack, so once it has played its own cards, the next ones are the
    #: swept cards, played for real (``swept`` is emptied then)
    swept_own: tuple[tuple[int, int], ...] = ()
    #: the recent lines of the game, in words; the last is what Undo takes back
    log: tuple[str, ...] = ()
    #: the state before the last card and that card, while nothing happened since
    #: (``reassign`` and ``replace_card`` re-play it); never compared
    before_card: State | None = field(default=None, compare=False, repr=False)
    last_card: CardPlayed | None = field(default=None, compare=False, repr=False)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def count(self) -> int:
        """The number that was due for the last racketeer on the pile (0: empty pile)."""
        return number_for(self.figures)

    @property
    def skipped(self) -> int | None:
        """The seat that must skip because of the twin on top of the pile, if any."""
        if not self.pile or self.last_player is None or self.pile[-1] not in TWINS:
            return None
        return (self.last_player + 1) % self.n_seats


def deadline(state: State) -> float | None:
    """When the seat to play is penalised for hesitating (game time), or ``None``.

    No deadline before a round's first card, while an accusation waits or a card seen
    beside the pile (or one that landed unread) waits for the host, after a card the host
    entered by hand (under ``hand_entry_timing`` ``"host_rules"``: the host rules on
    hesitation), while the camera says glare hides part of the pile (under
    ``glare_timing`` ``"host_rules"``), or once the game is over. The rules penalise hesitating *more than* ``hesitation_s``: a card at exactly
    ``timer_from + hesitation_s`` is in time, so the deadline falls one microsecond later
    (times are rounded to microseconds, so 1.2 + 3.0 compares exactly with 4.2). With
    ``late_at_limit`` (version-1 records) the deadline is that moment itself.
    """
    if state.over or state.accusation is not None or state.timer_from is None:
        return None
    if state.seen_beside or state.unread:  # a card was seen: the host decides, not the clock
        return None
    if state.untimed:  # the host typed the last card in: the host rules on hesitation
        return None
    if state.blind and not state.options.glare_clock:  # it cannot time what it cannot see
        return None
    tick = 0.0 if state.options.late_at_limit else TICK
    return round(state.timer_from + state.options.hesitation_s + tick, 6)


#: the clock's resolution: a deadline falls this long after the allowed time
TICK = 0.000001

#: how many landing times of named unread cards ``State.named`` keeps
NAMED_KEPT = 8


def same_landing(times: Sequence[float], at: float) -> int | None:
    """The place in ``times`` of the landing the camera dated ``at`` (it read that card
    later where the landing lay: the same time, within ``SAME_LANDING_S``), or ``None``."""
    return next((i for i, t in enumerate(times) if abs(t - at) <= SAME_LANDING_S), None)


#: two landing times this close are one landing (a camera's frames are 10 ms apart or more)
SAME_LANDING_S = 0.001


def start(setup: Setup) -> State:
    """The dealt table: ``deck_size // seats`` cards each, the rest back in the box.

    ``setup.options`` are merged with the defaults (``Engine.new_game`` does it too); raises
    ``SetupError`` for a bad option value.
    """
    options = parse_options(setup.options, setup.n_seats)
    each, left = divmod(options.deck_size, setup.n_seats)
    return State(
        seats=tuple(setup.seats),
        options=options,
        stacks=(each,) * setup.n_seats,
        out_of_game=left,
        turn=options.starter,
        round_starter=options.starter,
        word=options.word,
    )
