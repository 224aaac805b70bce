"""A physical card's printed stats, entered once and kept in its deck (Crime Lords).

The dashboard asks the drawing player for a new card's stats; ``store_stats`` keeps them
in the deck file for that physical card, and ``stored_stats`` (or ``stats_for_tag``, for
a scanned code) gives them back the next game, so scanning the card is enough.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.decks.deck import Deck, list_decks
from companion.decks.errors import DeckError
from companion.decks.games import canonical_game
from companion.decks.resolve import resolve_tag


def stats_deck(game: str, state_dir: Path | None = None, name: str | None = None) -> Deck | None:
    """The deck whose stats a game of ``game`` uses: the deck ``name`` if given, else the
    first of the game's own decks by name, else its demo deck; None if it has none."""
    game = canonical_game(game)
    decks = [d for d in list_decks(state_dir) if d.game == game]
    if name is not None:
        return next((d for d in decks if d.name == name), None)
    own = [d for d in decks if not d.name.startswith("demo-")]
    return (own or decks)[0] if decks else None


def card_serial(deck: Deck, card: str) -> int | None:
    """The serial of the (first) physical card of type ``card`` in ``deck``."""
    return next((serial for serial, kind in deck.physical() if kind.id == card), None)


def stored_stats(deck: Deck, card: str) -> dict[str, Any] | None:
    """The stats entered for card ``card`` (a catalog id), None if not entered yet."""
    serial = card_serial(deck, card)
    return None if serial is None else deck.card_stats(serial)


def store_stats(deck: Deck, card: str, stats: dict[str, Any]) -> None:
    """Keep ``stats`` for card ``card`` in ``deck`` (saved at once); DeckError if not
    possible (no such card, an unknown field or a wrong type, said in the message)."""
    serial = card_serial(deck, card)
    if serial is None:
        raise DeckError(f"deck {deck.name!r} has no card {card!r}")
    deck.set_card_stats(serial, stats)


def stats_for_tag(text: str, state_dir: Path | None = None) -> dict[str, Any] | None:
    """The stats stored for the physical card whose code is ``text``, else None (the
    table attaches them to a camera draw: ``TagInput.stats``). The deck comes from
    ``resolve_tag``'s cache, re-read only when its file changed: no file is read for a
    card seen again."""
    stats = resolve_tag(text, state_dir).stats
    return None if stats is None else dict(stats)
