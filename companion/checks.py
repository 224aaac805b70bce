"""What a table command must satisfy: the host-only commands (start and end a game), a
game seed; and a card's stats read from its deck.

``companion.table`` (the loop) applies them; each raises ``IllegalAction`` (or
``ValueError`` for a seed) with a sentence a player understands. Who may send a game
action (and undo) is checked once, by the engine core (``ActionSet.admit``).
"""

from __future__ import annotations

import logging
from typing import Any

from companion.decks.stats import stats_for_tag
from companion.games.base import IllegalAction
from companion.inputs import Command

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
    """Starting and ending a game are the host's (not game actions: no engine judges them)."""
    if not cmd.source.is_host:
        raise IllegalAction("Only the host can do that.")


__all__ = ["MAX_SEED", "require_host", "seed_of", "stats_for"]
