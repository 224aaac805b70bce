"""Crime Lords' history sentences (``Engine.describe``) and setup controls (``option_specs``).

A sentence names players and cards: a card by the name its stats were entered with when
the action's events carry it, else plainly by its kind ("a Crook", "a Racket"), never by
its id or catalog slot ("Crook 07"). The dashboard hands ``describe`` only an action's
public keys (``companion.tableview.PUBLIC_ACTION_KEYS``): a price, the first player, the
dice or the reason for a change are read from the events. A sentence never tells an
amount that is secret (showdown hands, gifts of money, a treasury).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from companion.games.base import Action, OptionSpec
from companion.games.cards import catalog
from companion.games.crime_lords.events import (
    AttackAnnounced,
    AttackRolled,
    CardBought,
    CardEntered,
    CrookMoved,
    CrookPlaced,
    Event,
    GameStarted,
    Given,
    MobTaken,
    ModifierAdded,
    MoneyChanged,
    RacketMoved,
    ShareAnswered,
    TokenSpent,
    UnhappyChanged,
)
from companion.games.crime_lords.state import war_begins
from companion.games.money import signed

VERBS = {"recruit": "recruit", "takeover": "take over", "hit": "Hit"}
#: a card nobody named, by its catalog kind
KINDS = {"crook": "a Crook", "racket": "a Racket", "special": "a Special", "mob": "a Mob"}
E = TypeVar("E")


def _first(events: Sequence[Event], kind: type[E]) -> E | None:
    return next((e for e in events if isinstance(e, kind)), None)


def _card(card: Any, events: Sequence[Event]) -> str:
    """A card by the name the events carry, else "a Crook", "a Racket"..., never its id."""
    if not isinstance(card, str):
        return "a card"
    for event in events:
        if isinstance(event, CardEntered) and event.card == card:
            name = event.stats.get("name")
            if isinstance(name, str) and name.strip():
                return name.strip()
        if isinstance(event, MobTaken) and event.card == card and event.name != card:
            return event.name
    try:
        return KINDS.get(catalog("crime_lords").by_id(card).kind, "a card")
    except KeyError:
        return "a card"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe(action: Action, events: Sequence[Event], players: Sequence[str]) -> str | None:
    """The history's sentence for one accepted action."""

    def name(seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
            return players[seat]
        return "The host"

    def who(key: str = "seat") -> str:
        return name(action.get(key))

    def card(key: str = "card") -> str:
        return _card(action.get(key), events)

    do = action.get("do")
    started = _first(events, GameStarted)
    simple: Mapping[str, str] = {
        "collect": f"{who()} collected income and paid off the gang.",
        "end_turn": f"{who()} ended the turn.",
        "pass_turn": f"{who()} passed the turn for the bonus.",
        "pass": f"{who()} passed a Gang War turn.",
        "now": f"{who()} said \"Now!\": the showdown hands are shown.",
        "withdraw": f"{who()} backed out of the attack.",
        "showdown": f"{who()} put a showdown hand on the table.",
        "deck_empty": f"{who()} found the deck used up.",
        "leave": f"{who()} left the game.",
        "refuse_crook": f"{who()} called off the Crook offer.",
        "start": war_begins(name(started.first) if started is not None else who("first")),
    }
    if do in simple:
        return simple[str(do)]
    sentence = _more(str(do), action, events, who, card)
    return None if sentence is None else _capital(sentence)


def _more(do: str, action: Action, events: Sequence[Event], who: Any, card: Any,
          ) -> str | None:
    """The sentences that need the events (the public keys do not carry enough)."""
    if do == "take_mob":
        return f"{who()} runs {card()}."
    if do == "buy":
        bought = _first(events, CardBought)
        price = f" for {bought.price} G" if bought is not None else ""
        return f"{who()} won {card()} in the auction{price}."
    if do == "uncontrolled":
        return f"{card()} was turned up in the center."
    if do == "choose_boss":
        return f"{who()} chose {card()} as Boss."
    if do in ("place", "move"):
        placed = _first(events, CrookPlaced) or _first(events, CrookMoved)
        under = _card(placed.under, events) if placed is not None and placed.under else ""
        return f"{who()} put {card()} under {under}." if under else \
            f"{who()} placed {card()}."
    if do == "draw":
        return f"{who()} drew {card()}."
    if do == "stats":
        return f"{who()} entered the stats of {card()}."
    if do == "attack":
        return _attack(action, events, who)
    if do == "protect":
        return (f"{who()} named {card()} as protector." if action.get("card")
                else f"{who()} named no protector.")
    if do in ("assist", "defend"):
        return f"{card()} {'aids the attack' if do == 'assist' else 'defends'}."
    if do == "modify":
        change = _first(events, ModifierAdded)
        if change is None:
            return f"{who()} changed the success number."
        return f"{who()} changed the success number by {signed(change.value)}: {change.why}."
    if do == "roll":
        return _roll(events, who)
    if do == "give":
        given = _first(events, Given)
        if (given is not None and given.money) or "money" in action:
            return f"{who()} gave money to {who('to')}."
        return f"{who()} gave {card()} to {who('to')}."
    if do == "accept_crook":
        return f"{who()} took the Crook offered."
    if do == "visit":
        return f"{card()} visited a Racket of the Mob."
    if do == "retire_boss":
        return f"{card()} retired the Boss and took over."
    if do == "claim":
        moved = sum(1 for e in events if isinstance(e, RacketMoved) and e.to_seat is not None)
        return f"{who()} claimed {moved} Racket{'' if moved == 1 else 's'} of a wiped-out Mob."
    if do == "play_special":
        return f"{who()} played a Special."
    if do == "adjust":
        return _adjust(events, who)
    if do == "share":
        answer = _first(events, ShareAnswered)
        agreed = answer.agree if answer is not None else bool(action.get("agree"))
        return f"{who()} {'agreed' if agreed else 'refused'} to share the win."
    return None


def _attack(action: Action, events: Sequence[Event], who: Any) -> str:
    announced = _first(events, AttackAnnounced)
    kind = announced.kind if announced is not None else action.get("kind")
    verb = VERBS.get(str(kind), "attack")
    attacker = _card(announced.attacker if announced is not None else action.get("attacker"),
                     events)
    target = _card(action.get("target"), events)
    return f"{who()}: {attacker} tries to {verb} {target}."


def _roll(events: Sequence[Event], who: Any) -> str:
    rolled = _first(events, AttackRolled)
    if rolled is None:
        return f"{who()} resolved the attack."
    if not rolled.counted:
        return f"{who()} fired no dice: the attack could not succeed, so it does not count."
    dice = " and ".join(str(d) for d in rolled.dice)
    result = "succeeds" if rolled.success else "fails"
    return f"{who()} rolled {dice} (needed {rolled.needed} or less): the attack {result}."


def _adjust(events: Sequence[Event], who: Any) -> str:
    for event in events:
        if isinstance(event, MoneyChanged | UnhappyChanged | TokenSpent) and \
                str(getattr(event, "reason", getattr(event, "why", ""))).strip():
            why = str(getattr(event, "reason", getattr(event, "why", ""))).strip()
            return f"{who()}: {why}."
    return f"{who()} applied a card's effect."


OPTION_SPECS: Mapping[str, OptionSpec] = {
    "game_length": OptionSpec(
        "Game length", "Which column of the victory table: how many Rackets win.",
        choices=(("short", "Short game (fewer Rackets to win)"),
                 ("long", "Long game (more Rackets to win)"))),
    "rackets_to_win": OptionSpec(
        "Rackets to win", "The rulebook's table gives 7 to 14 by players and game length.",
        choices=((None, "As the rulebook's table says"),
                 *((n, f"{n} Rackets") for n in (4, 6, 8, 10, 12, 14)))),
    "victory": OptionSpec(
        "Victory", "What wins the game.",
        choices=(("rackets", "Enough Rackets (the rulebook)"),
                 ("most_cards", "Seriously long: more Crooks and Rackets than all foes"),
                 ("last_standing", "Last Mob standing"))),
    "share_one_short": OptionSpec(
        "Shared win one short", "Mobs each exactly one Racket short may agree to share the win."),
    "draw_rule": OptionSpec(
        "Draws", "Whether the companion counts the cards each turn must draw.",
        choices=(("count", "Counted: at least one, fill the center to four (Downtowners +1)"),
                 ("free", "Not counted: the players keep track"))),
    "starting_money": OptionSpec("Starting money (G)", "Each Mob's treasury when play begins.",
                                 minimum=0, maximum=500),
    "auction_money": OptionSpec("Bidding money (G)", "Each player's money for the auction.",
                                minimum=0, maximum=500),
    "auction_crooks": OptionSpec("Crooks auctioned per player",
                                 "3 in the rulebook; more makes a faster game.",
                                 minimum=1, maximum=10),
    "auction_rackets": OptionSpec("Rackets auctioned per player",
                                  "2 in the rulebook; more makes a faster game.",
                                  minimum=0, maximum=10),
    "pass_bonus": OptionSpec("Pass bonus (G)", "Money for a turn without any action.",
                             minimum=0, maximum=100),
    "max_lieutenants": OptionSpec("Lieutenants per Boss", "Open sides of the Boss card.",
                                  minimum=1, maximum=8),
    "max_subordinates": OptionSpec("Subordinates per Crook", "Open sides of other Crooks.",
                                   minimum=1, maximum=8),
    "showdown_limit": OptionSpec("Showdown limit for others (G)",
                                 "Most a player outside the attack may spend.",
                                 minimum=0, maximum=100),
    "hit_money_limit": OptionSpec("Money on a Hit (G)", "Most the attacker may add to a Hit.",
                                  minimum=0, maximum=50),
    "gang_war_bonus": OptionSpec("Gang War bonus", "Added to every Hit in a Gang War.",
                                 minimum=0, maximum=20),
}
