"""Illegal: camera tags and table buttons turned into actions."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.base import ButtonInput, IllegalAction, TagInput
from companion.games.illegal import engine
from tests.games.illegal.helpers import run, table, with_seat


def test_inputs_become_actions() -> None:
    state = table(None)
    seen = TagInput(seen=True, card="raid", serial=70, zone="play", t=1.0)
    assert engine.action_for_input(state, seen) == {"do": "play", "seat": 0, "card": "raid"}
    state = with_seat(state, 2, market_open=True)
    pending = run(state, engine.action_for_input(state, seen) or {})
    assert pending.seats[0].pending == "raid"
    press = ButtonInput(role="seat", seat=2, hold=False, t=2.0)
    action = engine.action_for_input(pending, press)
    assert action == {"do": "play", "seat": 0, "card": "raid", "target": 2}
    assert run(pending, action).seats[2].hassle == "raid"
    with pytest.raises(IllegalAction, match="not an Illegal card"):
        engine.action_for_input(state, dataclasses.replace(seen, card="suitcase"))


def test_reveal_card_by_card_from_the_camera() -> None:
    state = with_seat(table(None), 0, hand=3)  # 2 left after the Day of Accounting
    state = run(state, {"do": "play", "seat": 0, "card": "day_of_accounting"})
    seen = TagInput(seen=True, card="weapons", serial=40, zone="play", t=9.0)
    action = engine.action_for_input(state, seen)
    assert action == {"do": "reveal_card", "seat": 0, "card": "weapons"}
    state = run(state, action)
    assert state.seats[0].revealed == ("weapons",)
    assert engine.action_for_input(state, dataclasses.replace(seen, card="alibi")) == {
        "do": "reveal_card",
        "seat": 0,
        "card": "alibi",
    }
