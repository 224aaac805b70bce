"""Casablanca at the table: stand and suitcase tags as sightings, settling, buttons."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games.base import ButtonInput, IllegalAction, TagInput
from companion.games.casablanca import State, engine
from tests.games.casablanca.helpers import RESOLVE, bribe, move, play, start


def see(state: State, card: str, zone: str | None, t: float) -> State:
    """The camera sees ``card`` in ``zone`` (``None``: it left) at ``t``, deadlines first."""
    state = deliver(state, t)
    action = engine.action_for_input(state, TagInput(zone is not None, card, 1, zone, t))
    if action is None:
        return state
    state, _ = engine.run(state, action, t)
    return state


def deliver(state: State, until: float) -> State:
    return engine.deliver_deadlines(state, until, lambda _t, _e: None)


def test_tags_become_sightings_and_repeats_mean_nothing() -> None:
    state = start()
    seen = TagInput(seen=True, card="red", serial=5, zone="Basar", t=1.0)
    assert _json(engine.action_for_input(state, seen)) == {
        "do": "seen", "tag": "red", "zone": "Basar"}
    state = see(state, "red", "Basar", 1.0)
    assert engine.action_for_input(state, seen) is None  # still there
    gone = replace(seen, seen=False)
    assert _json(engine.action_for_input(state, gone)) == {"do": "left", "tag": "red"}
    assert engine.action_for_input(state, replace(seen, card="crook")) is None
    left = engine.action_for_input(state, replace(seen, zone=None))
    assert _json(left) == {"do": "left", "tag": "red"}


def test_a_settled_stand_announces_its_move_once() -> None:
    state = start(board=None, settle_s=2.0)
    state = see(state, "red", "airport", 0.0)  # where it is: nothing to do
    assert engine.next_deadline(state) is None
    state = see(state, "red", None, 3.0)
    state = see(state, "red", "Gate", 3.5)
    assert engine.next_deadline(state) == 5.5
    assert state.pending is None
    state = deliver(state, 5.5)
    assert state.pending is not None
    assert (state.pending.agent, state.pending.to, state.pending.suitcase) == ("red", "gate", False)
    assert engine.next_deadline(state) is None


def test_a_hand_passing_over_announces_nothing() -> None:
    state = start(board=None, settle_s=2.0)
    state = see(state, "red", None, 1.0)  # hidden by the hand
    state = see(state, "red", "Market", 1.4)  # carried over the Market for a moment
    state = see(state, "red", None, 2.0)
    state = see(state, "red", "Airport", 2.5)  # and back home
    state = deliver(state, 30.0)
    assert state.pending is None and state.agent("red").space == "airport"
    assert engine.next_deadline(state) is None


def test_the_suitcase_settling_with_the_agent_is_taken_along() -> None:
    state = start(settle_s=2.0)
    state = play(state, move(0, "red", "basar"), RESOLVE)
    state = see(state, "red", None, 10.0)
    state = see(state, "suitcase", None, 10.1)
    state = see(state, "red", "Souk", 10.5)
    state = see(state, "suitcase", "Souk", 11.0)  # lands half a second later
    assert engine.next_deadline(state) == 13.0  # the agent waits for the suitcase
    state = deliver(state, 13.0)
    assert state.pending is not None and state.pending.suitcase
    state = play(state, RESOLVE)
    assert state.suitcase_agent == "red" and state.suitcase_at() == "souk"


def test_the_suitcase_settling_after_the_announcement_amends_it() -> None:
    state = start(settle_s=2.0)
    state = play(state, move(0, "red", "basar"), RESOLVE)
    state = see(state, "red", "Souk", 10.0)
    state = deliver(state, 12.0)
    assert state.pending is not None and not state.pending.suitcase
    state = see(state, "suitcase", "Souk", 12.5)
    state = deliver(state, 14.5)
    assert state.pending is not None and state.pending.suitcase


def test_a_stand_on_a_non_neighbour_is_refused_with_the_way() -> None:
    state = start(board=None, settle_s=1.0)
    state = see(state, "red", "Basar", 1.0)
    state = deliver(state, 2.0)
    assert state.pending is None
    assert "Basar is not next to Airport" in state.log[-1]
    assert "Gate" in state.log[-1] and "Put Agent Red back on Airport" in state.log[-1]
    assert engine.public_view(state)["camera_note"] == state.log[-1]
    state = see(state, "red", "Nowhere", 3.0)
    state = deliver(state, 4.0)
    assert "not a space of the board" in state.log[-1]


def test_the_next_stand_commits_the_pending_move_for_the_next_player() -> None:
    state = start(settle_s=1.0)
    state = see(state, "red", "Basar", 1.0)
    state = deliver(state, 2.0)
    assert state.pending is not None and state.pending.seat == 0
    state = see(state, "blue", "Basar", 3.0)
    state = deliver(state, 4.0)
    assert state.agent("red").space == "basar"
    assert state.pending is not None and (state.pending.seat, state.pending.agent) == (1, "blue")


def test_protest_window_lets_the_camera_alone_finish_a_move() -> None:
    state = start(settle_s=1.0, protest_s=5.0)
    state = see(state, "red", "Basar", 1.0)
    state = deliver(state, 2.0)
    assert engine.next_deadline(state) == 7.0
    state = deliver(state, 7.0)
    assert state.pending is None and state.agent("red").space == "basar"


def test_camera_actions_are_refused_from_a_phone() -> None:
    action: dict[str, Any] = {"do": "seen", "tag": "red", "zone": "Basar", "seat": 0}
    with pytest.raises(IllegalAction, match="Only the camera"):
        engine.decide(start(), action, 0.0)


def test_buttons_protest_and_confirm() -> None:
    state = play(start(), bribe(0, red=500), move(1, "red", "basar"))
    press = ButtonInput(role="seat", seat=0, hold=False, t=2.0)
    assert _json(engine.action_for_input(state, press)) == {"do": "protest", "seat": 0}
    confirm = replace(press, role="confirm", seat=None)
    assert _json(engine.action_for_input(state, confirm)) == {"do": "resolve"}
    idle = play(state, RESOLVE)
    assert engine.action_for_input(idle, press) is None
    assert engine.action_for_input(idle, confirm) is None


def _json(action: Any) -> dict[str, Any]:
    """A typed action as the record line it stands for (``None``: nothing)."""
    return {} if action is None else dict(action.to_json())
