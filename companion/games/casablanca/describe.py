"""Casablanca's history sentences (``describe``) and labelled setup controls (``OPTION_SPECS``).

A sentence never names a bribe amount: the history is public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import Action, OptionSpec
from companion.games.cards import catalog
from companion.games.casablanca.board import clip, default_board
from companion.games.casablanca.events import (
    EliminationAnnounced,
    Event,
    MoveAnnounced,
    ProtestConceded,
    ProtestRaised,
    ProtestSettled,
    SightingSettled,
    StoodFirm,
    TagMoved,
)
from companion.games.casablanca.state import SUITCASE


def _agent(agent: str) -> str:
    cards = {c.id: c for c in catalog("casablanca").cards}
    card = cards.get(agent)
    return card.label() if card is not None else clip(agent.replace("_", " ").title())


def _space(space: str) -> str:
    """A space by its name on the default board; a drawn board's space by its key in
    words (the board page makes the key from the name: ``old_gate`` is "Old Gate")."""
    if default_board().space(space):
        return default_board().name(space)
    return clip(space.replace("_", " ").title() if space.islower() else space)


def _who(players: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return "The table"


def _first(events: Sequence[Event], kind: type) -> Any:
    return next((e for e in events if isinstance(e, kind)), None)


def describe(action: Action, events: Sequence[Event], players: Sequence[str]) -> str | None:
    """One plain sentence for an accepted action (no amounts), or ``None``."""
    do, who = action.get("do"), _who(players, action.get("seat"))
    moved: MoveAnnounced | None = _first(events, MoveAnnounced)
    if do == "bribe":
        n = len(action.get("amounts") or [])
        return f"{who} bribed {n} agent{'s' if n != 1 else ''} (amounts are secret)."
    if do == "move" and moved is not None:
        carry = " with the suitcase" if moved.suitcase else ""
        return f"{who} announced {_agent(moved.agent)} to {_space(moved.to)}{carry}."
    eliminated: EliminationAnnounced | None = _first(events, EliminationAnnounced)
    if do == "eliminate" and eliminated is not None:
        return (f"{who} announced {_agent(eliminated.agent)} eliminates "
                f"{_agent(eliminated.target)}.")
    if do == "protest":
        if _first(events, ProtestRaised) is not None:
            return f"{who} protested; concede or compare."
        settled: ProtestSettled | None = _first(events, ProtestSettled)
        if settled is not None:
            return f"{who} protested: {'upheld' if settled.upheld else 'not upheld'}."
    if do == "concede":
        conceded: ProtestConceded | None = _first(events, ProtestConceded)
        if conceded is not None:
            return f"{who} conceded: the action is {'cancelled' if conceded.upheld else 'on'}."
    if do == "compare":
        settled = _first(events, ProtestSettled)
        if settled is not None:
            return (f"The bribes were compared: the protest is "
                    f"{'upheld' if settled.upheld else 'not upheld'}.")
        if _first(events, StoodFirm) is not None:
            return f"{who} asked for the comparison."
    if do in ("seen", "left"):
        tag = action.get("tag")
        name = "The suitcase" if tag == SUITCASE else _agent(str(tag))
        if _first(events, TagMoved) is not None and do == "seen":
            return f"The camera saw {name} on {clip(action.get('zone'))}."
        if _first(events, SightingSettled) is None:
            return f"The camera lost sight of {name}."
    if do == "resolve":
        return "The announced action was confirmed."
    return None


#: The setup page's labelled controls (one line of help each). ``agents`` and ``board``
#: are data, not controls: the catalog's agents, and the board saved on the board page
#: (``/host/board``) or the built-in one.
OPTION_SPECS: dict[str, OptionSpec] = {
    "budget": OptionSpec("Money per player ($)", "Each player's bribes for the whole game.",
                         minimum=100, maximum=1_000_000),
    "step": OptionSpec("Bribes in steps of ($)", "Every bribe is a multiple of this.",
                       minimum=1, maximum=10_000),
    "elimination_cost": OptionSpec(
        "Cost of an elimination ($)",
        "Needed on, and paid from, the eliminating agent.", minimum=1, maximum=100_000),
    "eliminate_in_home": OptionSpec(
        "Eliminate in the own homebase",
        "Whether an agent standing in its own homebase can be eliminated.",
        choices=((False, "No (the older rules)"), (True, "Yes"))),
    "move_then_eliminate": OptionSpec(
        "Move, then eliminate",
        "After a move the mover may still eliminate with the agent just moved.",
        choices=((True, "Yes (translator's note 1)"), (False, "No"))),
    "protest_reveal": OptionSpec(
        "What a protest shows",
        "The last amount called in the bidding, or only who won it.",
        choices=(("called", "The last amount called"), ("winner", "Only the winner"))),
    "concessions": OptionSpec(
        "Concede before comparing",
        "Actor and protester may concede (nothing revealed) before the blind comparison.",
        choices=((True, "Yes"), (False, "No: compare at once"))),
    "settle_s": OptionSpec(
        "Camera: seconds a stand must stand still",
        "A stand seen this long on a new space announces its move; a passing hand does not.",
        minimum=0, maximum=60),
    "protest_s": OptionSpec(
        "Camera: seconds to protest (0 = until the next action)",
        "An announced action nobody protests takes effect by itself after this time.",
        minimum=0, maximum=600),
    "suitcase_start": OptionSpec("The suitcase starts on", "A space of the board.",
                                 choices=(("basar", "Basar"),)),
}
