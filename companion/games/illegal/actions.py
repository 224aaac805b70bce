"""Illegal: every action, declared once as a frozen dataclass (``companion.games.actions``).

A card travels as its catalog id (``CardId``: one of ``data/cards.json``); a player reads
its name. ``ACTIONS.parse`` turns a record line, a phone's post or what the camera means
into one of these values, or refuses it in a player's words.

The trade's record keys ``with`` (a Python keyword) and ``get`` (the Mapping method) are
the fields ``with_`` and ``get_``: a trailing ``_`` is dropped from the JSON key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from companion.games.actions import ActionSet, GameAction, Seat, Sender, Spec
from companion.games.illegal.deck import card_ids

if TYPE_CHECKING:
    CardId = str
else:
    CardId = Literal[card_ids()]

#: the most cards a hand can hold (7 dealt, draws, trades) as an action may name them
MAX_HAND = 60


@dataclass(frozen=True, kw_only=True)
class Play(GameAction):
    """Play a card; a card missing its target or cost waits until the same seat completes it."""

    do: ClassVar[str] = "play"
    label: ClassVar[str] = "Play a card"
    seat: Seat
    card: Annotated[CardId, Spec("the card")]
    target: Annotated[int, Spec("the player", 0, 11)] | None = None
    take: Annotated[CardId, Spec("the business to take")] | None = None
    discard: Annotated[CardId, Spec("the business card the Bribe costs")] | None = None
    lose: Annotated[CardId, Spec("the business to lose")] | None = None
    cancel: Annotated[bool, Spec("stop the takeover")] | None = None


@dataclass(frozen=True, kw_only=True)
class Discard(GameAction):
    """Discard one card, or three identical cards, instead of playing one."""

    do: ClassVar[str] = "discard"
    label: ClassVar[str] = "Discard"
    seat: Seat
    cards: Annotated[tuple[CardId, ...], Spec("the cards")]


@dataclass(frozen=True, kw_only=True)
class DiscardCard(GameAction):
    """One card the camera saw in the discard zone (three identical in a row: a triple)."""

    do: ClassVar[str] = "discard_card"
    label: ClassVar[str] = "A card in the discard zone"
    by: ClassVar[Sender] = "table"
    seat: Seat
    card: Annotated[CardId, Spec("the card")]


@dataclass(frozen=True, kw_only=True)
class Lose(GameAction):
    """The victim's choice of the business a Raid or Protection Money takes."""

    do: ClassVar[str] = "lose"
    label: ClassVar[str] = "Choose the business you lose"
    seat: Seat
    card: Annotated[CardId, Spec("the business")]


@dataclass(frozen=True, kw_only=True)
class EndTurn(GameAction):
    """End the turn after its card (no further legal business or triple discard)."""

    do: ClassVar[str] = "end_turn"
    label: ClassVar[str] = "End the turn"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Trade(GameAction):
    """Trade on one's own turn: give cards to another player (``with``), get cards back."""

    do: ClassVar[str] = "trade"
    label: ClassVar[str] = "Trade cards"
    seat: Seat
    with_: Annotated[int, Spec("the trading partner", 0, 11)]
    give: Annotated[int, Spec("the cards given", 0, MAX_HAND)]
    get_: Annotated[int, Spec("the cards got back", 0, MAX_HAND)]


@dataclass(frozen=True, kw_only=True)
class MagnumShown(GameAction):
    """The camera saw the Magnum in the play zone: its player still has to claim it."""

    do: ClassVar[str] = "magnum_shown"
    label: ClassVar[str] = "A Magnum was shown"
    by: ClassVar[Sender] = "table"


@dataclass(frozen=True, kw_only=True)
class Cancel(GameAction):
    """Call off unfinished moves: a seat's shown card (without ``seat``: every one)."""

    do: ClassVar[str] = "cancel"
    label: ClassVar[str] = "Call off an unfinished move"
    by: ClassVar[Sender] = "host"


@dataclass(frozen=True, kw_only=True)
class Show(GameAction):
    """A hand laid open under Tax Inspection: every card it holds."""

    do: ClassVar[str] = "show"
    label: ClassVar[str] = "Lay your hand open"
    seat: Seat
    hand: Annotated[tuple[CardId, ...], Spec("the cards of the hand", open=True)]


@dataclass(frozen=True, kw_only=True)
class ShowCard(GameAction):
    """One card of a Tax Inspection hand, scanned in front of its player."""

    do: ClassVar[str] = "show_card"
    label: ClassVar[str] = "Lay a card of your hand open"
    seat: Seat
    card: Annotated[CardId, Spec("the card")]


@dataclass(frozen=True, kw_only=True)
class Reveal(GameAction):
    """After the hand: the cards a seat still held, for the accounting."""

    do: ClassVar[str] = "reveal"
    label: ClassVar[str] = "Reveal your hand"
    seat: Seat
    hand: Annotated[tuple[CardId, ...], Spec("the cards of the hand", open=True)]


@dataclass(frozen=True, kw_only=True)
class RevealCard(GameAction):
    """After the hand: one more card of a seat's hand, shown to the camera or tapped."""

    do: ClassVar[str] = "reveal_card"
    label: ClassVar[str] = "Reveal a card"
    seat: Seat
    card: Annotated[CardId, Spec("the card")]


@dataclass(frozen=True, kw_only=True)
class Deal(GameAction):
    """Deal the next hand of a match (the dealer moves one seat clockwise)."""

    do: ClassVar[str] = "deal"
    label: ClassVar[str] = "Deal the next hand"
    by: ClassVar[Sender] = "host"


ACTIONS = ActionSet("Illegal", Play, Discard, DiscardCard, Lose, EndTurn, Trade, MagnumShown,
                    Cancel, Show, ShowCard, Reveal, RevealCard, Deal)

__all__ = ["ACTIONS", "Cancel", "CardId", "Deal", "Discard", "DiscardCard", "EndTurn", "Lose",
           "MagnumShown", "Play", "Reveal", "RevealCard", "Show", "ShowCard", "Trade"]
