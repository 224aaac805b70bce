"""The decks' error type."""

from __future__ import annotations


class DeckError(Exception):
    """A deck that cannot be made, found, read or changed; the message says what to do."""
