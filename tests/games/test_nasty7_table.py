"""The Nasty 7 at the table: camera tags and buttons become actions (or refusals)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import nasty7
from companion.games.base import IllegalAction
from companion.games.nasty7_state import State
from tests.games.test_nasty7_helpers import act, plays, run, start


def tag(card: str, serial: int | None = 5, zone: str = "pile", kind: str = "tag_seen") -> dict[str, Any]:
    return {"kind": kind, "card": card, "serial": serial, "zone": zone, "t": 1.0}


def button(seat: int | None, role: str = "seat") -> dict[str, Any]:
    return {"kind": "button", "seat": seat, "role": role, "hold": False, "t": 1.0}


def _played() -> State:
    """Ann played card #5 (a racketeer); Ben is to play."""
    return act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)


@pytest.mark.parametrize(
    "inp, action",
    [
        (tag("gun", 8), {"do": "play", "card": "gun", "serial": 8}),
        (tag("twin_phone", None), {"do": "play", "card": "twin_phone"}),
        (tag("gun", 8, zone="hand"), None),
        (tag("gun", 8, kind="tag_left"), None),
        (tag("gun", 5, kind="tag_left"), None),
        (button(2), {"do": "accuse", "by": [2], "against": 0}),
        (button(None), None),
        (button(None, "confirm"), None),
        (button(None, "next"), None),
        (button(None, "undo"), None),
    ],
)
def test_inputs_become_actions(inp: dict[str, Any], action: dict[str, Any] | None) -> None:
    assert nasty7.action_for_input(_played(), inp) == action


def test_the_same_card_seen_again_on_the_pile_is_refused() -> None:
    with pytest.raises(IllegalAction, match="#5 is already on the pile"):
        nasty7.action_for_input(_played(), tag("racketeer", 5))


def test_a_card_of_another_game_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not a card of The Nasty 7"):
        nasty7.action_for_input(_played(), tag("market_open", 1))


def test_a_camera_play_runs_through_the_engine() -> None:
    state = _played()
    action = nasty7.action_for_input(state, tag("twin_racketeer", 9))
    assert action is not None
    state = act(state, action, 2.0)
    assert state.pile_serials == (5, 9) and state.turn == 0


def test_buttons_open_join_and_settle_an_accusation() -> None:
    state = _played()
    state = act(state, nasty7.action_for_input(state, button(1)) or {}, 1.5)
    joined = nasty7.action_for_input(state, button(2))
    assert joined == {"do": "accuse", "by": [2], "against": 0}
    state = act(state, joined, 1.6)
    assert state.accusation is not None and state.accusation.by == (1, 2)
    assert nasty7.action_for_input(state, button(None, "confirm")) == {"do": "rule", "upheld": True}
    ruling = nasty7.action_for_input(state, button(None, "next"))
    assert ruling == {"do": "rule", "upheld": False}
    state = act(state, ruling, 5.0)
    assert state.stacks == (35, 37, 36)  # 1 card: Ben is nearest Ann's left


@pytest.mark.parametrize("state_fn, seat, words", [
    (lambda: start(3), 1, "No card is on the pile"),
    (_played, 0, "cannot accuse themselves"),
])  # fmt: skip
def test_a_seat_button_that_cannot_accuse_is_refused(state_fn: Any, seat: int, words: str) -> None:
    with pytest.raises(IllegalAction, match=words):
        nasty7.action_for_input(state_fn(), button(seat))


def test_nothing_happens_after_the_game_is_over() -> None:
    state = run(start(2, deck_size=2), plays("racketeer", "racketeer"))
    assert state.over
    assert nasty7.action_for_input(state, tag("gun", 3)) is None
    assert nasty7.action_for_input(state, button(0)) is None
