"""The four games' card catalogs, as decks see them."""

from __future__ import annotations

import re

from companion.games.cards import catalog


def test_nasty7_has_110_cards_of_the_five_kinds() -> None:
    cat = catalog("nasty7")
    assert cat.ids() == ("racketeer", "twin_racketeer", "phone", "twin_phone", "gun")
    assert cat.total() == 110
    assert {c.id: c.value for c in cat.cards} == {
        "racketeer": 1,
        "twin_racketeer": 2,
        "phone": 1,
        "twin_phone": 2,
        "gun": 1,
    }


def test_casablanca_has_8_distinct_agents_and_the_suitcase() -> None:
    cat = catalog("casablanca")
    agents = [c for c in cat.cards if c.kind == "agent"]
    assert len(agents) == 8
    assert len({c.id for c in agents}) == 8
    homes = [c.extra["homebase"] for c in agents]
    assert sorted(set(homes)) == ["airport", "hotel", "police", "ricks_cafe"]
    assert all(homes.count(h) == 2 for h in set(homes))
    assert [c.id for c in cat.cards if c.kind == "suitcase"] == ["suitcase"]
    assert cat.by_id("white_hotel").extra == {"colour": "white", "homebase": "hotel"}
    assert cat.by_id("white_police").extra == {"colour": "white", "homebase": "police"}
    assert cat.total() == 9


def test_crime_lords_has_numbered_slots() -> None:
    cat = catalog("crime_lords")
    counts: dict[str, int] = {}
    for card in cat.cards:
        counts[card.kind] = counts.get(card.kind, 0) + 1
        assert card.count == 1
        assert re.fullmatch(rf"{card.kind}_\d\d", card.id)
    assert counts == {"mob": 8, "crook": 36, "racket": 52, "special": 16}
    assert cat.by_id("crook_07").label() == "Crook 07"


def test_illegal_has_the_108_card_german_deck() -> None:
    cat = catalog("illegal")
    assert cat.total() == 108
    assert cat.by_id("weapons").name["de"]
