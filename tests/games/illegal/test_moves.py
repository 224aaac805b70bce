"""Illegal: typed actions, legal moves, what the table waits for, scores, format-1 options."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.games.base import IllegalAction, Setup
from companion.games.illegal import engine
from companion.games.illegal.actions import ACTIONS, Trade
from companion.games.illegal.state import OVER, upgrade_options
from companion.records import replay_lines
from tests.games.illegal.helpers import new, run, table, with_seat

RECORDS = Path(__file__).parents[2] / "records" / "illegal"


def test_a_trade_reads_and_writes_its_record_keys() -> None:
    raw = {"do": "trade", "seat": 0, "with": 1, "give": 2, "get": 1}
    action = ACTIONS.parse(raw)
    assert isinstance(action, Trade) and (action.with_, action.give, action.get_) == (1, 2, 1)
    assert action.to_json() == raw and action.to_json()["with"] == 1
    assert action.to_json()["get"] == 1


def test_a_card_id_that_is_no_card_is_refused_in_words() -> None:
    with pytest.raises(IllegalAction) as err:
        engine.run(new(), {"do": "play", "seat": 0, "card": {"x": 1}}, 0.0)
    assert "{" not in err.value.reason and "card" in err.value.reason.lower()


def test_a_hassled_market_says_why_its_illegal_business_is_not_allowed() -> None:
    plays = {m.fixed["card"]: m for m in engine.moves(table("raid"), 0) if m.do == "play"}
    assert not plays["weapons"].allowed
    assert plays["weapons"].why == "No illegal business while a Raid lies on your Market Open"
    assert plays["tropical_fish"].allowed
    alibi = [m for m in engine.moves(with_seat(table(None), 1, hassle="vacation_in_sweden"), 0)
             if m.do == "play" and m.fixed["card"] == "alibi" and m.params]
    assert [c.label for c in alibi[0].params[0].choices] == ["B"]


def test_every_offered_action_is_accepted_at_the_start() -> None:
    state = new(4)
    for seat in (*range(4), None):
        for move in engine.moves(state, seat):
            if move.allowed:
                for action in move.actions():
                    engine.decide(state, action, 0.0)


def test_waiting_names_who_must_reveal_and_the_phones_agree() -> None:
    over = dataclasses.replace(new(3), phase=OVER)
    over = with_seat(with_seat(over, 0, hand=2, revealed=("alibi", "raid")), 1, hand=0)
    waiting = engine.waiting(over)
    assert waiting.seats == (1, 2) and waiting.on == "reveal"
    assert "B, C still to show" in waiting.why
    views = [engine.seat_view(over, i)["attention"] for i in range(3)]
    assert [v["act"] for v in views] == [False, True, True]
    assert views[2]["why"] == "Reveal your 7 cards."
    assert engine.table_view(over)["waiting"]["why"] == waiting.why


def test_scores_are_per_hand_and_in_euros() -> None:
    assert engine.scores(new()) is None
    state = dataclasses.replace(new(2, match_to=500000), history=((10, 20), (5, -5)),
                                totals=(15, 15))
    scores = engine.scores(state)
    assert scores is not None
    assert scores.hands == ((10.0, 20.0), (5.0, -5.0)) and scores.totals == (15.0, 15.0)
    assert scores.unit == "€" and scores.target == 500000


def test_format_1_records_keep_the_turn_rules_of_then() -> None:
    assert upgrade_options(1, {}) == {"legal_extra": "after_illegal", "bribe_extra": False,
                                      "unchosen_loss": "cheapest", "highest_tie": "last",
                                      "show": "part_ends_turn", "take_target": "ask",
                                      "pending_keys": "forget",
                                      "magnum_last_card": "turn_goes_on"}
    assert upgrade_options(1, {"bribe_extra": True})["bribe_extra"] is True
    assert upgrade_options(2, {}) == {}
    bribe = {"do": "play", "seat": 0, "card": "bribe", "target": 0, "discard": "merchandise"}
    now = run(table("raid"), bribe)
    assert now.turn == 0  # the Bribe is played besides the turn's card
    then = engine.new_game(Setup(("A", "B", "C"), upgrade_options(1, {})))
    then = dataclasses.replace(then, seats=table("raid").seats)
    assert run(then, bribe).turn == 1  # format 1: the Bribe was the turn's card


def test_relatives_that_only_clear_ones_own_hassle_are_offered_and_accepted() -> None:
    # bribe_then_its_cost: Ann holds Weapons, Ben has no business; Ben sends Ann on a
    # Vacation in Sweden. The German text lets Relatives clear it with nothing to take.
    lines = (RECORDS / "bribe_then_its_cost.jsonl").read_text("utf-8").splitlines()
    upto = next(i for i, line in enumerate(lines, 1) if '"vacation_in_sweden"' in line)
    state = replay_lines(lines[:upto]).session.state
    assert state.seats[0].hassle == "vacation_in_sweden" and not state.seats[1].businesses
    relatives = [m for m in engine.moves(state, 0)
                 if m.do == "play" and m.fixed.get("card") == "relatives"]
    offered = [m for m in relatives if m.allowed]
    assert offered, [m.why for m in relatives]
    for move in offered:
        for action in move.actions():
            events = engine.decide(state, action, 0.0)
            after = run(state, action)
            assert events and after.seats[0].hassle is None
