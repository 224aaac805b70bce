"""The Nasty 7 in words: the history's sentence for each action, and the setup labels.

``describe(action, events, players)`` names players and cards as printed ("Ben played a
Twin racketeers"), never ids or seat numbers; ``OPTION_SPECS`` labels each option.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Action, OptionSpec
from companion.games.nasty7.events import Event
from companion.games.nasty7.fold import event_sentence
from companion.games.nasty7.state import DEFAULT_OPTIONS, V1_ONLY_OPTIONS

#: the choice of ``hand_entry_timing`` and ``glare_timing`` that stops the automatic clock
HOST_RULES = ("host_rules", "The host rules on hesitation (no automatic penalty)")

OPTION_SPECS: dict[str, OptionSpec] = {
    "hesitation_s": OptionSpec(
        "Seconds to play",
        "A player who hesitates more than this after the previous card takes the pile "
        "(a card at exactly this time is in time).",
        minimum=0.5,
        maximum=60,
    ),
    "no_twins": OptionSpec(
        "Version for younger players",
        "Leave out all twin cards; the rest of the deck is dealt.",
        choices=((False, "With twins (110 cards)"), (True, "Without twins")),
    ),
    "nasty": OptionSpec(
        "The nasty rule",
        "The first player of a round to play a phone chooses the word said for phones.",
        choices=(
            ("off", "Off: phones always say the word below"),
            ("first_round", "From the first round"),
            ("second_round", "From the second round (round 1 with the plain word)"),
        ),
    ),
    "even_nastier": OptionSpec(
        "Even nastier",
        "A starter penalised for the round's first card also gets one card from each opponent.",
        choices=((False, "Off"), (True, "On")),
    ),
    "starter": OptionSpec(
        "Who starts",
        "The rules: the youngest player starts; play goes clockwise in the order listed.",
        choices=tuple(
            (i, f"The {nth} player in the list")
            for i, nth in enumerate(("first", "second", "third", "fourth", "fifth", "sixth"))
        ),
    ),
    "deck_size": OptionSpec(
        "Cards dealt in all (not per player)",
        "0 deals the whole deck (without the twins in the younger players' version); "
        "leftovers go back in the box.",
        minimum=0,
        maximum=200,
    ),
    "word": OptionSpec("Phone word", "What players say for a phone card."),
    "hand_entry_timing": OptionSpec(
        "Cards entered by hand",
        "Without a camera (or for a card it missed) the host's typing is not a player's "
        "hesitation.",
        choices=(
            HOST_RULES,
            ("clock", "The clock runs from when the host entered the card"),
        ),
    ),
    "glare_timing": OptionSpec(
        "Glare over the pile",
        "While a lamp's glare hides part of the pile, the camera cannot see when a card "
        "lands there.",
        choices=(
            HOST_RULES,
            ("clock", "The clock runs on (a card under the glare may come late)"),
        ),
    ),
}
assert set(OPTION_SPECS) == set(DEFAULT_OPTIONS) - V1_ONLY_OPTIONS


def describe(action: Action, events: Sequence[Event], players: Sequence[str]) -> str | None:
    """One sentence for an accepted action and the events it caused."""
    parts = [event_sentence(e, players) for e in events]
    text = "; ".join(p for p in parts if p)
    return text[:1].upper() + text[1:] if text else None
