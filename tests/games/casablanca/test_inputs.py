"""Casablanca at the table: camera tags and buttons turned into actions."""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import ButtonInput, TagInput
from companion.games.casablanca import engine
from tests.games.casablanca.helpers import RESOLVE, bribe, move, play, start


def test_tag_in_a_new_zone_announces_a_move() -> None:
    state = start()
    seen = TagInput(seen=True, card="red", serial=5, zone="basar", t=1.0)
    action = engine.action_for_input(state, seen)
    assert action == {"do": "move", "seat": 0, "agent": "red", "to": "basar", "suitcase": False}
    state = play(state, action)
    assert engine.action_for_input(state, seen) is None  # already announced
    assert engine.action_for_input(state, replace(seen, zone="airport", card="brown")) is None
    nxt = engine.action_for_input(state, replace(seen, card="blue"))
    assert nxt is not None and nxt["seat"] == 1  # Ann's move stands first: Ben's turn
    assert engine.action_for_input(state, replace(seen, card="suitcase")) is None
    assert engine.action_for_input(state, replace(seen, seen=False)) is None


def test_tag_move_of_a_carrier_keeps_the_suitcase() -> None:
    state = play(start(), move(0, "red", "basar"), move(1, "red", "souk", suitcase=True), RESOLVE)
    seen = TagInput(seen=True, card="red", serial=5, zone="kasbah", t=9.0)
    assert engine.action_for_input(state, seen) == {
        "do": "move",
        "seat": 2,
        "agent": "red",
        "to": "kasbah",
        "suitcase": True,
    }


def test_buttons_protest_and_confirm() -> None:
    state = play(start(), bribe(0, red=500), move(1, "red", "basar"))
    press = ButtonInput(role="seat", seat=0, hold=False, t=2.0)
    assert engine.action_for_input(state, press) == {"do": "protest", "seat": 0}
    confirm = replace(press, role="confirm", seat=None)
    assert engine.action_for_input(state, confirm) == {"do": "resolve"}
    idle = play(state, RESOLVE)
    assert engine.action_for_input(idle, press) is None
    assert engine.action_for_input(idle, confirm) is None
