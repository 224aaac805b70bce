"""A physical card's stats kept in its deck: stored once, read back the next game."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.decks import (
    Deck,
    DeckError,
    card_serial,
    demo_deck,
    encode_payload,
    stats_deck,
    stats_for_tag,
    store_stats,
    stored_stats,
)


def test_stats_are_kept_for_the_physical_card_and_read_back(state_dir: Path) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    assert stored_stats(deck, "crook_20") is None
    store_stats(deck, "crook_20", {"name": "Slim", "power": 1, "resistance": 1,
                                   "weakness": ""})
    again = Deck.load("home", state_dir)  # a new game reads the file again
    assert stored_stats(again, "crook_20") == {"name": "Slim", "power": 1, "resistance": 1}
    serial = card_serial(again, "crook_20")
    assert serial == 8 + 20  # the 8 Mobs come first
    assert stats_for_tag(encode_payload(again, serial), state_dir) == {
        "name": "Slim", "power": 1, "resistance": 1}
    assert stats_for_tag(encode_payload(again, card_serial(again, "crook_21") or 0),
                         state_dir) is None
    assert stats_for_tag("not a tag", state_dir) is None


def test_wrong_stats_are_refused_with_the_fields(state_dir: Path) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    with pytest.raises(DeckError, match="unknown field 'speed'; the fields are name, power"):
        store_stats(deck, "crook_01", {"speed": 3})
    with pytest.raises(DeckError, match="power must be a whole number"):
        store_stats(deck, "crook_01", {"power": "six"})
    with pytest.raises(DeckError, match="has no card 'crook_99'"):
        store_stats(deck, "crook_99", {"power": 1})


def test_the_games_own_deck_comes_before_the_demo_deck(state_dir: Path) -> None:
    assert stats_deck("crime_lords", state_dir) is None
    demo = demo_deck("crime_lords", state_dir)
    assert stats_deck("crime-lords", state_dir).name == demo.name  # type: ignore[union-attr]
    Deck.new("crime_lords", "zeta", state_dir)
    Deck.new("crime_lords", "alpha", state_dir)
    Deck.new("nasty7", "aaa", state_dir)
    assert stats_deck("crime_lords", state_dir).name == "alpha"  # type: ignore[union-attr]
    assert stats_deck("crime_lords", state_dir, "zeta").name == "zeta"  # type: ignore[union-attr]
    assert stats_deck("crime_lords", state_dir, "nope") is None
