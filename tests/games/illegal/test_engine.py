"""Illegal: the engine contract — setup and options, stored events, the registry."""

from __future__ import annotations

import json

import pytest

from companion.games.codec import event_from_json, event_to_json
from companion.games.illegal import SeatState, engine
from tests.games.illegal.helpers import new, table, with_seat


def test_setup_defaults_and_options() -> None:
    state = new(4)
    assert state.dealer == 3 and state.turn == 0 and state.draw_pile == 108 - 28
    assert [s.hand for s in state.seats] == [7] * 4
    assert new(3, dealer=0).turn == 1
    with pytest.raises(ValueError, match="dealer"):
        new(3, dealer=5)
    with pytest.raises(ValueError, match="2 to 6 players"):
        new(1)


def test_events_round_trip_through_json() -> None:
    state = table("raid")
    state = with_seat(state, 0, businesses=("merchandise", "gambling"))
    events = engine.decide(state, {"do": "play", "seat": 0, "card": "tropical_fish"}, 0.0)
    for event in events:
        name, payload = event_to_json(event)
        payload = json.loads(json.dumps(payload))
        assert event_from_json(engine.event_types, name, payload) == event
    assert set(engine.event_types) >= {type(e).__name__ for e in events}


def test_engine_is_registered() -> None:
    from companion.games import get

    assert get("illegal") is engine
    assert engine.next_deadline(table(None)) is None
    assert isinstance(SeatState("x"), SeatState)
