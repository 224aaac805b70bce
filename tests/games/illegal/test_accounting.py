"""Illegal: the Day of Accounting worked by hand, ties, and a match across hands."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.illegal import OVER, State, engine
from tests.games.illegal.helpers import new, run, with_seat


def ended(businesses: list[tuple[str, ...]], hands: list[list[str]], **options: Any) -> State:
    state = new(len(hands), **options)
    for i, (b, h) in enumerate(zip(businesses, hands, strict=True)):
        state = with_seat(state, i, market_open=True, businesses=b, hand=len(h))
    state = dataclasses.replace(state, phase=OVER, ended_by="day_of_accounting")
    return run(state, *({"do": "reveal", "seat": i, "hand": h} for i, h in enumerate(hands)))


def test_accounting_examples() -> None:
    state = ended(
        [("weapons", "merchandise", "tropical_fish"), ("the_coup",), ()],
        [
            # 76,000 open - 50,000 Loan Shark - 10,000 Politics (highest business in hand)
            ["loan_shark", "gambling", "politics", "alibi"],
            # 100,000 - 25,000 - 100,000 paranoia - 50,000 Weapons in hand
            ["family_party", "debris_and_ash", "weapons", "weapons", "brokering"],
            # nothing open, nothing that counts in hand
            ["alibi", "raid", "magnum"],
        ],
    )
    result = engine.outcome(state)
    assert result is not None
    assert result.detail["scores"] == [16000, -75000, 0]
    assert result.winners == (0,)
    assert result.to_json()["winner"] == [0]
    assert engine.public_view(state)["accounting"]["working"][1] == {
        "open": 100000,
        "paranoia": 125000,
        "highest_in_hand": 50000,
        "total": -75000,
    }


def test_ties_share_the_win() -> None:
    state = ended(
        [("politics",), ("brokering", "brokering", "brokering", "tropical_fish")],
        [["alibi"], ["alibi"]],
    )
    result = engine.outcome(state)
    assert result is not None and result.winners == (0, 1)
    assert result.termination.value == "shared"


def test_reveal_cannot_exceed_the_deck() -> None:
    state = new(2)
    state = with_seat(state, 0, market_open=True, businesses=("the_coup",), hand=1)
    state = dataclasses.replace(state, phase=OVER)
    with pytest.raises(IllegalAction, match="The deck has 1 The Coup"):
        engine.decide(state, {"do": "reveal", "seat": 1, "hand": ["the_coup"] * 7}, 0.0)


def test_match_runs_to_target_with_rotating_dealer() -> None:
    state = ended([("the_coup",), ("politics",)], [["alibi"], ["alibi"]], match_to=150000)
    result = engine.outcome(state)
    assert result is not None and result.detail["match_over"] is False
    assert result.detail["match"] == [100000, 10000]
    state = run(state, {"do": "deal"})
    assert state.hand_no == 2 and state.dealer == 0 and state.turn == 1
    assert state.draw_pile == 108 - 14 and state.seats[0].businesses == ()
    state = with_seat(state, 0, market_open=True, businesses=("weapons",), hand=1)
    state = with_seat(state, 1, hand=1)
    state = run(
        dataclasses.replace(state, phase=OVER),
        {"do": "reveal", "seat": 0, "hand": ["alibi"]},
        {"do": "reveal", "seat": 1, "hand": ["alibi"]},
    )
    result = engine.outcome(state)
    assert result is not None and result.detail["match_over"] is True
    assert result.detail["match"] == [150000, 10000] and result.winners == (0,)
    with pytest.raises(IllegalAction, match="The match is over"):
        engine.decide(state, {"do": "deal"}, 0.0)
