"""Crime Lords with a registered deck: cards are picked by name, never by sticker number;
stats are picked from the rulebook's words and kept as typed."""

from __future__ import annotations

import re

import pytest

from companion.games.base import IllegalAction
from companion.games.crime_lords import engine, vocab
from companion.games.crime_lords.state import card_from_stats
from tests.games.crime_lords.helpers import Table, two_mobs

DECK = [
    {"card": "mob_03", "stats": {"name": "The Tongs", "boss_bonus": 2}},
    {"card": "crook_30", "stats": {"name": "Lefty Lou", "power": 2, "resistance": 1,
                                   "weakness": "casinos"}},
    {"card": "racket_40", "stats": {"name": "Casinos", "income": 3, "resistance": 2,
                                    "district": "South Side", "type": "Casinos"}},
    {"card": "racket_41", "stats": {"name": "Casinos", "income": 3, "resistance": 2,
                                    "district": "west side", "type": "Casinos"}},
    {"card": "special_09", "stats": {"name": "Double Cross"}},
    {"card": "crook_31", "stats": {"name": "Half entered"}},  # no Power: asked at the table
]
STICKER = re.compile(r"\b(Crook|Racket|Special|Mob) \d")


def _labels(moves: list, do: str) -> list[str]:
    return [c.label for m in moves if m.do == do for p in m.params for c in p.choices]


def test_deck_cards_are_picked_by_name() -> None:
    t = Table()
    t.do(do="deck_cards", cards=DECK)
    host = engine.moves(t.state, None)
    mobs = _labels([m for m in host if m.label == "Ann's Mob"], "take_mob")
    assert mobs == ["The Tongs"]
    sold = _labels([m for m in host if m.label == "Ann won a card"], "buy")
    assert sold[:2] == ["Lefty Lou", "Casinos (South Side)"]
    assert "Casinos (west side)" in sold and "Double Cross" in sold
    assert "Half entered" not in sold  # its Power is still to be typed: a new Crook
    assert not [x for m in host for x in [m.label, *_labels([m], m.do)] if STICKER.search(x)]
    # the deck's stats come with the card: nothing typed
    t.do(do="take_mob", seat=0, card="mob_03")
    assert t.state.mobs[0].mob_name == "The Tongs" and t.state.mobs[0].boss_bonus == 2
    t.do(do="buy", seat=0, card="racket_41", price=1)
    assert t.state.card("racket_41").district == "west side"  # kept as typed


def test_a_new_card_by_hand_takes_an_unused_card() -> None:
    t = two_mobs()
    t.do(do="deck_cards", cards=DECK)
    t.do(do="collect", seat=0)
    draws = {m.label: m for m in engine.moves(t.state, 0) if m.do == "draw"}
    assert set(draws) >= {"Draw a card", "Draw a new Crook", "Draw a new Racket",
                          "Draw a new Special"}
    assert "Lefty Lou" in _labels([draws["Draw a card"]], "draw")
    new = draws["Draw a new Special"]
    assert not new.params and not t.state.ready(new.fixed["card"])
    t.do(do="draw", seat=0, card="crook_30")  # known by the deck: no stats asked
    assert t.state.pending is None and t.state.card("crook_30").name == "Lefty Lou"


def test_loading_again_changes_nothing_and_a_bad_district_is_refused() -> None:
    t = Table()
    assert t.do(do="deck_cards", cards=DECK)
    assert t.do(do="deck_cards", cards=DECK) == []
    assert t.do(do="deck_cards", cards=[{"card": "racket_50", "stats": {
        "income": 1, "resistance": 1, "district": "Uptown"}}]) == []  # asked at the table
    assert not t.state.ready("racket_50")
    with pytest.raises(IllegalAction, match="not a district"):
        engine.decide(t.state, {"do": "buy", "seat": 0, "card": "racket_50", "price": 0,
                                "stats": {"income": 1, "resistance": 1,
                                          "district": "Narnia"}}, 1.0)


def test_words_compare_whatever_the_case_and_stay_as_typed() -> None:
    assert vocab.canonical("north side", vocab.DISTRICTS) == "North Side"
    assert vocab.canonical("CASINO", vocab.RACKET_TYPES) == "Casinos"
    assert vocab.tidy("type", "loan sharks") == "Loan Shark"
    assert vocab.choice_problem("type", "Casinoes") is not None
    assert vocab.choice_problem("weakness", "none") is None
    card = card_from_stats("racket_01", "racket", {"name": "The Big Wheel", "type": "Other",
                                                  "district": "Central"})
    assert (card.type, card.district) == ("The Big Wheel", "Central")
    crook = card_from_stats("crook_01", "crook", {"weakness": "None"})
    assert crook.weakness == ()
    old = card_from_stats("crook_01", "crook", {"weakness": "Casinos"}, lower=True)
    assert old.weakness == ("casinos",)
