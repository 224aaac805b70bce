"""Records with the tally test engine: action-line errors, undo lines, deadlines."""

from __future__ import annotations

import json

import pytest

from companion.records import RecordError, replay_lines

HEAD = json.dumps({"record": "table-companion", "version": 1, "game": "tally",
                   "seats": ["A", "B", "C"], "options": {"target": 100}})


def lines(*actions: dict[str, object]) -> list[str]:
    return [HEAD, *(json.dumps(a) for a in actions)]


def test_deadlines_follow_from_t() -> None:
    r = replay_lines(lines({"t": 0, "do": "add", "n": 1}, {"t": 1.9, "do": "add", "n": 1}))
    assert r.state["timeouts"] == 0 and r.state["turn"] == 2
    r = replay_lines(lines({"t": 0, "do": "add", "n": 1}, {"t": 2.1, "do": "add", "n": 1}))
    assert r.state["timeouts"] == 1 and r.state["turn"] == 0


def test_undo_line() -> None:
    r = replay_lines(lines({"t": 0, "do": "add", "n": 4}, {"t": 1, "do": "add", "n": 5},
                           {"t": 1.5, "do": "undo"}))
    assert r.state["total"] == 4


@pytest.mark.parametrize(
    "bad, reason",
    [
        ({"do": "add", "n": 1}, "needs \"t\""),
        ({"t": 1}, "needs \"do\""),
        ({"t": "soon", "do": "add"}, "needs \"t\""),
        ({"t": 0.5, "do": "add", "n": 12}, "between 1 and 9"),
        ({"t": 0.5, "do": "undo"}, "nothing to undo"),
    ],
)
def test_bad_action_lines(bad: dict[str, object], reason: str) -> None:
    with pytest.raises(RecordError) as err:
        replay_lines([*lines(), json.dumps(bad)])
    assert err.value.line == 2 and reason in err.value.reason


def test_time_cannot_go_back() -> None:
    with pytest.raises(RecordError) as err:
        replay_lines(lines({"t": 2, "do": "add", "n": 1}, {"t": 1, "do": "add", "n": 1}))
    assert err.value.line == 3 and "back in time" in err.value.reason


def test_seats_as_a_count_and_unknown_option() -> None:
    head = {"record": "table-companion", "version": 1, "game": "tally", "seats": 2}
    assert replay_lines([json.dumps(head)]).session.setup.seats == ("Seat 1", "Seat 2")
    head["options"] = {"colour": "red"}
    with pytest.raises(RecordError, match="unknown option"):
        replay_lines([json.dumps(head)])


def test_time_line_delivers_trailing_deadlines() -> None:
    r = replay_lines(lines({"t": 0, "do": "add", "n": 1}, {"t": 4.5, "do": "time"}))
    assert r.state["timeouts"] == 2 and r.state["total"] == 1


def test_export_ends_with_the_clock_when_deadlines_came_last() -> None:
    from companion.games.base import Setup
    from companion.session import Session

    from . import tally

    session = Session.start(tally.engine, Setup(("A", "B")))
    session, _ = session.preview({"do": "add", "n": 1}, 0.0)
    session, _ = session.preview_deadlines(2.5)
    actions = session.record_actions()
    assert actions[-1] == {"t": 2.0, "do": "time"}
    head = json.dumps({"record": "table-companion", "version": 1, "game": "tally", "seats": 2})
    assert replay_lines([head, *map(json.dumps, actions)]).session.state == session.state
