"""Crime Lords' actions, declared once as typed values (``companion.games.actions``).

A card travels as its id (``crook_07``); a card's printed stats, typed by its owner the
first time it comes into play, as a ``Stats`` value. ``ACTIONS.parse`` refuses anything
else in a player's words. The claim of a wiped-out Mob's Rackets names that Mob's seat
``from`` in a record line; Python cannot name a field so, so ``Claim`` calls it
``from_`` (a trailing ``_`` is dropped from the JSON key: ``companion.games.actions``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from companion.games.actions import MAX, ActionSet, GameAction, Seat, Sender, Spec

#: a card as actions carry it: its id in the catalog (``crook_07``), never shown to players
CardId = Annotated[str, Spec("the card", max_len=40)]
Text = Annotated[str, Spec("the text", open=True)]


@dataclass(frozen=True, kw_only=True)
class Stats:
    """The printed stats of one physical card, as its owner typed them."""

    name: Annotated[str, Spec("the name on the card", open=True)] | None = None
    power: Annotated[int, Spec("the Power", 0, 20, open=True)] | None = None
    resistance: Annotated[int, Spec("the Resistance", 0, 50, open=True)] | None = None
    income: Annotated[int, Spec("the income", 0, 50, open=True)] | None = None
    district: Annotated[str, Spec("the district", open=True)] | None = None
    type: Annotated[str, Spec("the Racket type", open=True)] | None = None
    weakness: Annotated[str, Spec("the Weakness", open=True)] | None = None
    ability: Annotated[str, Spec("the ability text", open=True)] | None = None
    boss_bonus: Annotated[int, Spec("the Boss token bonus", 0, 20, open=True)] | None = None
    extra_draws: Annotated[int, Spec("the extra draws", 0, 5, open=True)] | None = None
    text: Annotated[str, Spec("the card's text", open=True)] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The stats that were given, as the JSON object events and decks keep."""
        return {k: v for k, v in vars(self).items() if v is not None}


CardStats = Annotated[Stats, Spec("the card's stats", open=True)]


# --- setup (the host enters what happened at the table) -------------------------------


@dataclass(frozen=True, kw_only=True)
class DeckCard:
    """One card of the deck with the stats the deck holds for it."""

    card: CardId
    stats: CardStats


@dataclass(frozen=True, kw_only=True)
class LoadDeck(GameAction):
    """The stats the table's deck already holds (sent by the table, not typed): those
    cards are picked by name and need no stats when they come into play."""

    do: ClassVar[str] = "deck_cards"
    label: ClassVar[str] = "Load the deck's card stats"
    by: ClassVar[Sender] = "host"
    cards: Annotated[tuple[DeckCard, ...], Spec("the deck's cards")]


@dataclass(frozen=True, kw_only=True)
class TakeMob(GameAction):
    """A player drew a Mob card (its name, Boss token bonus and extra draws)."""

    do: ClassVar[str] = "take_mob"
    label: ClassVar[str] = "Give a player a Mob"
    by: ClassVar[Sender] = "host"
    seat: Seat
    card: CardId
    stats: CardStats | None = None


@dataclass(frozen=True, kw_only=True)
class Buy(GameAction):
    """A player won a card in the auction for ``price`` G of bidding money."""

    do: ClassVar[str] = "buy"
    label: ClassVar[str] = "Record an auction sale"
    by: ClassVar[Sender] = "host"
    seat: Seat
    card: CardId
    price: Annotated[int, Spec("the price", 0, MAX, open=True)]
    stats: CardStats | None = None


@dataclass(frozen=True, kw_only=True)
class Uncontrolled(GameAction):
    """A Crook or Racket turned up in the center before the first turn."""

    do: ClassVar[str] = "uncontrolled"
    label: ClassVar[str] = "Turn up a card in the center"
    by: ClassVar[Sender] = "host"
    card: CardId
    stats: CardStats | None = None


@dataclass(frozen=True, kw_only=True)
class Start(GameAction):
    """The setup is done: every Mob gets its starting money, ``first`` plays first."""

    do: ClassVar[str] = "start"
    label: ClassVar[str] = "Start the game"
    by: ClassVar[Sender] = "host"
    first: Annotated[int, Spec("the first player", 0, 11)]


@dataclass(frozen=True, kw_only=True)
class ChooseBoss(GameAction):
    """A Mob without a Boss makes one of its Crooks the Boss."""

    do: ClassVar[str] = "choose_boss"
    label: ClassVar[str] = "Choose a Boss"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Place(GameAction):
    """A Crook without a place goes under a superior (free)."""

    do: ClassVar[str] = "place"
    label: ClassVar[str] = "Place a Crook"
    seat: Seat
    card: CardId
    under: Annotated[str, Spec("the superior", max_len=40)]


# --- the turn -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Collect(GameAction):
    """Income from every Racket, then the pay-off: the Boss first, then ``pay_order``."""

    do: ClassVar[str] = "collect"
    label: ClassVar[str] = "Collect income and pay the gang"
    seat: Seat
    pay_order: Annotated[tuple[str, ...], Spec("the order of pay")] | None = None


@dataclass(frozen=True, kw_only=True)
class Draw(GameAction):
    """A card drawn from the deck (with its stats the first time it is seen)."""

    do: ClassVar[str] = "draw"
    label: ClassVar[str] = "Draw a card"
    seat: Seat
    card: CardId
    stats: CardStats | None = None


@dataclass(frozen=True, kw_only=True)
class CardStatsEntered(GameAction):
    """The printed stats of the card just drawn, seen for the first time."""

    do: ClassVar[str] = "stats"
    label: ClassVar[str] = "Enter a card's stats"
    seat: Seat
    card: CardId
    stats: CardStats


@dataclass(frozen=True, kw_only=True)
class DeckEmpty(GameAction):
    """The deck is used up: no more draws are owed."""

    do: ClassVar[str] = "deck_empty"
    label: ClassVar[str] = "The deck is used up"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class EndTurn(GameAction):
    """The end of the turn: tokens back on every card, then who controls the city."""

    do: ClassVar[str] = "end_turn"
    label: ClassVar[str] = "End the turn"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class PassTurn(GameAction):
    """A turn without any action: the pass bonus (10 G), then the end of the turn."""

    do: ClassVar[str] = "pass_turn"
    label: ClassVar[str] = "Pass for the bonus"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class MoveCrook(GameAction):
    """A placed Crook (with those under him) moves under a new superior: his Action."""

    do: ClassVar[str] = "move"
    label: ClassVar[str] = "Move a Crook"
    seat: Seat
    card: CardId
    under: Annotated[str, Spec("the new superior", max_len=40)]


@dataclass(frozen=True, kw_only=True)
class Drop(GameAction):
    """A Crook and those under him go back to the center (free)."""

    do: ClassVar[str] = "drop"
    label: ClassVar[str] = "Drop a Crook"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Visit(GameAction):
    """A Crook spends his Action visiting a Racket of his Weakness: one marker less."""

    do: ClassVar[str] = "visit"
    label: ClassVar[str] = "Visit a Racket"
    seat: Seat
    card: CardId
    racket: Annotated[str, Spec("the Racket", max_len=40)]


@dataclass(frozen=True, kw_only=True)
class RetireBoss(GameAction):
    """A Lieutenant retires the Boss (twice his Power in G) and becomes Boss."""

    do: ClassVar[str] = "retire_boss"
    label: ClassVar[str] = "Retire the Boss"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Claim(GameAction):
    """Rackets of a Mob this player wiped out: one free, one more per token spent."""

    do: ClassVar[str] = "claim"
    label: ClassVar[str] = "Claim Rackets"
    seat: Seat
    from_: Annotated[int, Spec("the wiped-out Mob", 0, 11)]
    rackets: Annotated[tuple[str, ...], Spec("the Rackets")]
    tokens: Annotated[tuple[str, ...], Spec("the cards that spend a token")] | None = None


@dataclass(frozen=True, kw_only=True)
class Give(GameAction):
    """Money, a Racket or a Special to another player; a Crook is offered."""

    do: ClassVar[str] = "give"
    label: ClassVar[str] = "Give"
    seat: Seat
    to: Annotated[int, Spec("the player who gets it", 0, 11)]
    money: Annotated[int, Spec("the amount", 1, MAX, open=True)] | None = None
    card: CardId | None = None


@dataclass(frozen=True, kw_only=True)
class AcceptCrook(GameAction):
    """The player offered a Crook takes him and places him under ``under``."""

    do: ClassVar[str] = "accept_crook"
    label: ClassVar[str] = "Take the Crook offered"
    seat: Seat
    under: Annotated[str, Spec("the superior", max_len=40)]


@dataclass(frozen=True, kw_only=True)
class RefuseCrook(GameAction):
    """The player offered a Crook says no (or the giver takes the offer back)."""

    do: ClassVar[str] = "refuse_crook"
    label: ClassVar[str] = "Call off the Crook offer"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Leave(GameAction):
    """A player leaves the game: the Mob's cards go to the center."""

    do: ClassVar[str] = "leave"
    label: ClassVar[str] = "Leave the game"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Share(GameAction):
    """A Mob one Racket short agrees (or not) to share the win."""

    do: ClassVar[str] = "share"
    label: ClassVar[str] = "Share the win?"
    seat: Seat
    agree: Annotated[bool, Spec("whether to share the win")]


@dataclass(frozen=True, kw_only=True)
class PlaySpecial(GameAction):
    """A Special card is played (its effect is entered with ``adjust`` or ``modify``)."""

    do: ClassVar[str] = "play_special"
    label: ClassVar[str] = "Play a Special"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Adjust(GameAction):
    """A Special or an ability changes money, markers, Power or a token (say which)."""

    do: ClassVar[str] = "adjust"
    label: ClassVar[str] = "A card's ability changes something"
    seat: Seat
    what: Annotated[Literal["money", "unhappy", "power", "token"], Spec("what changes")]
    delta: Annotated[int, Spec("the change", -100, 100, open=True)]
    why: Annotated[str, Spec("the card or ability", open=True)]
    card: CardId | None = None


# --- attacks and Gang War -------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Attack(GameAction):
    """A Crook attempts to recruit a Crook, take over a Racket, or Hit a Crook."""

    do: ClassVar[str] = "attack"
    label: ClassVar[str] = "Attack"
    seat: Seat
    kind: Annotated[Literal["recruit", "takeover", "hit"], Spec("the kind of attack")]
    attacker: Annotated[str, Spec("the attacker", max_len=40)]
    target: Annotated[str, Spec("the target", max_len=40)]
    money: Annotated[int, Spec("the money on the Hit", 0, MAX, open=True)] | None = None


@dataclass(frozen=True, kw_only=True)
class Protect(GameAction):
    """The owner of the attacked Racket names a protector (none: no ``card``)."""

    do: ClassVar[str] = "protect"
    label: ClassVar[str] = "Name a protector"
    seat: Seat
    card: CardId | None = None


@dataclass(frozen=True, kw_only=True)
class Showdown(GameAction):
    """A secret showdown hand: an amount for or against the attack."""

    do: ClassVar[str] = "showdown"
    label: ClassVar[str] = "Put a showdown hand down"
    seat: Seat
    amount: Annotated[int, Spec("the amount", 0, MAX, open=True)]
    side: Annotated[Literal["for", "against"], Spec("the side")] | None = None


@dataclass(frozen=True, kw_only=True)
class Now(GameAction):
    """The attacker says "Now!": every hand is shown."""

    do: ClassVar[str] = "now"
    label: ClassVar[str] = "Now! Show all hands"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Withdraw(GameAction):
    """The attacker backs out before the hands are shown."""

    do: ClassVar[str] = "withdraw"
    label: ClassVar[str] = "Back out of the attack"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Assist(GameAction):
    """A card of the attacker spends its Action to aid the attack."""

    do: ClassVar[str] = "assist"
    label: ClassVar[str] = "Aid the attack"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Defend(GameAction):
    """A card of the defender spends its Action to defend (a Hit's target hides out)."""

    do: ClassVar[str] = "defend"
    label: ClassVar[str] = "Defend"
    seat: Seat
    card: CardId


@dataclass(frozen=True, kw_only=True)
class Modify(GameAction):
    """A special ability or Special changes the success number (say which)."""

    do: ClassVar[str] = "modify"
    label: ClassVar[str] = "Change the success number"
    seat: Seat
    value: Annotated[int, Spec("the change", -50, 50, open=True)]
    why: Annotated[str, Spec("the card or ability", open=True)]


@dataclass(frozen=True, kw_only=True)
class Roll(GameAction):
    """The attacker's two dice (none for a warning shot); a recruit goes ``under``."""

    do: ClassVar[str] = "roll"
    label: ClassVar[str] = "Enter the dice"
    seat: Seat
    dice: Annotated[tuple[int, ...], Spec("the dice", 1, 6)] | None = None
    under: Annotated[str, Spec("the recruit's superior", max_len=40)] | None = None


@dataclass(frozen=True, kw_only=True)
class WarPass(GameAction):
    """A Gang War turn without a Hit."""

    do: ClassVar[str] = "pass"
    label: ClassVar[str] = "Pass this war turn"
    seat: Seat


ACTIONS = ActionSet(
    "Crime Lords", LoadDeck, TakeMob, Buy, Uncontrolled, Start, ChooseBoss, Place, Collect, Draw,
    CardStatsEntered, DeckEmpty, EndTurn, PassTurn, MoveCrook, Drop, Visit, RetireBoss, Claim,
    Give, AcceptCrook, RefuseCrook, Leave, Share, PlaySpecial, Adjust, Attack, Protect,
    Showdown, Now, Withdraw, Assist, Defend, Modify, Roll, WarPass,
)
