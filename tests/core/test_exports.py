"""The BG Stats play file (``companion.exports``) without a league: ``durationMin`` from
a result's ``started_at``; every object with exactly the fields and JSON types
docs/league.md lists for the format; what the readers of the format need to read it
(the references between its lists, uuids, dates); dates in local time;
BoardGameGeek ids; ``started_at`` in the result format."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.exports import bgg_id, bgstats_league_text, bgstats_text
from companion.results import GameResult, SeatResult
from tests.core.bgstats_format import check_format, readable, shape

T = 1.75e9  # a Saturday evening in 2025, the table's clock


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process in the league's zone (Europe/Berlin), so local times are known."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


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
    check_format(data)
    assert [p["durationMin"] for p in data["plays"]] == [m for *_, m in DURATIONS]
    mine = json.loads(bgstats_text(plays[:2], "Ana", "League"))
    check_format(mine)
    assert [p["durationMin"] for p in mine["plays"]] == [45, 29]


def test_every_object_has_the_documented_fields_and_types() -> None:
    plays = [("Window table", _result("g1", T, T + 1800, "illegal", (30, 20.5))),
             ("Door table", _result("g2", 0.0, T + 3600)),
             ("", _result("g3", T + 7200, T + 9000))]
    for data in (json.loads(bgstats_league_text(plays)),
                 json.loads(bgstats_text(plays, "Ben", "Home"))):
        check_format(data)
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
    shape(good, fields, "good")
    with pytest.raises(AssertionError):
        shape(good | {field: bad}, fields, "bad")
    with pytest.raises(AssertionError):
        shape({k: v for k, v in good.items() if k != field}, fields, "missing")


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


def test_the_readers_checks_catch_a_broken_reference() -> None:
    plays = [("Window table", _result("g1", T, T + 1800, "illegal", (30, 20)))]
    good = json.loads(bgstats_league_text(plays))
    check_format(good)
    broken = [("gameRefId", 99), ("locationRefId", 99), ("playDateYmd", 20000101),
              ("playDate", "2025-06-15T20:00:00"), ("uuid", "not-a-uuid")]
    for field, bad in broken:
        data = json.loads(bgstats_league_text(plays))
        data["plays"][0][field] = bad
        with pytest.raises((AssertionError, ValueError)):
            readable(data)
    data = json.loads(bgstats_league_text(plays))
    data["plays"][0]["playerScores"][0]["playerRefId"] = 99
    with pytest.raises(AssertionError):
        readable(data)


def test_a_play_is_dated_when_it_ended_in_local_time(berlin: None) -> None:
    """The app dates a play when it is entered (``playDate`` equals ``entryDate`` in
    most plays of the file it exported, docs/league.md): a result is entered when the
    game ends. Local time, the league's zone, and ``playDateYmd`` that day."""
    start = 1_764_357_300.0  # 2025-11-28 19:15 UTC, 20:15 in Berlin
    plays = [("Window table", _result("g1", start, start + 45 * 60)),
             ("Window table", _result("g2", 0.0, start + 4 * 3600))]  # 00:15 the next day
    for data in (json.loads(bgstats_league_text(plays)),
                 json.loads(bgstats_text(plays, "Ana", "League"))):
        check_format(data)
        ended, unknown = data["plays"]
        assert (ended["playDate"], ended["entryDate"], ended["playDateYmd"],
                ended["durationMin"]) == ("2025-11-28 21:00:00", "2025-11-28 21:00:00",
                                          20251128, 45)
        assert (unknown["playDate"], unknown["entryDate"], unknown["playDateYmd"],
                unknown["durationMin"]) == ("2025-11-29 00:15:00", "2025-11-29 00:15:00",
                                            20251129, 0)
        assert {p["modificationDate"] for p in data["plays"]} == {"2025-11-29 00:15:00"}


def test_seats_keep_their_order_place_and_score() -> None:
    seats = (SeatResult("Cem", 2, 10), SeatResult("Ana", 1, 30), SeatResult("Ben", 2, 10))
    plays = [("Window table", GameResult("g1", "illegal", seats, T + 600, 10, started_at=T))]
    data = json.loads(bgstats_text(plays, "Ana", "League"))
    check_format(data)
    names = {p["id"]: p["name"] for p in data["players"]}
    got = [(names[s["playerRefId"]], s["seatOrder"], s["rank"], s["winner"], s["score"])
           for s in data["plays"][0]["playerScores"]]
    assert got == [("Cem", 1, 2, False, "10"), ("Ana", 2, 1, True, "30"),
                   ("Ben", 3, 2, False, "10")]
    assert names[data["userInfo"]["meRefId"]] == "Ana"


def test_boardgamegeek_ids_only_where_confirmed() -> None:
    """docs/league.md names the source of each id; the other games stay unlinked (0)."""
    from companion import games

    assert {e.name: e.bgg_id for e in games.ENGINES if e.bgg_id} == {"nasty7": 186302}
    assert bgg_id("nasty7") == bgg_id("die_fiesen_7") == bgg_id("The Nasty 7") == 186302
    for game in ("illegal", "casablanca", "crime_lords", "no such game"):
        assert bgg_id(game) == 0, game
    plays = [("Window table", _result(f"g{i}", T, T + 600, game))
             for i, game in enumerate(("nasty7", "illegal", "casablanca", "crime_lords"))]
    data = json.loads(bgstats_league_text(plays))
    check_format(data)
    assert {g["name"]: g["bggId"] for g in data["games"]} == {
        "The Nasty 7": 186302, "Illegal": 0, "Casablanca": 0, "Crime Lords": 0}
