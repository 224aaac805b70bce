"""Records of format 1: the readings ``upgrade_options(1, ...)`` restores (docs/rules/illegal.md,
"Records of format 1"), each next to today's reading of the same lines."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.games.base import IllegalAction, Setup, SetupError
from companion.games.illegal import OVER, State, engine
from companion.games.illegal.state import upgrade_options
from tests.games.illegal.helpers import run, table, with_seat


def v1(state: State, **options: Any) -> State:
    """``state`` with the options a record of format 1 implies (plus ``options``)."""
    merged = {**dataclasses.asdict(state.options), **upgrade_options(1, {}), **options}
    return dataclasses.replace(state, options=dataclasses.replace(state.options, **merged))


def test_the_format_1_readings_are_checked_options() -> None:
    for key in ("show", "take_target", "pending_keys", "magnum_last_card"):
        assert engine.default_options[key] is None
        with pytest.raises(SetupError, match=key):
            engine.new_game(Setup(("A", "B"), {key: "sometimes"}))
    state = engine.new_game(Setup(("A", "B"), upgrade_options(1, {})))
    assert state.options.show == "part_ends_turn" and state.options.magnum_last_card


def test_show_format_1_part_of_the_hand_and_a_line_like_any_other() -> None:
    state = with_seat(table(None), 1, hassle="tax_inspection")
    opened = run(v1(state), {"do": "play", "seat": 0, "card": "gambling"})
    assert opened.phase == "more" and opened.turn == 0
    shown = run(opened, {"do": "show", "seat": 1, "hand": ["pimps", "alibi"]})
    assert shown.seats[1].shown == ("pimps", "alibi")
    assert shown.turn == 1 and shown.seats[0].hand == 7  # Ann's turn ended; she drew
    kept = run(shown, {"do": "discard", "seat": 1, "cards": ["alibi"]})
    assert kept.seats[1].shown == ("pimps", "alibi")  # format 1: a discard left it listed
    today = run(table(None), {"do": "play", "seat": 0, "card": "gambling"})
    today = with_seat(today, 1, hassle="tax_inspection")
    with pytest.raises(IllegalAction, match="lay all of them open"):
        engine.decide(today, {"do": "show", "seat": 1, "hand": ["pimps", "alibi"]}, 0.0)
    whole = run(today, {"do": "show", "seat": 1, "hand": ["pimps"] * 7})
    assert whole.turn == 0 and whole.phase == "more"  # today a show leaves the turn open


def test_take_format_1_does_not_name_the_victim() -> None:
    state = with_seat(table(None), 2, market_open=True, businesses=("pimps",))
    play = {"do": "play", "seat": 0, "card": "hostile_takeover", "take": "weapons"}
    assert run(state, play).seats[0].businesses[-1] == "weapons"  # today: Ben's, at once
    then = run(v1(state), play)
    assert then.seats[0].pending == "hostile_takeover"
    assert then.seats[0].pending_needs == "target"
    done = run(then, {**play, "target": 1})
    assert done.seats[0].businesses[-1] == "weapons" and done.seats[0].pending is None


def test_pending_keys_format_1_are_forgotten() -> None:
    state = with_seat(table(None), 1, hassle="tax_inspection")
    state = with_seat(state, 2, market_open=True, hassle="raid")
    first = {"do": "play", "seat": 0, "card": "bribe", "discard": "merchandise"}
    second = {"do": "play", "seat": 0, "card": "bribe", "target": 1}
    today = run(state, first, second)
    assert today.seats[0].pending is None and today.seats[1].hassle is None
    then = run(v1(state), first, second)
    assert then.seats[0].pending == "bribe" and then.seats[0].pending_needs == "discard"
    done = run(then, {**second, "discard": "merchandise"})
    assert done.seats[1].hassle is None and done.seats[0].pending is None


def test_a_bad_cost_format_1_waits_for_the_target_first() -> None:
    state = with_seat(table(None), 1, hassle="tax_inspection")
    state = with_seat(state, 2, market_open=True, hassle="raid")
    play = {"do": "play", "seat": 0, "card": "bribe", "discard": "alibi"}
    with pytest.raises(IllegalAction, match="not one"):
        engine.decide(state, play, 0.0)
    assert run(v1(state), play).seats[0].pending_needs == "target"


def test_a_magnum_as_the_last_card_format_1_lets_the_turn_go_on() -> None:
    state = with_seat(table("raid"), 0, hand=1)
    magnum = {"do": "play", "seat": 0, "card": "magnum", "target": 0}
    assert run(state, magnum).phase == OVER
    then = run(v1(state, legal_extra="illegal"), magnum)
    assert then.phase != OVER and then.turn == 0 and then.seats[0].hand == 0


def test_replay_json_keeps_the_wording_of_a_shown_card() -> None:
    state = with_seat(table(None), 2, market_open=True, businesses=("pimps",))
    pending = run(state, {"do": "play", "seat": 0, "card": "hostile_takeover"})
    assert engine.state_json(pending)["status"] == (
        "A: choose the target or choice for Hostile Takeover")
    assert engine.public_view(pending)["status"].startswith("A shows a Hostile Takeover")
