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


def test_start_is_the_first_deal_folded() -> None:
    """``start`` builds the dealt state itself (state.py imports no fold); it is the same
    state a blank table reaches by folding ``HandDealt`` and ``TurnStarted``."""
    from dataclasses import replace

    from companion.games.base import Setup
    from companion.games.illegal import engine
    from companion.games.illegal.events import HandDealt, TurnStarted
    from companion.games.illegal.fold import apply
    from companion.games.illegal.state import DEALT_PILE, HAND_SIZE, OVER

    for names in (("Ann", "Ben"), ("Ann", "Ben", "Cy", "Dee")):
        state = engine.new_game(Setup(names))
        blank = replace(state, seats=tuple(replace(s, hand=0) for s in state.seats),
                        hand_no=0, turn=0, phase=OVER, draw_pile=0, log=())
        first = (state.dealer + 1) % len(names)
        folded = apply(apply(blank, HandDealt(1, state.dealer, first,
                                              DEALT_PILE - HAND_SIZE * len(names))),
                       TurnStarted(first))
        assert folded == state
