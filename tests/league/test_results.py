"""The result a table sends: public parts only, places with ties, the same from the
store and from an exported record (no PostgreSQL needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import games
from companion.records import export_lines, replay_lines
from companion.results import GameResult, places, result_of_record, result_of_store
from companion.store import SqliteStore
from tests.league.tables import FINISHED, record_lines, store_game


def test_places_share_ties_and_follow_the_scores() -> None:
    assert places([0], [10, 30, 20], 3) == [1, 2, 3]
    assert places([0], [10, 20, 20, 5], 4) == [1, 2, 2, 4]
    assert places([2], [3, 1, 0], 3, lower_wins=True) == [3, 2, 1]
    assert places([0, 1], None, 3) == [1, 1, 2]


@pytest.mark.parametrize(("game", "name"), FINISHED)
def test_a_result_holds_only_what_the_table_showed(tmp_path: Path, game: str,
                                                   name: str) -> None:
    store = SqliteStore(tmp_path / "events.sqlite3")
    lines = record_lines(game, name)
    info = store_game(store, lines)
    result = result_of_store(store, info.game_id)
    assert result is not None and result.game == game
    body = result.to_json()
    assert set(body) == {"version", "game_id", "game", "started_at", "finished_at", "seq",
                         "lower_wins", "unit", "final", "seats"}
    # the game began at its first stored event, by the table's clock
    rows = store.events(info.game_id)
    assert body["started_at"] == round(info.created + rows[0].t, 3) <= body["finished_at"]
    assert body["final"] is True
    assert all(set(s) == {"name", "place", "score"} for s in body["seats"])
    replay = replay_lines(lines)
    engine = games.get(game)
    public = engine.table_view(engine.settle_record(replay.session.state))["scores"]
    totals = public["totals"] if public else None
    assert [s.score for s in result.seats] == ([float(x) for x in totals] if totals
                                               else [None] * len(result.seats))
    winners = replay.outcome["winner"] if replay.outcome else []
    assert [i for i, s in enumerate(result.seats) if s.place == 1] == winners
    again = result_of_record(info.game_id, export_lines(store, info.game_id), info.created,
                             result.seq)
    assert again is not None and again.to_json() == body
    assert GameResult.from_json(json.loads(json.dumps(body))).to_json() == body
    store.close()


def test_an_unfinished_game_has_no_result(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "events.sqlite3")
    lines = record_lines(*FINISHED[0])
    info = store_game(store, lines[:3], close=False)
    assert result_of_store(store, info.game_id) is None
    store.close()
