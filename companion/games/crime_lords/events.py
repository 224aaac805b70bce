"""Crime Lords' past-tense events (the fold is ``fold.py``).

``decide`` computes every consequence as explicit events (pay, each Unhappy marker,
each Crook leaving), so the fold only records what happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from companion.games.crime_lords.state import (
    AttackKind,
    CardKind,
    Destination,
    HelpSide,
    Side,
    Stage,
)


@dataclass(frozen=True)
class MobTaken:
    seat: int
    card: str
    name: str
    boss_bonus: int
    extra_draws: int = 0


@dataclass(frozen=True)
class DeckLoaded:
    """The stats a deck holds, by card id (cards not in play yet)."""

    cards: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class CardEntered:
    card: str
    kind: CardKind
    stats: Mapping[str, Any]


@dataclass(frozen=True)
class CardBought:
    seat: int
    card: str
    kind: str
    price: int


@dataclass(frozen=True)
class CenterAdded:
    card: str


@dataclass(frozen=True)
class SpecialDrawn:
    seat: int
    card: str


@dataclass(frozen=True)
class SpecialDiscarded:
    seat: int
    card: str


@dataclass(frozen=True)
class BossChosen:
    seat: int
    card: str


@dataclass(frozen=True)
class CrookPlaced:
    seat: int
    card: str
    under: str | None


@dataclass(frozen=True)
class GameStarted:
    first: int
    money: int


@dataclass(frozen=True)
class IncomeCollected:
    seat: int
    amount: int


@dataclass(frozen=True)
class CrookPaid:
    seat: int
    card: str
    owed: int
    paid: int


@dataclass(frozen=True)
class UnhappyChanged:
    seat: int
    card: str
    delta: int
    reason: str


@dataclass(frozen=True)
class CrookLeft:
    seat: int
    card: str
    to: Destination
    reason: str


@dataclass(frozen=True)
class TokenSpent:
    seat: int
    card: str
    why: str


@dataclass(frozen=True)
class TokenRestored:
    seat: int
    card: str


@dataclass(frozen=True)
class Retokened:
    seat: int
    rackets: bool


@dataclass(frozen=True)
class MoneyChanged:
    seat: int
    delta: int
    reason: str


@dataclass(frozen=True)
class AttackAnnounced:
    seat: int
    kind: AttackKind
    attacker: str
    target: str
    defender: int | None
    stage: Stage
    money: int
    war: bool


@dataclass(frozen=True)
class ProtectorNamed:
    seat: int
    card: str | None


@dataclass(frozen=True)
class ShowdownCommitted:
    seat: int
    amount: int
    side: Side


@dataclass(frozen=True)
class ShowdownRevealed:
    amounts: tuple[tuple[int, int, Side], ...]


@dataclass(frozen=True)
class Helped:
    seat: int
    card: str
    side: HelpSide


@dataclass(frozen=True)
class ModifierAdded:
    seat: int
    value: int
    why: str


@dataclass(frozen=True)
class AttackWithdrawn:
    seat: int


@dataclass(frozen=True)
class AttackRolled:
    seat: int
    dice: tuple[int, ...]
    needed: int
    success: bool
    counted: bool
    breakdown: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class CrookMoved:
    from_seat: int | None
    to_seat: int
    card: str
    under: str | None


@dataclass(frozen=True)
class RacketMoved:
    from_seat: int | None
    to_seat: int | None
    card: str


@dataclass(frozen=True)
class CrookKilled:
    seat: int | None
    card: str


@dataclass(frozen=True)
class PowerRaised:
    seat: int
    card: str
    by: int


@dataclass(frozen=True)
class TurnEnded:
    seat: int
    next: int


@dataclass(frozen=True)
class GangWarStarted:
    origin: int
    seats: tuple[int, ...]
    turn: int


@dataclass(frozen=True)
class GangWarJoined:
    seat: int


@dataclass(frozen=True)
class WarTurnPassed:
    seat: int
    to: int
    passed: bool


@dataclass(frozen=True)
class GangWarEnded:
    next: int
    seat: int | None = None  # whose pass ended it


@dataclass(frozen=True)
class PlayerOut:
    seat: int
    by: int | None


@dataclass(frozen=True)
class GameWon:
    winners: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class PayOffDone:
    seat: int


@dataclass(frozen=True)
class CardDrawn:
    """One card of the turn's draws (after it went to the center or the hand)."""

    seat: int
    card: str


@dataclass(frozen=True)
class StatsAsked:
    """A drawn Crook or Racket whose printed stats the drawing player must enter."""

    seat: int
    card: str
    kind: CardKind


@dataclass(frozen=True)
class DeckEmptied:
    seat: int


@dataclass(frozen=True)
class Given:
    """A gift: money (``money`` > 0) or a Racket or Special (``card``) to another player."""

    seat: int
    to: int
    money: int = 0
    card: str | None = None


@dataclass(frozen=True)
class CrookOffered:
    seat: int
    to: int
    card: str


@dataclass(frozen=True)
class OfferClosed:
    seat: int
    accepted: bool


@dataclass(frozen=True)
class PlayerLeft:
    seat: int


@dataclass(frozen=True)
class ShareOffered:
    seats: tuple[int, ...]


@dataclass(frozen=True)
class ShareAnswered:
    seat: int
    agree: bool


@dataclass(frozen=True)
class TurnActed:
    """The player on turn took an action: no pass bonus this turn."""

    seat: int


EVENTS: tuple[type, ...] = (
    DeckLoaded,
    MobTaken, CardEntered, CardBought, CenterAdded, SpecialDrawn, SpecialDiscarded, BossChosen,
    CrookPlaced, GameStarted, IncomeCollected, CrookPaid, UnhappyChanged, CrookLeft, TokenSpent,
    TokenRestored, Retokened, MoneyChanged, AttackAnnounced, ProtectorNamed, ShowdownCommitted,
    ShowdownRevealed, Helped, ModifierAdded, AttackWithdrawn, AttackRolled, CrookMoved,
    RacketMoved, CrookKilled, PowerRaised, TurnEnded, GangWarStarted, GangWarJoined,
    WarTurnPassed, GangWarEnded, PlayerOut, GameWon, PayOffDone, CardDrawn, StatsAsked,
    DeckEmptied, Given, CrookOffered, OfferClosed, PlayerLeft, ShareOffered, ShareAnswered,
    TurnActed,
)
EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in EVENTS}
#: any Crime Lords event
Event: TypeAlias = (
    DeckLoaded | MobTaken | CardEntered | CardBought | CenterAdded | SpecialDrawn | SpecialDiscarded
    | BossChosen | CrookPlaced | GameStarted | IncomeCollected | CrookPaid | UnhappyChanged
    | CrookLeft | TokenSpent | TokenRestored | Retokened | MoneyChanged | AttackAnnounced
    | ProtectorNamed | ShowdownCommitted | ShowdownRevealed | Helped | ModifierAdded
    | AttackWithdrawn | AttackRolled | CrookMoved | RacketMoved | CrookKilled | PowerRaised
    | TurnEnded | GangWarStarted | GangWarJoined | WarTurnPassed | GangWarEnded | PlayerOut
    | GameWon | PayOffDone | CardDrawn | StatsAsked | DeckEmptied | Given | CrookOffered
    | OfferClosed | PlayerLeft | ShareOffered | ShareAnswered | TurnActed
)
