"""Casablanca's moves() and waiting(): what each phone offers, and the one truth the
table screen and the phones show (also during a protest and after the game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.base import IllegalAction
from companion.games.casablanca import State, engine
from companion.records import replay_path
from tests.games.casablanca.helpers import (
    RESOLVE,
    bribe,
    move,
    play,
    protest,
    short_board,
    start,
)


def carried_home_then_protested() -> State:
    """Ben announces Blue carrying the suitcase home (the Hotel); Ann protests: open."""
    state = play(start(concessions=True), bribe(0, blue=500), bribe(1, blue=900),
                 move(2, "blue", "basar"), RESOLVE)
    state = play(state, move(0, "green", "souk"), RESOLVE)
    state = play(state, move(1, "blue", "hotel", suitcase=True), protest(0))
    assert state.pending is not None and state.pending.open == 0
    return state


def test_an_open_protest_leaves_the_announced_move_waiting_at_the_end_of_a_record() -> None:
    """The bug: end_of_record committed the protested move (and ended the game)."""
    state = carried_home_then_protested()
    assert engine.end_of_record is not None and engine.end_of_record(state) == []
    settled = engine.settle_record(state)
    assert settled.winners is None and engine.outcome(settled) is None
    assert settled.pending is not None and settled.pending.open == 0
    assert settled.agent("blue").space == "basar"


def test_a_record_ending_in_an_open_protest_replays_with_the_move_announced(
        tmp_path: Path) -> None:
    header = {"record": "table-companion", "version": 2, "game": "casablanca",
              "seats": ["Ann", "Ben", "Cy"],
              "options": {"concessions": True, "board": short_board()}}
    lines = [bribe(0, blue=500), bribe(1, blue=900), move(2, "blue", "basar"), RESOLVE,
             move(0, "green", "souk"), RESOLVE, move(1, "blue", "hotel", suitcase=True),
             protest(0)]
    path = tmp_path / "open.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *(
        {"t": 5.0 * (i + 1), **line} for i, line in enumerate(lines))]) + "\n")
    result = replay_path(path)
    assert result.outcome is None
    assert result.state["pending"]["open"] == 0 and result.state["winners"] is None


def test_during_an_open_protest_no_phone_says_the_game_is_over() -> None:
    state = carried_home_then_protested()
    for seat in range(3):
        for m in engine.moves(state, seat):
            assert "over" not in m.why, (seat, m)
    cy = {m.do: m for m in engine.moves(state, 2)}
    assert not cy["bribe"].allowed and "settle it first" in cy["bribe"].why


def test_the_table_and_every_phone_read_the_same_waiting_during_a_protest() -> None:
    state = carried_home_then_protested()
    waiting = engine.table_view(state)["waiting"]
    assert waiting["on"] == "protest" and waiting["seats"] == [0, 1] and waiting["host"]
    assert "Ann protests" in waiting["why"] and waiting["why"] == engine.public_view(state)[
        "status"]
    acts = [engine.seat_view(state, s)["attention"]["act"] for s in range(3)]
    assert acts == [True, True, False]


def test_an_agent_is_moved_step_by_step_agent_then_space_then_suitcase() -> None:
    state = play(start(board=None), move(0, "red", "gate"), RESOLVE)  # the default board
    state = play(state, move(1, "red", "basar"), RESOLVE)  # Red stands with the suitcase
    offers = {m.label: m for m in engine.moves(state, 2) if m.do == "move"}
    red = offers["Agent Red"]
    assert red.group == "Move an agent" and dict(red.fixed) == {"seat": 2, "agent": "red"}
    assert [p.name for p in red.params] == ["to", "suitcase"]
    assert [c.label for c in red.params[0].choices] == ["Souk", "Kasbah", "Harbour", "Gate"]
    blue = offers["Agent Blue"]  # not with the suitcase: no suitcase question
    assert dict(blue.fixed) == {"seat": 2, "agent": "blue", "suitcase": False}
    assert [c.value for c in blue.params[0].choices] == ["mosque", "kasbah", "medina"]
    home = offers["Agent Brown"].params[0].choices
    assert ("home", "Airport (home)") not in [(c.value, c.label) for c in home]  # at home
    for action in red.actions():
        engine.decide(state, action, 0.0)  # every offered move is accepted


def test_the_bribe_is_a_split_of_the_money_left() -> None:
    state = play(start(budget=1000, step=100), bribe(0, red=300), bribe(1, red=100))
    state = play(state, bribe(2, red=100))
    (offer,) = [m for m in engine.moves(state, 0) if m.do == "bribe"]
    (split,) = offer.params
    assert (split.kind, split.minimum, split.maximum, split.step) == ("split", 100, 700, 100)
    assert split.keys == ("agent", "amount") and split.choices[0].label == "Agent Green"
    assert offer.offers(bribe(0, red=700)) and not offer.offers(bribe(0, red=800))
    assert not offer.offers(bribe(0, red=150))


def test_the_host_resolves_what_is_announced() -> None:
    state = start()
    assert [m.allowed for m in engine.moves(state, None)] == [False]
    state = play(state, move(0, "red", "gate"))
    (confirm,) = engine.moves(state, None)
    assert confirm.allowed and confirm.do == "resolve"


@pytest.mark.parametrize("action", [
    {"do": "bribe", "seat": 0, "amounts": []},
    {"do": "bribe", "seat": 0, "amounts": [{"agent": "white_hotel", "amount": 50}]},
    {"do": "bribe", "seat": 0, "amounts": [{"agent": "white_hotelx", "amount": 100}]},
    {"do": "move", "seat": 0, "agent": "white_hotel", "to": "ricks_cafe_2"},
    {"do": "eliminate", "seat": 0, "agent": "white_hotel", "target": "white_police"},
    {"do": "protest", "seat": 9},
])
def test_refusals_are_sentences_without_json_keys_or_ids(action: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as info:
        engine.decide(start(), action, 0.0)
    reason = info.value.reason
    assert "{" not in reason and '"' not in reason and "_" not in reason, reason
