"""Decks of physical cards and the keyed QR codes stuck on them.

``Deck.new(game, name)`` makes a deck with a random key; ``encode_payload(deck, serial)``
is the text of a card's code; ``resolve_tag(text)`` says which card of which deck a
decoded text is, or why it is refused. See ``docs/decks.md``.
"""

from __future__ import annotations

from companion.decks.deck import Deck, decks_dir, list_decks
from companion.decks.errors import DeckError
from companion.decks.games import canonical_game
from companion.decks.payload import CALIBRATION_SERIAL, Payload, parse_payload
from companion.decks.resolve import (
    CALIBRATION_CARD,
    TagInfo,
    TagStatus,
    demo_deck,
    demo_key,
    encode_payload,
    resolve_tag,
)
from companion.decks.stats import (
    card_serial,
    stats_deck,
    stats_for_tag,
    store_stats,
    stored_stats,
)

__all__ = [
    "CALIBRATION_CARD",
    "CALIBRATION_SERIAL",
    "Deck",
    "DeckError",
    "Payload",
    "TagInfo",
    "TagStatus",
    "canonical_game",
    "card_serial",
    "decks_dir",
    "demo_deck",
    "demo_key",
    "encode_payload",
    "list_decks",
    "parse_payload",
    "resolve_tag",
    "stats_deck",
    "stats_for_tag",
    "store_stats",
    "stored_stats",
]
