"""The Nasty 7 views: no running count on the table, reveals, timer, seat views, what the
table waits for, log and scores, signals."""

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
    assert view["status"] == "Ann to play."
    assert json.loads(json.dumps(view)) == view


def test_an_accusation_reveals_the_correct_number_and_stops_the_timer() -> None:
    state = act(_during_play(), {"do": "accuse", "by": [1], "against": 3}, 4.5)
    view = engine.public_view(state)
    assert view["revealed_count"] == 4
    assert view["revealed"] == {"count": 4, "figures": 4, "why": "accusation", "seat": 3}
    assert view["accusation"] == {"by": [1], "against": 3, "kind": "", "alleged": "", "gap": None}
    assert view["deadline"] is None and view["timer"] is None
    assert view["status"] == (
        "Ben accuses Dee: the count was 4, and the host rules whether it is upheld.")
    waiting = engine.waiting(state)
    assert (waiting.seats, waiting.host, waiting.on) == ((), True, "ruling")


def test_a_penalty_reveals_the_count_until_the_next_card() -> None:
    state = run(_during_play(), [(8.0, {"do": "play", "card": "gun"})])
    assert state.round_no == 2 and len(state.pile) == 1  # Ann hesitated at 6.0
    assert engine.public_view(state)["revealed_count"] is None
    hesitated = act(_during_play(), {"do": "deadline"}, 6.000001)
    view = engine.public_view(hesitated)
    assert view["revealed"] == {"count": 4, "figures": 4, "why": "hesitation", "seat": 0}
    assert view["status"] == (
        "Ann hesitated more than 3 seconds; the count was 4; Ann starts the next round.")
    assert view["deadline"] is None and view["pile"] == 0


@pytest.mark.parametrize(
    "setup, actions, status",
    [
        ({}, [], "Ann starts the round."),
        ({}, plays("racketeer"), "Ben to play."),
        ({}, plays("twin_phone"), "Ben skips: Cy to play."),
        ({"seats": 2}, plays("twin_phone"), "Ben skips: Ann to play."),
        ({}, plays("racketeer", "gun") + [(2.5, {"do": "mistake", "seat": 1,
                                                 "kind": "spoke_on_gun"})],
         "Ben spoke on a gun; the count was 2; Ben starts the next round."),
        ({}, plays("racketeer") + [(1.5, {"do": "accuse", "by": [1, 2], "against": 0,
                                          "upheld": False})],
         "The accusation against Ann was not upheld; the count was 1; Ben starts the next round."),
        ({"nasty": "first_round"}, plays("racketeer", "phone"),
         "Cy to play; Ben chooses the phone word."),
        ({"deck_size": 3}, plays("racketeer"),
         "Ann played their last card: accuse now, or Ann wins."),
        ({"deck_size": 3}, plays("racketeer", "gun"), "Ann wins!"),
    ],
)  # fmt: skip
def test_status_lines(setup: dict[str, Any], actions: list[Any], status: str) -> None:
    """The table's line is what the table waits for: the TV and every phone read it."""
    seats = setup.pop("seats", 3)
    state = run(start(seats, **setup), actions)
    assert engine.public_view(state)["status"] == status == engine.waiting(state).why
    assert engine.table_view(state)["waiting"]["why"] == status


def test_a_seat_has_no_secrets_and_reads_its_turn_from_attention() -> None:
    state = _during_play()
    view = engine.seat_view(state, 0)
    assert view["secrets"] == {} and view["public"] == engine.public_view(state)
    assert view["attention"] == {"act": True, "on": "camera", "why": "Ann to play."}
    assert engine.seat_view(state, 1)["attention"]["act"] is False
    kinds = [m for m in view["moves"] if m["params"]][0]["params"][0]["choices"]
    assert [c["label"] for c in kinds] == [
        "Wrong count", "Wrong word", "Spoke on a gun", "Too slow (over 3 s)"]
    dee = engine.seat_view(state, 3)  # Dee played the last card
    assert [(m["allowed"], m["why"]) for m in dee["moves"]] == [
        (False, "Dee played the last card and cannot accuse themselves.")]
    with pytest.raises(IllegalAction, match="3 players, not 5|4 players, not 5"):
        engine.seat_view(state, 4)


def test_the_skipped_seat_is_shown() -> None:
    state = run(start(4), plays("racketeer", "twin_phone"))
    view = engine.public_view(state)
    assert view["skipping"] == 2 and view["turn"] == 3
    assert [s["skips"] for s in view["seats"]] == [False, False, True, False]
    assert engine.waiting(state).seats == (3,)


def test_the_word_chooser_is_asked_under_the_nasty_rule() -> None:
    state = run(start(3, nasty=True), plays("racketeer", "phone"))
    assert engine.public_view(state)["word_chooser"] == 1
    assert engine.seat_view(state, 1)["attention"] == {
        "act": True, "on": "camera", "why": "Choose the phone word for this round."}
    assert engine.waiting(state).seats == (2, 1)
    state = act(state, {"do": "word", "text": "peek-a-boo"}, 2.5)
    assert engine.public_view(state)["word"] == "peek-a-boo"
    assert engine.public_view(state)["word_chooser"] is None
    assert engine.waiting(state).seats == (2,)


def test_the_log_keeps_the_recent_lines_in_words() -> None:
    state = run(start(3), plays("racketeer", "twin_racketeer"))
    state = act(state, {"do": "mistake", "seat": 1, "kind": "wrong_number"}, 2.5)
    assert engine.log(state) == [
        "Ann played a Racketeer", "Ben played Twin racketeers",
        "Ben said the wrong number: Ben took the pile (2 cards)"]
    many = run(start(3), plays(*["racketeer"] * 20))
    assert len(engine.log(many)) == 12 and engine.log(many)[-1] == "Ben played a Racketeer"


def test_scores_are_the_stacks_and_the_fewest_wins() -> None:
    scores = engine.scores(_during_play())
    assert scores is not None
    assert scores.to_json() == {"totals": [26.0, 26.0, 27.0, 26.0], "hands": [], "unit": "cards",
                                "target": None, "lower_wins": True}
    over = run(start(3, deck_size=3), plays("racketeer", "gun"))
    assert engine.waiting(over).on == "over" and engine.waiting(over).why == "Ann wins!"
    assert engine.moves(over, None) == [] and engine.moves(over, 1) == []


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
