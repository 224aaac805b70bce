"""The BG Stats play file (``companion.exports``) without a league: ``durationMin`` from
a result's ``started_at``, and every object with exactly the fields and JSON types
docs/league.md lists for the format; ``started_at`` in the result format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.exports import bgstats_league_text, bgstats_text
from companion.results import GameResult, SeatResult

T = 1.75e9  # a Saturday evening in 2025, the table's clock

#: the fields of each object and their JSON types, as docs/league.md ("BG Stats
#: export", "The fields written") lists them: nothing more, nothing less
TOP = {"about": str, "players": list, "locations": list, "games": list, "plays": list,
       "userInfo": dict}
USER_INFO = {"meRefId": int}
PLAYER = {"uuid": str, "id": int, "name": str, "isAnonymous": bool, "modificationDate": str,
          "bggUsername": str}
LOCATION = {"uuid": str, "id": int, "name": str, "modificationDate": str}
GAME = {"uuid": str, "id": int, "name": str, "modificationDate": str, "cooperative": bool,
        "highestWins": bool, "noPoints": bool, "usesTeams": bool, "bggId": int}
PLAY = {"uuid": str, "modificationDate": str, "entryDate": str, "playDate": str,
        "usesTeams": bool, "durationMin": int, "ignored": bool, "manualWinner": bool,
        "rounds": int, "locationRefId": int, "gameRefId": int, "board": str,
        "scoringSetting": int, "playerScores": list}
PLAYER_SCORE = {"score": str, "winner": bool, "newPlayer": bool, "startPlayer": bool,
                "playerRefId": int, "rank": int, "seatOrder": int, "role": str}


def _shape(obj: Any, fields: dict[str, type], what: str) -> None:
    """``obj`` is a JSON object with exactly ``fields``, each of its JSON type (a whole
    number is not a boolean, a boolean is not a number)."""
    assert isinstance(obj, dict), what
    assert set(obj) == set(fields), (what, sorted(set(obj) ^ set(fields)))
    for key, kind in fields.items():
        value = obj[key]
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        assert ok, (what, key, value, kind.__name__)


def _check_format(data: Any) -> None:
    _shape(data, TOP, "the file")
    _shape(data["userInfo"], USER_INFO, "userInfo")
    for p in data["players"]:
        _shape(p, PLAYER, "a player")
    for loc in data["locations"]:
        _shape(loc, LOCATION, "a location")
    for g in data["games"]:
        _shape(g, GAME, "a game")
    for play in data["plays"]:
        _shape(play, PLAY, "a play")
        for s in play["playerScores"]:
            _shape(s, PLAYER_SCORE, "a player's score")


def _result(game_id: str, started: float, finished: float, game: str = "nasty7",
            scores: tuple[float | None, float | None] = (None, None)) -> GameResult:
    seats = (SeatResult("Ana", 1, scores[0]), SeatResult("Ben", 2, scores[1]))
    return GameResult(game_id, game, seats, finished, 10, started_at=started)


#: (started_at, finished_at, durationMin): rounded to the nearest minute, half up; a
#: start not known gives 0, a known one at least 1
DURATIONS = [
    (T, T + 45 * 60, 45),
    (T, T + 29 * 60 + 29, 29),
    (T, T + 29 * 60 + 30, 30),
    (T + 0.5, T + 90.5, 2),
    (T, T + 3 * 3600 + 59, 181),
    (T, T + 10, 1),
    (T, T, 1),
    (0.0, T + 600, 0),
]


def test_duration_is_the_minutes_from_start_to_end() -> None:
    plays = [("Window table", _result(f"g{i}", s, f)) for i, (s, f, _) in enumerate(DURATIONS)]
    data = json.loads(bgstats_league_text(plays))
    _check_format(data)
    assert [p["durationMin"] for p in data["plays"]] == [m for *_, m in DURATIONS]
    mine = json.loads(bgstats_text(plays[:2], "Ana", "League"))
    _check_format(mine)
    assert [p["durationMin"] for p in mine["plays"]] == [45, 29]


def test_every_object_has_the_documented_fields_and_types() -> None:
    plays = [("Window table", _result("g1", T, T + 1800, "illegal", (30, 20.5))),
             ("Door table", _result("g2", 0.0, T + 3600)),
             ("", _result("g3", T + 7200, T + 9000))]
    for data in (json.loads(bgstats_league_text(plays)),
                 json.loads(bgstats_text(plays, "Ben", "Home"))):
        _check_format(data)
        assert len(data["plays"]) == 3 and len(data["players"]) == 2
        assert {loc["name"] for loc in data["locations"]} >= {"Window table", "Door table"}
        scores = [s["score"] for s in data["plays"][0]["playerScores"]]
        assert scores == ["30", "20.5"]


@pytest.mark.parametrize(("field", "kind", "bad"), [
    ("durationMin", int, "45"), ("durationMin", int, True), ("noPoints", bool, 0),
    ("score", str, 30)])
def test_the_format_check_catches_a_wrong_type_or_a_missing_field(field: str, kind: type,
                                                                  bad: Any) -> None:
    fields = {"durationMin": int, "noPoints": bool, "score": str}
    good = {"durationMin": 45, "noPoints": False, "score": "30"}
    _shape(good, fields, "good")
    with pytest.raises(AssertionError):
        _shape(good | {field: bad}, fields, "bad")
    with pytest.raises(AssertionError):
        _shape({k: v for k, v in good.items() if k != field}, fields, "missing")


def test_a_result_carries_its_start_when_known() -> None:
    known = _result("g1", T + 0.12345, T + 1800)
    body = known.to_json()
    assert body["started_at"] == round(T + 0.12345, 3)
    assert GameResult.from_json(json.loads(json.dumps(body))).to_json() == body
    older = _result("g2", 0.0, T + 1800).to_json()
    assert "started_at" not in older  # an older table's result still reads
    assert GameResult.from_json(older).started_at == 0.0
    for bad, why in ((True, "'started_at' must be a time"), ("1", "'started_at' must be"),
                     (-1.0, "'started_at' must be"), (T + 1801, "after 'finished_at'")):
        with pytest.raises(ValueError, match=why):
            GameResult.from_json(body | {"started_at": bad})
