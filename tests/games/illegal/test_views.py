"""Illegal: the views are JSON and hold no hidden hand; buzzer and LED signals."""

from __future__ import annotations

import dataclasses
import json

from companion.games.illegal import State, engine
from companion.games.illegal.state import CHOOSE, MORE, OVER, Awaiting
from tests.games.illegal.helpers import new, run, table, with_seat


def test_views_are_json_and_hold_no_hand() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "weapons"})
    view = engine.public_view(state)
    json.dumps(view)
    json.dumps(engine.seat_view(state, 1))
    json.dumps(engine.state_json(state))
    assert view["seats"][0]["businesses"][-1]["value"] == 50000
    assert view["seats"][0]["revealed"] is None and "me" not in view
    assert "A may add a legal business" in view["status"]


def test_signals() -> None:
    state = with_seat(table("raid"), 0, businesses=("merchandise",))
    events = engine.decide(state, {"do": "play", "seat": 0, "card": "tropical_fish"}, 0.0)
    after = run(state, {"do": "play", "seat": 0, "card": "tropical_fish"})
    assert engine.signals(after, events) == [("card", 0), ("penalty", 0), ("turn", 1)]


def test_attention_asks_the_seat_that_must_act_now() -> None:
    def asked(state: State) -> list[bool]:
        return [engine.seat_view(state, i)["attention"]["act"] for i in range(state.n)]

    start = new(3)
    assert asked(start) == [True, False, False]  # the turn's player
    assert asked(dataclasses.replace(start, turn=2, phase=MORE)) == [False, False, True]
    # B must choose the business the Raid takes: A's turn waits for B
    choice = Awaiting(1, "lose", ("weapons", "tropical_fish"), "raid")
    assert asked(dataclasses.replace(start, phase=CHOOSE, awaiting=choice)) == [
        False, True, False]
    # a Magnum shown out of turn, not claimed yet: every seat holding cards is asked
    magnum = with_seat(dataclasses.replace(start, unclaimed=True), 2, hand=0)
    assert asked(magnum) == [True, True, False]
    # C's Magnum still needs its target during A's turn
    assert asked(with_seat(start, 2, pending="magnum", pending_needs="target")) == [
        True, False, True]
    # B, under a Tax Inspection, lays the hand open until every card is shown
    inspected = with_seat(start, 1, hassle="tax_inspection", hand=2, shown=("alibi",))
    assert asked(inspected) == [True, True, False]
    assert asked(with_seat(inspected, 1, shown=("alibi", "raid"))) == [True, False, False]
    # after the hand: the seats with cards not shown yet, an empty hand too (one tap)
    over = dataclasses.replace(start, phase=OVER)
    over = with_seat(with_seat(over, 0, hand=2, revealed=("alibi", "raid")), 1, hand=0)
    assert asked(over) == [False, True, True]
    assert asked(dataclasses.replace(over, scores=(0, 0, 0))) == [False, False, False]
