"""The Nasty 7's pages without a browser: the host's controls, a seat's Accuse, clips."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import WebConfig
from companion.inputs import HOST, TABLE, Command, Source
from companion.store import MemoryStore
from companion.table import Table
from tests.web.conftest import as_host, join, post_json
from tests.web.yourmove import card_moves, offers, why_not
from web import create_app
from web.clips import CLIPS


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table(MemoryStore())
    t.start()
    res = t.submit(Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    assert res.result(300).accepted
    yield t
    t.stop()


@pytest.fixture
def app(table: Table, state_dir: Path) -> Flask:
    return create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir, testing=True)


def act(table: Table, action: dict[str, Any], source: Source = HOST) -> None:
    res = table.submit(Command("action", {"action": action}, source=source)).result(300)
    assert res.accepted, res.reason


def controls(host: FlaskClient) -> str:
    return str(host.get("/host").get_data(as_text=True))


def test_the_host_sees_labelled_corrections_never_ids(app: Flask, table: Table,
                                                     state_dir: Path) -> None:
    act(table, {"do": "play", "card": "twin_racketeer"}, TABLE)
    html = controls(as_host(app, state_dir))
    assert "Twin racketeers, booked to <b>Ann</b>." in html
    moves = {m["label"]: m for m in card_moves(html)}
    assert [c["label"] for c in moves["The last card was played by"]["params"][0]["choices"]] \
        == ["Ben", "Cy"]
    assert "Mobile phone" in [c["label"] for c in
                              moves["The last card was really"]["params"][0]["choices"]]
    kinds = moves["Record a mistake"]["params"][1]["choices"]
    assert "Said the wrong word or sound" in [c["label"] for c in kinds]
    assert moves["Cy hesitated (more than 3 s)"]["allowed"]
    assert moves["The camera missed a card of Cy"]["params"][1]["label"] == (
        "How many seconds ago did it land?")
    assert 'data-confirm="Undo: Ann played Twin racketeers?"' in html
    assert ">twin_racketeer<" not in html and "twin_racketeer</" not in html


def test_the_host_rules_with_buttons_and_sees_the_recount(app: Flask, table: Table,
                                                         state_dir: Path) -> None:
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    act(table, {"do": "accuse", "by": [0], "against": 1, "kind": "wrong_number"},
        Source.of_seat(0))
    html = controls(as_host(app, state_dir))
    assert "Ann accuses <b>Ben</b> of a wrong count." in html
    assert "Recount: the count was <b>2</b> (2 cards on the pile)" in html
    rule = [m["label"] for m in card_moves(html) if m["group"] == "rule" and m["allowed"]]
    assert rule == ["Upheld: Ben takes the pile", "Not upheld: the accusers take the pile",
                    "Withdrawn: no penalty"]
    assert why_not(html, "The last card was played by") or not offers(
        html, "The last card was played by")  # rule on the accusation first


def test_a_phone_cannot_send_a_host_correction(app: Flask, table: Table,
                                               state_dir: Path) -> None:
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    ben = join(app, as_host(app, state_dir), 1)
    resp = post_json(ben, "/api/seat/1/action", {"action": {"do": "reassign", "by": 1}})
    body = resp.get_json()
    assert body["accepted"] is False
    assert body["reason"] == "Give the last card to another player: only the host can do that."


def test_a_seat_is_told_why_accuse_is_off(app: Flask, table: Table, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    page = ann.get("/seat/0").get_data(as_text=True)
    assert why_not(page, "Accuse") == (
        "No card is on the pile: there is nothing to accuse anyone of yet.")
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    page = ann.get("/seat/0").get_data(as_text=True)
    assert why_not(page, "Accuse") == "Ann played the last card and cannot accuse themselves."
    ben = join(app, host, 1)
    page = ben.get("/seat/1").get_data(as_text=True)
    (which,) = [m for m in card_moves(page) if m["label"] == "Accuse Ann of a mistake"]
    assert [c["label"] for c in which["params"][0]["choices"]] == [
        "Wrong count", "Wrong word", "Spoke on a gun", "Too slow (over 3 s)"]
    resp = post_json(ben, "/api/seat/1/action",
                     {"action": {"do": "accuse", "by": [1], "against": 0, "kind": "hesitation"}})
    assert resp.get_json()["accepted"] is True
    assert "Ben accuses Ann of hesitating" in table.hub.latest().public["status"]


def test_without_a_camera_there_is_no_clip(app: Flask, table: Table, state_dir: Path) -> None:
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    act(table, {"do": "hesitation"})
    html = controls(as_host(app, state_dir))
    assert "Ben: no card within 3 s" in html and "(no clip: no camera)" in html
    assert table.info is not None
    assert app.test_client().get(f"/clips/{table.info.game_id}/1").status_code == 404


def test_a_saved_clip_is_served_to_everyone(app: Flask, table: Table, state_dir: Path) -> None:
    act(table, {"do": "play", "card": "racketeer"}, TABLE)
    act(table, {"do": "hesitation"})
    assert table.info is not None
    folder = state_dir / CLIPS / table.info.game_id / "1"
    folder.mkdir(parents=True)
    (folder / "0000.jpg").write_bytes(b"\xff\xd8jpeg")
    meta = {"title": "Ben: no card within 3 s", "start": 0.0, "limit": 3.0, "game": "nasty7",
            "frames": [{"file": "0000.jpg", "t": 0.0}]}
    (folder / "meta.json").write_text(json.dumps(meta))
    anyone = app.test_client()
    table_page = anyone.get("/").get_data(as_text=True)
    assert f'href="/clips/{table.info.game_id}/1">watch</a>' in table_page
    assert anyone.get(f"/clips/{table.info.game_id}/1").status_code == 200
    assert anyone.get(f"/clips/{table.info.game_id}/1/meta.json").get_json()["title"] == (
        "Ben: no card within 3 s")
    assert anyone.get(f"/clips/{table.info.game_id}/1/0000.jpg").data == b"\xff\xd8jpeg"
    assert anyone.get(f"/clips/{table.info.game_id}/1/meta.txt").status_code == 404
    assert anyone.get("/clips/..%2F..%2Fetc/1/meta.json").status_code == 404
