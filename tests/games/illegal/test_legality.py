"""Illegal: legality of every card against every hassle, and who may play when."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.cards import catalog
from companion.games.illegal import engine
from tests.games.illegal.helpers import run, table, with_seat

HASSLES = (None, "raid", "protection_money", "tax_inspection", "vacation_in_sweden")
ILLEGAL = ("gambling", "pimps", "merchandise", "weapons", "the_coup")
LEGAL = ("tropical_fish", "brokering", "politics")
SOLVES = {
    "informant": "raid",
    "mister_zero": "protection_money",
    "white_coat": "tax_inspection",
    "alibi": "vacation_in_sweden",
}


def expected_refusal(card: str, hassle: str | None, market: bool) -> str | None:
    """The rules text, card by card: a substring of the refusal, or None when allowed."""
    if card == "market_open":
        return "one Market Open per hand" if market else None
    if card in ILLEGAL + LEGAL + ("day_of_accounting", "hostile_takeover", "relatives"):
        if not market:
            return "Play a Market Open first"
    if card in ILLEGAL and hassle:
        return "No illegal business while a"
    if card in LEGAL and hassle == "vacation_in_sweden":
        return "No business at all while a Vacation in Sweden"
    if card == "day_of_accounting" and hassle:
        return "No Day of Accounting while a"
    if card == "hostile_takeover" and hassle:
        return "No Hostile Takeover while a"
    if card in SOLVES:
        return None if SOLVES[card] == hassle else "for the"
    if card == "bribe":
        return None if hassle else "No hassle lies on any Market Open"
    if card == "magnum":
        return None if hassle else "the Magnum has no target"
    return None  # hassles (seat 1 is open), paranoia, relatives


def complete(card: str) -> dict[str, Any]:
    """A full play of ``card`` by seat 0, with every key the card may need."""
    action: dict[str, Any] = {"do": "play", "seat": 0, "card": card}
    kind = catalog("illegal").by_id(card).kind
    if kind == "hassle":
        action["target"] = 1
    elif kind in ("solution", "magnum"):
        action["target"] = 0
        if card == "bribe":
            action["discard"] = "gambling"
    elif kind == "takeover":
        action.update(target=1, take="weapons")
    elif card == "family_party":
        action["lose"] = "brokering"
    return action


CASES = [
    (card, hassle, market)
    for card in catalog("illegal").ids()
    for hassle in HASSLES
    for market in (True, False)
    if market or hassle is None
]


@pytest.mark.parametrize(("card", "hassle", "market"), CASES)
def test_every_card_against_every_hassle(card: str, hassle: str | None, market: bool) -> None:
    state = table(hassle, market)
    want = expected_refusal(card, hassle, market)
    if want is None:
        events = engine.decide(state, complete(card), 0.0)
        assert type(events[0]).__name__ == "CardPlayed"
        assert events[0].card == card
    else:
        with pytest.raises(IllegalAction, match=want):
            engine.decide(state, complete(card), 0.0)
    offered = [m for m in engine.moves(state, 0) if m.do == "play" and m.fixed["card"] == card]
    assert offered and any(m.allowed for m in offered) is (want is None)
    assert all(m.why for m in offered if not m.allowed)


def test_the_issue_example_refusal() -> None:
    with pytest.raises(IllegalAction) as err:
        engine.decide(table("raid"), complete("weapons"), 0.0)
    assert err.value.reason == "No illegal business while a Raid lies on your Market Open"


def test_out_of_turn_only_magnum() -> None:
    state = table("raid")
    with pytest.raises(IllegalAction, match="It is A's turn"):
        engine.decide(state, {"do": "play", "seat": 1, "card": "tropical_fish"}, 0.0)
    after = run(state, {"do": "play", "seat": 2, "card": "magnum", "target": 0})
    assert after.seats[0].hassle is None
    assert after.seats[2].hand == 6  # no draw for a Magnum out of turn
    assert after.turn == 0 and after.draw_pile == state.draw_pile


def test_hassle_needs_an_open_uncovered_opponent() -> None:
    state = table(None)
    with pytest.raises(IllegalAction, match="not yourself"):
        engine.decide(state, {"do": "play", "seat": 0, "card": "raid", "target": 0}, 0.0)
    with pytest.raises(IllegalAction, match="C has no Market Open"):
        engine.decide(state, {"do": "play", "seat": 0, "card": "raid", "target": 2}, 0.0)
    covered = with_seat(state, 1, hassle="tax_inspection")
    with pytest.raises(IllegalAction, match="one hassle at a time"):
        engine.decide(
            with_seat(covered, 2, market_open=True),
            {"do": "play", "seat": 0, "card": "raid", "target": 1},
            0.0,
        )
