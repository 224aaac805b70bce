"""The Nasty 7 views: no running count on the table, reveals, timer, seat views, signals."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from companion.games.base import SIGNALS, IllegalAction
from companion.games.nasty7 import State, engine
from tests.games.nasty7.helpers import act, plays, run, start


def _during_play() -> State:
    return run(start(4), plays("racketeer", "twin_phone", "gun"))


@pytest.mark.parametrize("extra", range(1, 12))
def test_the_table_view_does_not_depend_on_the_running_count(extra: int) -> None:
    state = _during_play()
    other = replace(state, figures=state.figures + extra)
    assert engine.public_view(other) == engine.public_view(state)
    for seat in range(4):
        assert engine.seat_view(other, seat) == engine.seat_view(state, seat)
    assert engine.state_json(other) != engine.state_json(state)  # the referee sees it


def test_the_table_view_during_play() -> None:
    view = engine.public_view(_during_play())
    assert view["revealed_count"] is None and view["revealed"] is None
    assert [s["cards"] for s in view["seats"]] == [26, 26, 27, 26]
    assert (view["turn"], view["pile"], view["top"], view["last_player"]) == (0, 3, "gun", 3)
    assert view["deadline"] == 6.000001
    assert view["timer"] == {"from": 3.0, "deadline": 6.000001, "seconds": 3.0}
    assert view["status"] == "Ann to play"
    assert json.loads(json.dumps(view)) == view


def test_an_accusation_reveals_the_correct_number_and_stops_the_timer() -> None:
    state = act(_during_play(), {"do": "accuse", "by": [1], "against": 3}, 4.5)
    view = engine.public_view(state)
    assert view["revealed_count"] == 4
    assert view["revealed"] == {"count": 4, "figures": 4, "why": "accusation", "seat": 3}
    assert view["accusation"] == {"by": [1], "against": 3, "kind": "", "alleged": "", "gap": None}
    assert view["deadline"] is None and view["timer"] is None
    assert view["status"] == "Ben accuses Dee: the count was 4. Host: upheld or not?"


def test_a_penalty_reveals_the_count_until_the_next_card() -> None:
    state = run(_during_play(), [(8.0, {"do": "play", "card": "gun"})])
    assert state.round_no == 2 and len(state.pile) == 1  # Ann hesitated at 6.0
    assert engine.public_view(state)["revealed_count"] is None
    hesitated = act(_during_play(), {"do": "deadline"}, 6.000001)
    view = engine.public_view(hesitated)
    assert view["revealed"] == {"count": 4, "figures": 4, "why": "hesitation", "seat": 0}
    assert view["status"] == "Ann hesitated more than 3 seconds; the count was 4. Ann starts the next round."
    assert view["deadline"] is None and view["pile"] == 0


@pytest.mark.parametrize(
    "setup, actions, status",
    [
        ({}, [], "Ann starts the round"),
        ({}, plays("racketeer"), "Ben to play"),
        ({}, plays("twin_phone"), "Ben skips: Cy to play"),
        ({"seats": 2}, plays("twin_phone"), "Ben skips: Ann to play"),
        ({}, plays("racketeer", "gun") + [(2.5, {"do": "mistake", "seat": 1,
                                                 "kind": "spoke_on_gun"})],
         "Ben spoke on a gun; the count was 2. Ben starts the next round."),
        ({}, plays("racketeer") + [(1.5, {"do": "accuse", "by": [1, 2], "against": 0,
                                          "upheld": False})],
         "The accusation against Ann was not upheld; the count was 1. Ben starts the next round."),
        ({"deck_size": 3}, plays("racketeer"),
         "Ann played their last card: accuse now, or Ann wins."),
        ({"deck_size": 3}, plays("racketeer", "gun"), "Ann wins!"),
    ],
)  # fmt: skip
def test_status_lines(setup: dict[str, Any], actions: list[Any], status: str) -> None:
    seats = setup.pop("seats", 3)
    state = run(start(seats, **setup), actions)
    assert engine.public_view(state)["status"] == status


def test_seat_view_adds_only_that_seats_own_facts() -> None:
    state = _during_play()
    view = engine.seat_view(state, 0)
    public = engine.public_view(state)
    assert {k: v for k, v in view.items() if k in public} == public
    assert {k: view[k] for k in set(view) - set(public)} == {
        "you": 0, "your_cards": 26, "your_turn": True, "you_skip": False,
        "can_accuse": True, "choose_word": False, "accuse_why_not": None, "accuse_against": 3,
        "accuse_kinds": [{"kind": "wrong_number", "label": "Wrong count"},
                         {"kind": "wrong_word", "label": "Wrong word"},
                         {"kind": "spoke_on_gun", "label": "Spoke on a gun"},
                         {"kind": "hesitation", "label": "Too slow (over 3 s)"}],
    }  # fmt: skip
    dee = engine.seat_view(state, 3)  # Dee played the last card
    assert dee["can_accuse"] is False
    assert dee["accuse_why_not"] == (
        "You played the last card: only the next card can be accused by you."
    )
    with pytest.raises(IllegalAction, match="no seat 4"):
        engine.seat_view(state, 4)


def test_the_skipped_seat_is_shown() -> None:
    state = run(start(4), plays("racketeer", "twin_phone"))
    view = engine.public_view(state)
    assert view["skipping"] == 2 and view["turn"] == 3
    assert [s["skips"] for s in view["seats"]] == [False, False, True, False]
    assert engine.seat_view(state, 2)["you_skip"] is True


def test_the_word_chooser_is_shown_under_the_nasty_rule() -> None:
    state = run(start(3, nasty=True), plays("racketeer", "phone"))
    assert engine.public_view(state)["word_chooser"] == 1
    assert engine.seat_view(state, 1)["choose_word"] is True
    state = act(state, {"do": "word", "text": "peek-a-boo"}, 2.5)
    assert engine.public_view(state)["word"] == "peek-a-boo"
    assert engine.public_view(state)["word_chooser"] is None


def test_state_json_is_the_full_state() -> None:
    data = engine.state_json(_during_play())
    assert {k: data[k] for k in ("figures", "count", "pile", "stacks", "next")} == {
        "figures": 4, "count": 4, "pile": 3, "stacks": [26, 26, 27, 26], "next": 0,
    }  # fmt: skip
    assert json.loads(json.dumps(data)) == data


# --- signals ------------------------------------------------------------------------


def _signals(state: State, action: dict[str, Any], t: float) -> list[tuple[str, int | None]]:
    events = engine.decide(state, action, t)
    after = state
    for event in events:
        after = engine.apply(after, event)
    found = engine.signals(after, events)
    assert all(name in SIGNALS for name, _ in found)
    return found


@pytest.mark.parametrize(
    "action, t, expected",
    [
        ({"do": "play", "card": "racketeer"}, 4.5, [("card", 0), ("turn", 1)]),
        ({"do": "play", "card": "twin_phone"}, 4.5, [("card", 0), ("turn", 2)]),
        ({"do": "deadline"}, 6.000001, [("hesitation", 0), ("turn", 0)]),
        ({"do": "accuse", "by": [1], "against": 3}, 4.5, []),
        ({"do": "accuse", "by": [0], "against": 3, "upheld": True}, 4.5,
         [("upheld", 3), ("turn", 3)]),
        ({"do": "accuse", "by": [2, 0], "against": 3, "upheld": False}, 4.5,
         [("not_upheld", 0), ("not_upheld", 2), ("turn", 0)]),
        ({"do": "mistake", "seat": 1, "kind": "wrong_number"}, 4.5,
         [("penalty", 1), ("turn", 1)]),
        ({"do": "play", "card": "gun", "seat": 2}, 4.5, [("card", 2), ("penalty", 2), ("turn", 2)]),
    ],
)  # fmt: skip
def test_signals(action: dict[str, Any], t: float, expected: list[Any]) -> None:
    assert _signals(_during_play(), action, t) == expected


def test_game_over_signal() -> None:
    state = run(start(3, deck_size=3), plays("racketeer"))
    assert _signals(state, {"do": "deadline"}, 4.000001) == [("game_over", 0)]
