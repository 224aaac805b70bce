"""What a command must satisfy before the game judges it: host-only commands, a seat
acting only for itself, a game seed; and a card's stats read from its deck.

``companion.table`` (the loop) applies them; each raises ``IllegalAction`` (or
``ValueError`` for a seed) with a sentence a player understands.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.decks.stats import stats_for_tag
from companion.games.base import IllegalAction
from companion.inputs import Command, Source

log = logging.getLogger(__name__)

#: seeds are stored as SQLite integers
MAX_SEED = 2**63 - 1


def seed_of(value: Any) -> int:
    """A game seed: a whole number from 0 to ``MAX_SEED``; ``ValueError`` says so."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return value


def stats_for(payload: str) -> dict[str, Any] | None:
    """The stats the deck holds for the physical card of ``payload`` (None if none or
    if the deck cannot be read: a camera draw then asks for them)."""
    try:
        return stats_for_tag(payload)
    except Exception:
        log.exception("reading a card's stats failed")
        return None


def require_host(cmd: Command) -> None:
    if not cmd.source.is_host:
        raise IllegalAction("Only the host can do that.")


def authorised(action: dict[str, Any], source: Source) -> dict[str, Any]:
    """A seat may only act as itself: fill in its seat, refuse acting for another."""
    seat = source.seat
    if seat is None:
        return action
    if "seat" not in action:
        action["seat"] = seat
    claimed = action.get("seat")
    by = action.get("by")
    if claimed != seat or (isinstance(by, list) and any(b != seat for b in by)):
        raise IllegalAction("A phone can only act for its own seat.")
    return action


__all__ = ["MAX_SEED", "authorised", "require_host", "seed_of", "stats_for"]
