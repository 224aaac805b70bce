"""Crime Lords' history sentences (``Engine.describe``) and setup controls (``option_specs``).

A sentence names players and cards (a card's entered name when the action's events carry
it, else its catalog name, "Crook 07"); it never tells an amount that is secret (showdown
hands, gifts of money, a treasury).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Action, OptionSpec
from companion.games.cards import catalog
from companion.games.crime_lords.events import CardEntered, Event, MobTaken
from companion.games.crime_lords.state import war_begins

VERBS = {"recruit": "recruit", "takeover": "take over", "hit": "Hit"}


def _card(card: Any, events: Sequence[Event]) -> str:
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
        return catalog("crime_lords").by_id(card).label()
    except KeyError:
        return card


def describe(action: Action, events: Sequence[Event], players: Sequence[str]) -> str | None:
    """The history's sentence for one accepted action."""

    def who(key: str = "seat") -> str:
        seat = action.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
            return players[seat]
        return "The host"

    def card(key: str = "card") -> str:
        return _card(action.get(key), events)

    do = action.get("do")
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
        "start": war_begins(who("first")),
    }
    if do in simple:
        return simple[str(do)]
    if do == "take_mob":
        return f"{who()} runs {card()}."
    if do == "buy":
        return f"{who()} won {card()} in the auction for {action.get('price')} G."
    if do == "uncontrolled":
        return f"{card()} was turned up in the center."
    if do == "choose_boss":
        return f"{card()} is {who()}'s Boss."
    if do in ("place", "move"):
        return f"{who()} put {card()} under {card('under')}."
    if do == "draw":
        special = str(action.get("card", "")).startswith("special")
        return f"{who()} drew {'a Special' if special else card()}."
    if do == "stats":
        return f"{who()} entered the stats of {card()}."
    if do == "attack":
        verb = VERBS.get(str(action.get("kind")), "attack")
        return f"{who()}: {card('attacker')} tries to {verb} {card('target')}."
    if do == "protect":
        return (f"{who()} named {card()} as protector." if action.get("card")
                else f"{who()} named no protector.")
    if do in ("assist", "defend"):
        return f"{card()} {'aids the attack' if do == 'assist' else 'defends'}."
    if do == "modify":
        return f"{who()} changed the success number: {action.get('why')}."
    if do == "roll":
        dice = action.get("dice")
        shown = " and ".join(str(d) for d in dice) if isinstance(dice, list) else "no dice"
        return f"{who()} rolled {shown}."
    if do == "give":
        if "money" in action:
            return f"{who()} gave money to {who('to')}."
        return f"{who()} gave {card()} to {who('to')}."
    if do == "accept_crook":
        return f"{who()} took the Crook offered."
    if do == "visit":
        return f"{card()} visited {card('racket')}."
    if do == "retire_boss":
        return f"{card()} retired the Boss and took over."
    if do == "claim":
        return f"{who()} claimed Rackets of {who('from')}'s Mob."
    if do == "play_special":
        return f"{who()} played a Special."
    if do == "adjust":
        return f"{who()}: {action.get('why')}."
    if do == "share":
        return f"{who()} {'agreed' if action.get('agree') else 'refused'} to share the win."
    return None


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
