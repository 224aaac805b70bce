"""Protests as the bidding procedure allows: concede before the blind comparison."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.casablanca import engine
from tests.games.casablanca.helpers import RESOLVE, bribe, move, play, protest, start


def concede(seat: int) -> dict[str, Any]:
    return {"do": "concede", "seat": seat}


def compare(seat: int) -> dict[str, Any]:
    return {"do": "compare", "seat": seat}


def protested() -> Any:
    state = start(concessions=True)
    state = play(state, bribe(0, red=900), bribe(1, red=500), bribe(2, red=400))
    return play(state, move(0, "red", "gate"), protest(1))


def test_a_protest_stays_open_until_conceded_or_compared() -> None:
    state = protested()
    assert state.pending is not None and state.pending.open == 1
    view = engine.public_view(state)
    assert view["pending"]["open"] == 1 and view["pending"]["may_protest"] == []
    assert "may concede, or compare" in view["status"]
    for action in (bribe(2, blue=100), move(2, "blue", "kasbah"), protest(2)):
        with pytest.raises(IllegalAction):
            engine.decide(state, action, 0.0)
    with pytest.raises(IllegalAction, match="Only Ann and Ben"):
        engine.decide(state, concede(2), 0.0)
    # the mover cannot amend the announced move (suitcase or not) while the protest is open
    with pytest.raises(IllegalAction, match="settle it first"):
        engine.decide(state, move(0, "red", "gate", suitcase=True), 0.0)


def test_the_protester_concedes_nothing_is_revealed_and_the_move_stands() -> None:
    state = play(protested(), concede(1))
    assert state.pending is not None and state.pending.open is None
    last = engine.public_view(state)["pending"]["protests"]
    assert last == [{"seat": 1, "upheld": False, "called": None, "conceded": 1}]
    assert "900" not in str(engine.public_view(state)) and "500" not in str(
        engine.public_view(state)["log"]
    )
    state = play(state, RESOLVE)
    assert state.agent("red").space == "gate"


def test_the_actor_concedes_and_must_announce_something_else() -> None:
    state = play(protested(), concede(0))
    assert state.pending is None and state.agent("red").space == "airport"
    assert state.no_bribe and state.turn == 0
    with pytest.raises(IllegalAction, match="may not bribe"):
        engine.decide(state, bribe(0, blue=100), 0.0)


def test_both_ask_for_the_comparison_then_it_is_made_blind() -> None:
    state = play(protested(), compare(1))
    assert state.pending is not None and state.pending.open == 1  # waits for Ann
    ben = {m.do: m for m in engine.moves(state, 1)}
    assert not ben["compare"].allowed and "waiting for Ann" in ben["compare"].why
    assert ben["concede"].allowed
    assert all(m.allowed for m in engine.moves(state, 0) if m.do in ("concede", "compare"))
    state = play(state, compare(0))
    assert state.pending is not None and state.pending.protests[0].upheld is False
    assert state.pending.protests[0].called == 500  # the protester's own amount


def test_the_confirm_button_compares_an_open_protest() -> None:
    state = play(protested(), RESOLVE)
    assert state.pending is not None and state.pending.open is None
    assert state.pending.protests[0].upheld is False


def test_without_the_option_the_protest_is_compared_at_once() -> None:
    state = start(concessions=False)
    state = play(state, bribe(0, red=900), bribe(1, red=1500), bribe(2, red=400))
    state = play(state, move(0, "red", "gate"), protest(1))
    assert state.pending is None  # Ben's higher bribe upheld it at once


def test_describe_names_no_amount() -> None:
    state = protested()
    events = engine.decide(state, concede(1), 1.0)
    assert engine.describe is not None
    line = engine.describe(concede(1), events, ("Ann", "Ben", "Cy"))
    assert line == "Ben conceded: the action is on."
    events = engine.decide(start(), bribe(0, red=900, blue=300), 1.0)
    assert engine.describe(bribe(0, red=900, blue=300), events, ("Ann", "Ben", "Cy")) == (
        "Ann bribed 2 agents (amounts are secret)."
    )
    # exact_names and unlimited_names are for version-1 records only (upgrade_options)
    assert set(engine.option_specs) == set(engine.default_options) - {
        "agents", "board", "exact_names", "unlimited_names"}
