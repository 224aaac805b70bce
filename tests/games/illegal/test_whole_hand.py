"""Illegal: a whole hand revealed (after the hand) or laid open (Tax Inspection) in one go,
checked by the same rule as card by card; and the history's words for both (issue 38)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.illegal import State, engine
from companion.games.illegal.deck import card
from companion.games.illegal.events import HandRevealed, HandShown, SkipsAdded
from companion.games.illegal.fold import sentence
from companion.games.illegal.legality import copies_left
from companion.games.illegal.state import OVER
from companion.games.moves import Move
from tests.games.illegal.helpers import new, run, with_seat

HAND = ["weapons", "alibi", "alibi", "family_party", "gambling", "raid", "informant"]


def over(**seat0: Any) -> State:
    """Hand over: Ann (seat 0) holds 7 cards to reveal; Ben opened Weapons twice."""
    state = dataclasses.replace(new(2), phase=OVER)
    state = with_seat(state, 1, market_open=True, businesses=("weapons", "weapons"), hand=0,
                      revealed=())
    return with_seat(state, 0, hand=7, **seat0)


def whole(state: State, seat: int, do: str) -> Move:
    found = [m for m in engine.moves(state, seat) if m.do == do]
    assert len(found) == 1, [m.label for m in engine.moves(state, seat)]
    return found[0]


def refusal(state: State, action: dict[str, Any]) -> str | None:
    try:
        engine.decide(state, action, 0.0)
    except IllegalAction as exc:
        return exc.reason
    return None


def test_the_reveal_offers_the_whole_hand_in_one_go_and_card_by_card() -> None:
    state = over()
    labels = [m.label for m in engine.moves(state, 0) if m.allowed]
    assert labels == ["Reveal your whole hand (7 cards)", "Reveal one card at a time (7 to go)"]
    move = whole(state, 0, "reveal")
    (param,) = move.params
    assert (param.kind, param.fewest, param.most, param.repeat) == ("some", 7, 7, True)
    limits = {c.value: c.most for c in param.choices}
    assert limits["magnum"] == 1 and limits["market_open"] == 9  # Ben's Market Open is out
    assert limits["weapons"] == card("weapons").count - 2  # Ben's two open Weapons
    assert move.offers({"do": "reveal", "seat": 0, "hand": HAND})
    # one action: Ann's whole hand, scored with Ben's empty one
    after = run(state, {"do": "reveal", "seat": 0, "hand": HAND})
    assert after.seats[0].revealed == tuple(HAND)
    assert after.scores is not None


@pytest.mark.parametrize(("hand", "bad"), [
    (["magnum", "magnum", "alibi", "alibi", "alibi", "alibi", "alibi"], "magnum"),  # one in a deck
    (["weapons"] * 5 + ["alibi", "alibi"], "weapons"),  # 6 in a deck, 2 open in front of Ben
])
def test_a_hand_the_deck_cannot_hold_is_neither_offered_nor_accepted(hand: list[str],
                                                                      bad: str) -> None:
    state = over()
    action = {"do": "reveal", "seat": 0, "hand": hand}
    assert not whole(state, 0, "reveal").offers(action)
    reason = refusal(state, action)
    assert reason is not None and reason.startswith(f"The deck has {card(bad).count} ")
    # card by card, the same rule stops the same copy
    allowed = copies_left(state, bad, 0)
    partial = run(state, *({"do": "reveal_card", "seat": 0, "card": bad} for _ in range(allowed)))
    assert refusal(partial, {"do": "reveal_card", "seat": 0, "card": bad}) == reason


def test_a_hand_of_the_wrong_size_is_not_offered_and_refused_in_words() -> None:
    state = over()
    action = {"do": "reveal", "seat": 0, "hand": HAND[:6]}
    assert not whole(state, 0, "reveal").offers(action)
    assert refusal(state, action) == "A holds 7 cards; reveal exactly 7"


def test_every_sample_of_the_whole_hand_is_accepted() -> None:
    state = over()
    actions = list(whole(state, 0, "reveal").actions())
    assert len(actions) == 2 and all(len(a["hand"]) == 7 for a in actions)
    assert "magnum" in actions[1]["hand"]  # the deck's last cards, each as often as it may
    for action in actions:
        assert refusal(state, action) is None, action


def test_after_a_card_revealed_the_rest_goes_card_by_card() -> None:
    state = run(over(), {"do": "reveal_card", "seat": 0, "card": "alibi"})
    assert [m.label for m in engine.moves(state, 0) if m.allowed] == [
        "Reveal one card at a time (6 to go)"]


def test_a_hand_laid_open_to_the_end_is_revealed_with_one_tap() -> None:
    state = over(hassle="tax_inspection", market_open=True, shown=tuple(HAND))
    known = [m for m in engine.moves(state, 0) if m.do == "reveal" and not m.params]
    assert [m.label for m in known] == ["Reveal the 7 cards you laid open"]
    (action,) = known[0].actions()
    assert run(state, action).seats[0].revealed == tuple(HAND)
    part = over(hassle="tax_inspection", market_open=True, shown=tuple(HAND[:6]))
    assert not [m for m in engine.moves(part, 0) if m.do == "reveal" and not m.params]


def test_copies_left_is_the_limit_of_a_card_in_a_hand() -> None:
    state = over(revealed=("alibi",))
    assert copies_left(state, "alibi", 0) == card("alibi").count  # Ann's own shown aside
    assert copies_left(state, "alibi", 1) == card("alibi").count - 1


def test_tax_inspection_lays_the_whole_hand_open_in_one_go() -> None:
    state = with_seat(new(2), 1, hassle="tax_inspection", market_open=True)
    move = whole(state, 1, "show")
    assert move.label == "Lay your whole hand open (7 cards)"
    action = {"do": "show", "seat": 1, "hand": HAND}
    assert move.offers(action)
    assert run(state, action).seats[1].shown == tuple(HAND)
    assert [m.label for m in engine.moves(state, 1) if m.do == "show_card"] == [
        "Lay a card of your hand open (7 to go)"]


def describe(action: dict[str, Any], *events: Any) -> str | None:
    assert engine.describe is not None
    return engine.describe(action, list(events), ["Dee", "Eli"])


def test_the_history_says_who_reveals_what_in_words() -> None:
    assert describe({"do": "reveal_card", "seat": 0, "card": "weapons"},
                    HandRevealed(0, ("alibi", "weapons"))) == "Dee reveals Weapons"
    assert describe({"do": "reveal", "seat": 0},
                    HandRevealed(0, ("alibi", "weapons", "alibi"))) == (
        "Dee reveals the hand: 2\u00a0×\u00a0Alibi, Weapons")
    assert describe({"do": "reveal", "seat": 1}, HandRevealed(1, ())) == (
        "Eli reveals an empty hand")
    assert describe({"do": "show_card", "seat": 1, "card": "raid"},
                    HandShown(1, ("raid",))) == "Eli lays Raid open (Tax Inspection)"
    assert describe({"do": "show", "seat": 1}, HandShown(1, ("raid", "raid"))) == (
        "Eli lays the hand open (Tax Inspection): 2\u00a0×\u00a0Raid")


def test_turns_sat_out_are_written_out() -> None:
    def n(seat: int) -> str:
        return "Dee"

    assert sentence(n, SkipsAdded(0, 1)) == "Dee sits out the next turn"
    assert sentence(n, SkipsAdded(0, 2)) == "Dee sits out the next 2 turns"
    assert sentence(n, SkipsAdded(0, 0)) is None
