"""Illegal: the past-tense events (stored via ``companion.games.codec``).

Every field is a JSON value (tuples for lists); ``EVENT_TYPES`` maps each stored type
name to its class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.illegal.state import EndedBy, Via

#: What a pending play still needs (``PlayPending.needs``).
Needs = Literal["target", "take", "discard", "lose"]
#: Why cards were discarded: the turn's discard, or the cost of a Bribe.
DiscardWhy = Literal["turn", "bribe"]


@dataclass(frozen=True)
class HandDealt:
    hand_no: int
    dealer: int
    first: int
    draw_pile: int


@dataclass(frozen=True)
class PlayPending:
    seat: int
    card: str
    needs: Needs
    #: the keys of the play already given (``(key, value)`` pairs), kept until it completes
    given: tuple[tuple[str, int | str], ...] = ()


@dataclass(frozen=True)
class MagnumShown:
    """A Magnum appeared in the play zone: whose it is, its player says (phone or button)."""


@dataclass(frozen=True)
class DiscardGathered:
    """A card laid in the discard zone; booked once it is clear whether a triple follows."""

    seat: int
    card: str


@dataclass(frozen=True)
class MoveCancelled:
    """The host (or the player) called off an unfinished move."""

    seat: int | None
    what: Literal["pending", "gathered", "magnum"]
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class MoveWaits:
    """An unfinished move started waiting at game time ``at`` (see ``move_timeout_s``)."""

    at: float


@dataclass(frozen=True)
class CardsTraded:
    """A trade (Tausch) on ``seat``'s turn: it gave ``gave`` cards to ``other``, got ``got``."""

    seat: int
    other: int
    gave: int
    got: int


@dataclass(frozen=True)
class LossConfirmed:
    """The victim named the business the engine took as the only possibility."""

    seat: int
    card: str


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: str
    target: int | None = None
    out_of_turn: bool = False


@dataclass(frozen=True)
class CardsDiscarded:
    seat: int
    cards: tuple[str, ...]
    why: DiscardWhy


@dataclass(frozen=True)
class HassleRemoved:
    seat: int
    card: str
    by: str  # a card id, or "empty" when nothing is left for it to take


@dataclass(frozen=True)
class BusinessLost:
    seat: int
    card: str
    why: str  # the card that costs it
    chosen: bool = True  # False: the engine took the cheapest, nobody chose


@dataclass(frozen=True)
class BusinessTaken:
    seat: int
    victim: int
    card: str
    via: Via
    hassle: str | None = None


@dataclass(frozen=True)
class TakeoverStood:
    seat: int
    card: str


@dataclass(frozen=True)
class TakeoverCancelled:
    seat: int
    taker: int
    victim: int
    card: str
    hassle_restored: str | None = None


@dataclass(frozen=True)
class SkipsAdded:
    seat: int
    turns: int


@dataclass(frozen=True)
class CardsPassed:
    by: int  # the seat whose paranoia card made everyone pass


@dataclass(frozen=True)
class HandShown:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TurnEnded:
    seat: int


@dataclass(frozen=True)
class LossRequested:
    seat: int
    hassle: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class CardDrawn:
    seat: int
    count: int


@dataclass(frozen=True)
class TurnSkipped:
    seat: int


@dataclass(frozen=True)
class TurnStarted:
    seat: int


@dataclass(frozen=True)
class HandEnded:
    why: EndedBy
    seat: int


@dataclass(frozen=True)
class HandRevealed:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class HandScored:
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    match_over: bool
    winners: tuple[int, ...]


Event = (
    HandDealt
    | PlayPending
    | CardPlayed
    | CardsDiscarded
    | HassleRemoved
    | BusinessLost
    | BusinessTaken
    | TakeoverStood
    | TakeoverCancelled
    | SkipsAdded
    | CardsPassed
    | HandShown
    | TurnEnded
    | LossRequested
    | CardDrawn
    | TurnSkipped
    | TurnStarted
    | HandEnded
    | HandRevealed
    | HandScored
    | MagnumShown
    | DiscardGathered
    | MoveCancelled
    | MoveWaits
    | CardsTraded
    | LossConfirmed
)

EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        HandDealt,
        PlayPending,
        CardPlayed,
        CardsDiscarded,
        HassleRemoved,
        BusinessLost,
        BusinessTaken,
        TakeoverStood,
        TakeoverCancelled,
        SkipsAdded,
        CardsPassed,
        HandShown,
        TurnEnded,
        LossRequested,
        CardDrawn,
        TurnSkipped,
        TurnStarted,
        HandEnded,
        HandRevealed,
        HandScored,
        MagnumShown,
        DiscardGathered,
        MoveCancelled,
        MoveWaits,
        CardsTraded,
        LossConfirmed,
    )
}
