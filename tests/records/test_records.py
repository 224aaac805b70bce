"""Every recorded game in tests/records/<game>/ replays to what its .expected.json says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.records import RecordError, replay_path

HERE = Path(__file__).parent
RECORDS = sorted(HERE.glob("*/*.jsonl"))


def subset_mismatch(expected: Any, actual: Any, where: str = "") -> str | None:
    """Where ``actual`` differs from ``expected`` (dicts: expected keys only), or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where or '.'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key}: missing"
            found = subset_mismatch(value, actual[key], f"{where}.{key}")
            if found:
                return found
        return None
    if expected != actual:
        return f"{where or '.'}: expected {expected!r}, got {actual!r}"
    return None


def test_subset_matcher_can_fail() -> None:
    assert subset_mismatch({"a": 1}, {"a": 1, "b": 2}) is None
    assert subset_mismatch({"a": 1}, {"a": 2}) == ".a: expected 1, got 2"
    assert subset_mismatch({"a": [1]}, {"a": [1, 2]}) is not None
    assert subset_mismatch({"a": {"b": 1}}, {"a": {}}) == ".a.b: missing"


@pytest.mark.parametrize("record", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_record_replays_as_expected(record: Path) -> None:
    expected_path = record.with_suffix(".expected.json")
    assert expected_path.exists(), f"{record.name} needs {expected_path.name} beside it"
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    if "error_line" in expected:
        with pytest.raises(RecordError) as err:
            replay_path(record)
        assert err.value.line == expected["error_line"]
        assert expected.get("error_contains", "") in err.value.reason
        return
    result = replay_path(record).to_json()
    for key in ("state", "outcome"):
        if key in expected:
            if expected[key] is None:
                assert result[key] is None, f"{key}: expected null, got {result[key]!r}"
            else:
                problem = subset_mismatch(expected[key], result[key], key)
                assert problem is None, problem


BROKEN = """{"record": "table-companion", "version": 1, "game": "GAME", "seats": 3, "options": {}}
{"t": 0.5, "do": "nonsense-that-no-engine-knows"}
"""


def test_cli_names_the_broken_line(tmp_path: Path) -> None:
    from companion import games

    name = sorted(games.available())[0] if games.available() else None
    if name is None:
        pytest.skip("no game engine installed yet")
    path = tmp_path / "broken.jsonl"
    path.write_text(BROKEN.replace("GAME", name) + "{not json\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path), "--json"],
        capture_output=True, text=True, timeout=600,  # a safety net
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert f"{path}:2:" in proc.stderr and "refused by the rules" in proc.stderr


@pytest.mark.parametrize(
    "lines, line, reason",
    [
        (["{not json"], 1, "not valid JSON"),
        (['{"record": "other"}'], 1, "record"),
        (['{"record": "table-companion", "version": 99, "game": "x", "seats": 2}'], 1, "newer"),
        (['{"record": "table-companion", "version": 1, "game": "no-such-game", "seats": 2}'],
         1, "unknown game"),
    ],
)
def test_header_errors_name_line_and_reason(lines: list[str], line: int, reason: str) -> None:
    from companion.records import replay_lines

    with pytest.raises(RecordError) as err:
        replay_lines(lines)
    assert err.value.line == line and reason in err.value.reason


def test_empty_record() -> None:
    from companion.records import replay_lines

    with pytest.raises(RecordError, match="empty"):
        replay_lines(["", "# just a comment"])


#: Ann's card seen by the camera, Ben's entered by the host at 2.0, Cy's 7 s later
HAND_ENTERED = [{"t": 1.0, "do": "play", "card": "racketeer"},
                {"t": 2.0, "do": "missed_card", "card": "racketeer"},
                {"t": 9.0, "do": "play", "card": "racketeer"}]


@pytest.mark.parametrize(
    "version, options, penalised",
    [
        (3, {}, None),  # today's default: the host rules on hesitation after a typed card
        (2, {}, 5.000001),  # before the option: the clock ran from the typed card
        (1, {}, 5.0),  # version 1: a card at exactly 3 s was late (late_at_limit)
        (2, {"hand_entry_timing": "host_rules"}, None),  # the header's own option wins
        (3, {"hand_entry_timing": "clock"}, 5.000001),
    ],
)
def test_a_card_entered_by_hand_is_timed_as_the_records_version_says(
        version: int, options: dict[str, Any], penalised: float | None) -> None:
    from companion.records import VERSION, replay_lines

    assert VERSION == 3
    header = {"record": "table-companion", "version": version, "game": "nasty7",
              "seats": ["Ann", "Ben", "Cy"], "options": options}
    replay = replay_lines([json.dumps(x) for x in [header, *HAND_ENTERED]])
    hesitations = [(b.t, e.offender) for b in replay.session.batches if b.kind == "deadline"
                   for e in b.events if getattr(e, "why", None) == "hesitation"]
    assert hesitations == ([(penalised, 2)] if penalised else []), (version, options)
    # Cy hesitated and took the pile (Cy starts round 2 with the card at 9.0), or played in turn
    assert replay.state["round"] == (1 if penalised is None else 2)


#: a card seen beside the pile, then a play; then a long gap
SEEN_THEN_PLAYED = [{"t": 1.0, "do": "play", "card": "racketeer", "serial": 1},
                    {"t": 2.0, "do": "seen_beside", "card": "gun", "serial": 7},
                    {"t": 3.0, "do": "play", "card": "racketeer", "serial": 2},
                    {"t": 10.0, "do": "play", "card": "racketeer", "serial": 3}]


@pytest.mark.parametrize(
    "version, options, penalised",
    [
        (3, {}, False),  # the question waits for the host: no clock
        (2, {}, True),  # before 0df0111 the next play dropped it and the clock ran again
        (1, {}, True),
        # a version-2 header naming hand_entry_timing was written by 0df0111 or later
        (2, {"hand_entry_timing": "clock"}, False),
        (3, {"seen_one_at_a_time": True}, True),
    ],
)
def test_a_card_seen_beside_the_pile_waits_as_the_records_version_says(
        version: int, options: dict[str, Any], penalised: bool) -> None:
    from companion.records import replay_lines

    header = {"record": "table-companion", "version": version, "game": "nasty7",
              "seats": ["Ann", "Ben", "Cy"], "options": options}
    replay = replay_lines([json.dumps(x) for x in [header, *SEEN_THEN_PLAYED]])
    hesitations = [e.offender for b in replay.session.batches if b.kind == "deadline"
                   for e in b.events if getattr(e, "why", None) == "hesitation"]
    assert hesitations == ([2] if penalised else []), (version, options)
