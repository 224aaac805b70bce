"""Illegal: the views are JSON and hold no hidden hand; buzzer and LED signals."""

from __future__ import annotations

import json

from companion.games.illegal import engine
from tests.games.illegal.helpers import run, table, with_seat


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
