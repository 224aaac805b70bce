"""The board page: the host saves a board (checked by the engine), zones go to the camera."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from tests.web.conftest import as_host, post_json
from web.board import saved_board, with_saved_board


def small_board() -> dict[str, Any]:
    names = ["Basar", "Airport", "Hotel", "Police", "Rick's Café"]
    spaces: list[dict[str, Any]] = [
        {"id": "ricks_cafe" if n == "Rick's Café" else n.lower(), "name": n,
         "kind": "centre" if n == "Basar" else "homebase", "x": 0.1 * (i + 1), "y": 0.5}
        for i, n in enumerate(names)
    ]
    return {"spaces": spaces, "streets": [["basar", s["id"]] for s in spaces[1:]]}


def test_the_host_saves_a_board_and_new_games_use_it(app: Flask, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    page = host.get("/host/board").get_data(as_text=True)
    assert "Spaces and streets" in page and "Rick" in page
    assert app.test_client().get("/host/board").status_code == 403
    bad = post_json(host, "/api/board", {"board": {"spaces": [{"name": "x" * 41}, {"name": "Basar"}]}}).get_json()
    assert not bad["accepted"] and "at most 40" in bad["reason"]
    missing = post_json(host, "/api/board", {"board": {"spaces": [{"name": "A"}, {"name": "B"}],
                                                       "streets": []}}).get_json()
    assert not missing["accepted"] and "no space" in missing["reason"]
    ok = post_json(host, "/api/board", {"board": small_board()}).get_json()
    assert ok["accepted"], ok
    saved = saved_board(state_dir)
    assert saved is not None and [s["name"] for s in saved["spaces"]][0] == "Basar"
    assert with_saved_board("casablanca", {}, state_dir)["board"] == saved
    assert with_saved_board("casablanca", {"board": {"a": ["b"]}}, state_dir)["board"] == {
        "a": ["b"]
    }
    assert "board" not in with_saved_board("nasty7", {}, state_dir)
    assert "board" not in with_saved_board("no such game", {}, state_dir)
    assert not post_json(host, "/api/board", {"board": small_board(),
                                              "zones": {"Mars": [[0, 0], [1, 0], [1, 1]]}}
                         ).get_json()["accepted"]
    reset = post_json(host, "/api/board", {"reset": True}).get_json()
    assert reset["accepted"] and saved_board(state_dir) is None


class FakeCamera:
    """The vision pipeline as the dashboard sees it, remembering the zones it was given."""

    def __init__(self) -> None:
        self.zones: dict[str, list[tuple[float, float]]] = {}

    def live_jpeg(self) -> bytes | None:
        return None

    def status(self) -> dict[str, Any]:
        return {"state": "running", "zones": self.zones}

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        self.zones = dict(polygons)


def test_space_zones_drawn_on_the_board_page_go_to_the_camera(
    table: Any, state_dir: Path
) -> None:
    from companion.config import WebConfig
    from web import create_app

    camera = FakeCamera()
    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                     camera=camera, testing=True)
    host = as_host(app, state_dir)
    assert 'id="board-img"' in host.get("/host/board").get_data(as_text=True)
    square = [[0.4, 0.4], [0.6, 0.4], [0.6, 0.6], [0.4, 0.6]]
    ok = post_json(host, "/api/board", {"board": small_board(),
                                        "zones": {"Basar": square}}).get_json()
    assert ok["accepted"] and ok["zones"] == ["Basar"]
    assert camera.zones == {"Basar": [(0.4, 0.4), (0.6, 0.4), (0.6, 0.6), (0.4, 0.6)]}
    bad = post_json(host, "/api/board", {"board": small_board(),
                                         "zones": {"Basar": [[0.4, 0.4], [2, 0.4]]}}).get_json()
    assert not bad["accepted"] and "3 or more corners" in bad["reason"]
