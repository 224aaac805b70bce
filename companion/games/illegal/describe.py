"""Illegal in words: the history's sentence for an action, and the setup page's options.

``describe`` is the engine's ``describe`` (one sentence per accepted action, with player
and card names); ``OPTION_SPECS`` label the options of ``state.DEFAULT_OPTIONS``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.base import OptionSpec
from companion.games.illegal.deck import label
from companion.games.illegal.events import (
    CardDrawn,
    Event,
    HandRevealed,
    HandShown,
    TurnStarted,
)
from companion.games.illegal.fold import sentence
from companion.games.words import plurals


def describe(action: Mapping[str, Any], events: Sequence[Event],
             players: Sequence[str]) -> str | None:
    """The history's sentence for one accepted action: its events' sentences, with names."""

    def n(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"Player {seat + 1}"

    said = [_shown(n, action, e) if isinstance(e, HandRevealed | HandShown) else sentence(n, e)
            for e in events if not isinstance(e, TurnStarted | CardDrawn)]
    return plurals("; ".join(x for x in said if x)) or None


def _shown(n: Callable[[int], str], action: Mapping[str, Any],
           e: HandRevealed | HandShown) -> str:
    """A hand revealed after the hand, or laid open under Tax Inspection: one card ("Dee
    reveals Weapons"), or the whole hand ("Dee reveals the hand: Weapons, 2 × Alibi")."""
    who = n(e.seat)
    if isinstance(e, HandShown):
        if action.get("do") == "show_card" and e.cards:
            return f"{who} lays {label(e.cards[-1])} open (Tax Inspection)"
        return f"{who} lays the hand open (Tax Inspection): {_listed(e.cards)}"
    if action.get("do") == "reveal_card" and e.cards:
        return f"{who} reveals {label(e.cards[-1])}"
    if not e.cards:
        return f"{who} reveals an empty hand"
    return f"{who} reveals the hand: {_listed(e.cards)}"


def _listed(cards: Sequence[str]) -> str:
    """Cards by name, a card held twice or more once with its count ("2 × Alibi")."""
    counts = Counter(cards)
    return ", ".join(label(c) if k == 1 else f"{k}\u00a0×\u00a0{label(c)}"
                     for c, k in counts.items()) \
        or "no cards"


OPTION_SPECS = {
    "dealer": OptionSpec(
        "First dealer", "The player who deals the first hand; the player left of them starts."
    ),
    "match_to": OptionSpec(
        "Play to",
        "One hand, or a match over several hands until someone reaches the amount.",
        choices=((0, "One hand"), (500000, "500,000 €"), (1000000, "1,000,000 €")),
        minimum=0,
    ),
    "draw": OptionSpec(
        "Cards drawn after a turn",
        "The German rules draw one card; the English translation refills to seven.",
        choices=(("one", "One card (German rules)"), ("refill", "Refill to seven")),
    ),
    "empty_hand": OptionSpec(
        "A turn with no card in hand",
        "When the paranoia pass took a player's last card (the rules do not say).",
        choices=(("passes", "The player draws one card; the turn passes"),
                 ("ends", "The hand ends: the accounting")),
    ),
    "hassle_leaves": OptionSpec(
        "An empty Raid or Protection Money goes",
        "When nothing is left for it to take.",
        choices=(("end_of_turn", "At the end of its victim's turn"), ("at_once", "At once")),
    ),
    "magnum_restores_hassle": OptionSpec(
        "A Magnum stopping Relatives puts the hassle back",
        "Off: the Magnum stops only the takeover; the hassle Relatives removed stays gone.",
    ),
    "move_timeout_s": OptionSpec(
        "Unfinished moves are called off after (seconds)",
        "A card shown without its target or cost, or an unclaimed Magnum; 0: only the host "
        "calls it off. A single card on the discard pile is then booked as the discard.",
        minimum=0,
        maximum=600,
    ),
    "legal_extra": OptionSpec(
        "A legal business may join",
        "The German list of exceptions to one card a turn names the legal business.",
        choices=(
            ("illegal", "An illegal business (before or after it)"),
            ("any", "Any card of the turn"),
            ("after_illegal", "Only after an illegal business (records of format 1)"),
        ),
    ),
    "bribe_extra": OptionSpec(
        "The Bribe is played besides the turn's card",
        "The German list of exceptions to one card a turn names the Bribe. Off (records of "
        "format 1): the Bribe is the turn's card.",
    ),
    "unchosen_loss": OptionSpec(
        "A loss its victim has not chosen yet",
        "What happens when the next player acts before a Raid or Protection Money's victim "
        "chose the business it loses.",
        choices=(
            ("waits", "The table waits for the victim's choice"),
            ("cheapest", "The cheapest business goes (records of format 1)"),
        ),
    ),
    "highest_tie": OptionSpec(
        "A Loan Shark between equally expensive businesses",
        "Which one goes when its player names none.",
        choices=(
            ("choose", "Its player chooses"),
            ("last", "The one played last (records of format 1)"),
        ),
    ),
}
