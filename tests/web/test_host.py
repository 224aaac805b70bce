"""Host commands, records, history, camera, scores and page rendering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.config import WebConfig
from companion.table import Table
from tests.web.conftest import act, as_host, join, post_json, start_game
from web import create_app, scores


def test_host_starts_undoes_and_ends(app: Flask, table: Table, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    bad = post_json(host, "/api/host/start", {"game": "no-such-game", "players": ["A", "B"]})
    assert bad.status_code == 409 and "unknown game" in bad.get_json()["reason"]
    ok = post_json(host, "/api/host/start", {"game": "tally", "players": ["Ann", "Ben"],
                                             "options": {"target": 12}})
    assert ok.status_code == 200 and ok.get_json()["accepted"]
    assert table.hub.latest().options["target"] == 12
    assert post_json(host, "/api/host/action", {"action": {"do": "add", "n": 5}}).status_code == 200
    assert table.hub.latest().public["total"] == 5
    assert post_json(host, "/api/host/undo", {}).status_code == 200
    assert table.hub.latest().public["total"] == 0
    refused = post_json(host, "/api/host/action", {"action": {"do": "fly"}})
    assert refused.status_code == 409 and "not something anyone can do" in \
        refused.get_json()["reason"]
    assert "Last refusal" in host.get("/host").get_data(as_text=True)
    assert post_json(host, "/api/host/end", {}).status_code == 200


def test_seat_refusal_is_shown_to_that_seat_only(app: Flask, table: Table,
                                                 state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"])
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    ben = join(app, host, 1)
    refused = post_json(ben, "/api/seat/1/action", {"action": {"do": "add", "n": 2}})
    assert refused.status_code == 409 and "turn" in refused.get_json()["reason"]
    assert ben.get("/api/seat/1").get_json()["refusal"]["source"] == "seat:1"
    assert ann.get("/api/seat/0").get_json()["refusal"] is None
    assert app.test_client().get("/api/state").get_json()["refusal"] is None


def test_record_only_for_the_host_and_only_after_the_game(app: Flask, table: Table,
                                                          state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"], options={"target": 5})
    game_id = table.hub.latest().game_id
    act(table, {"do": "secret", "seat": 0, "value": 99})
    host = as_host(app, state_dir)
    url = f"/host/record/{game_id}.jsonl"
    assert app.test_client().get(url).status_code == 403
    assert host.get(url).status_code == 409  # running: the record holds secrets
    act(table, {"do": "add", "n": 5})  # the target is reached: game over
    resp = host.get(url)
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    lines = [json.loads(x) for x in resp.get_data(as_text=True).splitlines()]
    assert lines[0]["game"] == "tally" and {"do": "secret", "seat": 0, "value": 99} in [
        {k: v for k, v in x.items() if k != "t"} for x in lines[1:]]
    assert url in host.get("/host").get_data(as_text=True)
    post_json(host, "/api/host/end", {})
    assert host.get(url).status_code == 200  # ended games come from the store


def test_history_lists_inputs_with_undone(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    act(table, {"do": "add", "n": 2})
    act(table, {"do": "add", "n": 7})
    host = as_host(app, state_dir)
    undone = post_json(host, "/api/host/undo", {})
    assert undone.status_code == 200 and undone.get_json()["accepted"], undone.get_json()
    entries = host.get("/api/history").get_json()["entries"]
    assert [e["undone"] for e in entries if e["kind"] == "action"] == [False, True]
    page = host.get("/history").get_data(as_text=True)
    assert 'class="undone"' in page and 'data-command="undo"' in page


class FakeCamera:
    def __init__(self) -> None:
        self.zones: dict[str, Any] = {}

    def live_jpeg(self) -> bytes | None:
        return b"\xff\xd8fakejpeg\xff\xd9"

    def status(self) -> dict[str, Any]:
        return {"state": "running", "fps": 12.0, "tags": [], "zones": self.zones}

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        self.zones = polygons


def test_camera_view_and_zones(table: Table, state_dir: Path) -> None:
    cam = FakeCamera()
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, camera=cam,
                     testing=True)
    host = as_host(app, state_dir)
    assert app.test_client().get("/host/camera.jpg").status_code == 403
    jpg = host.get("/host/camera.jpg")
    assert jpg.status_code == 200 and jpg.mimetype == "image/jpeg"
    assert 'id="zone-save"' in host.get("/host/camera").get_data(as_text=True)
    bad = post_json(host, "/api/camera/zones", {"zones": {"pile": [[0.1, 0.1], [2, 0]]}})
    assert bad.status_code == 400 and not cam.zones
    zone = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.8]]
    assert post_json(host, "/api/camera/zones", {"zones": {"pile": zone}}).status_code == 200
    assert cam.zones == {"pile": [(0.1, 0.1), (0.9, 0.1), (0.5, 0.8)]}


def test_without_a_camera_the_page_says_so(app: Flask, state_dir: Path) -> None:
    page = as_host(app, state_dir).get("/host/camera").get_data(as_text=True)
    assert "has no camera" in page


def test_setup_lists_installed_games_with_options(app: Flask, state_dir: Path) -> None:
    page = as_host(app, state_dir).get("/host/setup").get_data(as_text=True)
    assert 'value="tally"' in page and "2–6 players" in page
    assert 'name="target"' in page and 'name="hesitation_s"' in page


def test_scores_and_chart() -> None:
    payload = {"scores": {"hands": [[10, 0, 5], [0, 20, 5]], "totals": [10, 20, 10]}}
    hands = scores.hand_scores(payload)
    assert hands == [[10, 0, 5], [0, 20, 5]]
    assert scores.totals(hands) == [10, 20, 10]
    svg = scores.chart_svg(hands, ["Ann", "Ben", "<Cy>"])
    assert svg.count("<polyline") == 3 and "&lt;Cy&gt;" in svg and 'role="img"' in svg
    assert scores.hand_scores({"scores": {"hands": []}}) is None
    assert scores.hand_scores({"scores": {"hands": [["x"]]}}) is None
    assert scores.hand_scores({"view": {"match": {"hands": [[1, 2]]}}}) is None  # no guessing


def test_generic_view_renders_nested_values(client: FlaskClient, table: Table) -> None:
    start_game(table)
    html = client.get("/").get_data(as_text=True)
    assert "<dt>Total</dt><dd>0</dd>" in html and "Seat 1 to play" in html
    assert client.get("/api/state").get_json()["game"] == "tally"
