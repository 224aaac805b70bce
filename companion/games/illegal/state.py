"""Illegal: the state, its options (and what older records meant by them), ``start``.

The state is what the table can know: tableaux, hand *sizes*, the draw pile count, the
face-up discard pile, cards made public (Tax Inspection, the end-of-hand reveal). It never
holds a hidden hand. Card data (kinds, values, counts) comes from ``deck``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from companion.games.base import Setup, SetupError

HAND_SIZE = 7
LOG_KEPT = 8
#: the deck's 108 cards, before the hands are dealt
DEALT_PILE = 108

#: The phases of a hand.
Phase = Literal["turn", "more", "ending", "choose", "over"]
TURN: Phase = "turn"  # the active seat must play or discard
MORE: Phase = "more"  # the active seat may add a card (legal after illegal, triple after single)
ENDING: Phase = "ending"  # the turn is over, its loss and draw follow (never seen between actions)
CHOOSE: Phase = "choose"  # the active seat must choose its end-of-turn loss
OVER: Phase = "over"  # the hand ended: seats reveal, then the hand is scored

#: Why a hand ended.
EndedBy = Literal["day_of_accounting", "draw_pile_empty", "hand_empty"]
#: The cards that take over a business (the ``via`` of a takeover).
Via = Literal["hostile_takeover", "relatives"]
#: What a seat is asked to choose (``Awaiting.what``).
AwaitingWhat = Literal["lose"]
#: How many cards a seat draws after its turn: "one" (German text) or "refill" to 7.
Draw = Literal["one", "refill"]
#: When an empty Raid / Protection Money leaves a Market Open.
HassleLeaves = Literal["end_of_turn", "at_once"]
#: Which card a legal business may join in the same turn: "illegal" (the German text's
#: example, before or after it), "any" card (the German list of exceptions read widely),
#: or "after_illegal" (records of format 1: only after an illegal business; a legal
#: business played first ends the turn, an illegal one leaves it open until ``end_turn``).
LegalExtra = Literal["illegal", "any", "after_illegal"]
#: What happens when the next player acts before the victim chose the loss of a Raid or
#: Protection Money: the table "waits" for the victim, or (format 1) the "cheapest" goes.
UnchosenLoss = Literal["waits", "cheapest"]
#: Which of several equally expensive businesses a Loan Shark takes when its player names
#: none: the player must "choose", or (format 1) the one played "last".
HighestTie = Literal["choose", "last"]
#: ``empty_hand``: a player whose turn comes with no card in hand (the paranoia pass took
#: the last one) "passes" (ends the turn and draws one, as after any turn) or the hand
#: "ends" there (the accounting). The rules text ends a hand only on a discard.
EmptyHand = Literal["passes", "ends"]
#: The readings of record lines that only records of format 1 use (each default ``None`` is
#: today's reading; these are not table rules a player picks, so the setup page hides them):
#: ``show`` "part_ends_turn": a ``show`` may list part of the hand and is a line like any
#: other (it ends another seat's open turn, settles an unchosen loss, lets a takeover stand);
#: a discarded card stays among the cards shown (only a played card left them).
ShowLine = Literal["part_ends_turn"]
#: ``take_target`` "ask": a takeover's ``take`` does not name the victim; the target is asked.
TakeTarget = Literal["ask"]
#: ``pending_keys`` "forget": completing a shown card needs all its keys again.
PendingKeys = Literal["forget"]
#: ``magnum_last_card`` "turn_goes_on": a Magnum that was the last card on its player's own
#: turn does not end the hand; the turn goes on and ends as any turn (then the seat draws).
MagnumLastCard = Literal["turn_goes_on"]

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "dealer": None,  # seat index; None = the last seat, so seat 0 starts
    "match_to": 0,  # 0 = a single hand; else 500000 or 1000000 (any positive amount)
    "draw": "one",  # "one" card after a turn (German text) | "refill" to 7 (translator)
    "hassle_leaves": "end_of_turn",  # when an empty Raid/Protection goes: | "at_once"
    "magnum_restores_hassle": False,  # a Magnum stopping Relatives also undoes its relief
    "legal_extra": "illegal",  # a legal business joins an "illegal" business | "any" card
    "move_timeout_s": 0,  # an unfinished move is called off after this many seconds; 0: never
    "bribe_extra": True,  # the Bribe is played besides the turn's card | False: it is the card
    "unchosen_loss": "waits",  # the loss waits for its victim | "cheapest" goes when others act
    "highest_tie": "choose",  # a Loan Shark's tie: its player chooses | "last" played goes
    "show": None,  # a show lists the whole hand, aside | "part_ends_turn" (format 1)
    "take_target": None,  # take names the owner when only one has it | "ask" (format 1)
    "pending_keys": None,  # a shown card keeps the keys given | "forget" (format 1)
    "magnum_last_card": None,  # it ends the hand | "turn_goes_on" (format 1)
    "empty_hand": "passes",  # a turn with no card in hand passes (and draws) | "ends" the hand
}

#: What a record of format 1 (before issue 25) meant by its options: the turn rules of
#: then (commit 419f6ec). Options the record names itself win.
V1_OPTIONS: Mapping[str, Any] = {
    "legal_extra": "after_illegal",
    "bribe_extra": False,
    "unchosen_loss": "cheapest",
    "highest_tie": "last",
    "show": "part_ends_turn",
    "take_target": "ask",
    "pending_keys": "forget",
    "magnum_last_card": "turn_goes_on",
}

_CHOICES = {
    "draw": get_args(Draw),
    "hassle_leaves": get_args(HassleLeaves),
    "legal_extra": get_args(LegalExtra),
    "unchosen_loss": get_args(UnchosenLoss),
    "highest_tie": get_args(HighestTie),
    "empty_hand": get_args(EmptyHand),
}
#: options whose only other value is ``None`` (today's reading)
_NONE_OR = {
    "show": get_args(ShowLine),
    "take_target": get_args(TakeTarget),
    "pending_keys": get_args(PendingKeys),
    "magnum_last_card": get_args(MagnumLastCard),
}


@dataclass(frozen=True)
class Options:
    """The game's options, normalised (see ``DEFAULT_OPTIONS``)."""

    dealer: int
    match_to: int
    draw: Draw
    hassle_leaves: HassleLeaves
    magnum_restores_hassle: bool
    legal_extra: LegalExtra = "illegal"
    move_timeout_s: float = 0.0
    bribe_extra: bool = True
    unchosen_loss: UnchosenLoss = "waits"
    highest_tie: HighestTie = "choose"
    show: ShowLine | None = None
    take_target: TakeTarget | None = None
    pending_keys: PendingKeys | None = None
    magnum_last_card: MagnumLastCard | None = None
    empty_hand: EmptyHand = "passes"


def upgrade_options(version: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a record of format ``version`` implies (``V1_OPTIONS`` for format 1)."""
    if version <= 1:
        return {**V1_OPTIONS, **options}
    return dict(options)


def parse_options(raw: Mapping[str, Any], n_seats: int) -> Options:
    """The options ``raw`` (already merged with the defaults) for ``n_seats``, checked."""
    n = n_seats
    dealer = n - 1 if raw["dealer"] is None else raw["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise SetupError(f"illegal: option dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    match_to = raw["match_to"]
    if isinstance(match_to, bool) or not isinstance(match_to, int) or match_to < 0:
        raise SetupError(
            f"illegal: option match_to must be 0 (one hand) or a positive amount such as "
            f"500000, not {match_to!r}"
        )
    for key, allowed in _CHOICES.items():
        if raw[key] not in allowed:
            raise SetupError(f"illegal: option {key} must be one of {', '.join(allowed)}")
    for key, allowed in _NONE_OR.items():
        if raw[key] is not None and raw[key] not in allowed:
            raise SetupError(
                f"illegal: option {key} must be null or one of {', '.join(allowed)} "
                "(records of format 1)"
            )
    for key in ("magnum_restores_hassle", "bribe_extra"):
        if not isinstance(raw[key], bool):
            raise SetupError(f"illegal: option {key} must be true or false")
    timeout = raw["move_timeout_s"]
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout < 0:
        raise SetupError(
            f"illegal: option move_timeout_s must be 0 (never) or a number of seconds, "
            f"not {timeout!r}"
        )
    return Options(
        dealer,
        match_to,
        raw["draw"],
        raw["hassle_leaves"],
        raw["magnum_restores_hassle"],
        raw["legal_extra"],
        float(timeout),
        raw["bribe_extra"],
        raw["unchosen_loss"],
        raw["highest_tie"],
        raw["show"],
        raw["take_target"],
        raw["pending_keys"],
        raw["magnum_last_card"],
        raw["empty_hand"],
    )


@dataclass(frozen=True)
class SeatState:
    name: str
    market_open: bool = False
    hassle: str | None = None
    businesses: tuple[str, ...] = ()
    hand: int = 0
    skips: int = 0
    shown: tuple[str, ...] = ()  # cards of the hand laid open (Tax Inspection)
    revealed: tuple[str, ...] | None = None  # the hand shown after the hand ended
    pending: str | None = None  # a card shown whose targets/choices are still missing
    pending_needs: str | None = None  # what it still needs ("target", "take", "discard", ...)
    pending_given: tuple[tuple[str, int | str], ...] = ()  # the keys already given


@dataclass(frozen=True)
class Awaiting:
    """A choice the rules leave to ``seat``: ``what`` among ``choices``."""

    seat: int
    what: AwaitingWhat
    choices: tuple[str, ...]
    because: str  # the card that causes it


@dataclass(frozen=True)
class Takeover:
    """The last takeover, which a Magnum may still cancel."""

    taker: int
    victim: int
    card: str
    via: Via
    hassle: str | None  # the hassle Relatives removed from the taker


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[SeatState, ...]
    hand_no: int
    dealer: int
    turn: int
    phase: Phase
    turn_done: tuple[str, ...]
    draw_pile: int
    discards: tuple[str, ...] = ()
    awaiting: Awaiting | None = None
    last_takeover: Takeover | None = None
    ended_by: EndedBy | None = None
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    match_over: bool = False
    winners: tuple[int, ...] = ()
    #: the last few human sentences (the dashboard's short log)
    log: tuple[str, ...] = ()
    #: a Magnum shown in the play zone whose player is not known yet ("whose Magnum?")
    unclaimed: bool = False
    #: cards the active seat laid in the discard zone, not booked yet (a triple may follow)
    gathered: tuple[str, ...] = ()
    #: the last loss the engine took because it was the only possibility: (seat, card)
    forced_loss: tuple[int, str] | None = None
    #: since when an unfinished move (a shown card, cards on the discard zone, an
    #: unclaimed Magnum) waits: for the option ``move_timeout_s``
    waiting_since: float | None = None

    def unfinished(self) -> bool:
        """Whether a move waits to be completed (a card's target or cost, a triple, a claim)."""
        return self.unclaimed or bool(self.gathered) or any(s.pending for s in self.seats)

    @property
    def over(self) -> bool:
        """Whether the game is over: the last hand (or the single hand) is scored."""
        return self.match_over

    @property
    def n(self) -> int:
        return len(self.seats)

    def name(self, seat: int) -> str:
        return self.seats[seat].name


def start(setup: Setup) -> State:
    """The first hand dealt: 7 cards each, the seat left of the dealer starts.

    The state a ``HandDealt`` then a ``TurnStarted`` fold to (built here, so the state
    module needs neither the events nor the fold: ``tests/games/illegal`` checks both
    ways give the same state).
    """
    opts = parse_options(setup.options, setup.n_seats)
    n = setup.n_seats
    first = (opts.dealer + 1) % n
    return State(
        options=opts,
        seats=tuple(SeatState(name=s, hand=HAND_SIZE) for s in setup.seats),
        hand_no=1,
        dealer=opts.dealer,
        turn=first,
        phase=TURN,
        turn_done=(),
        draw_pile=DEALT_PILE - HAND_SIZE * n,
        totals=tuple(0 for _ in range(n)),
        log=(f"Hand 1: {setup.seats[opts.dealer]} deals, {setup.seats[first]} starts",
             f"{setup.seats[first]}'s turn"),
    )
