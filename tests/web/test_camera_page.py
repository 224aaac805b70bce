"""The camera page's grown pile and knocked camera, at the Flask level: the host's undo of
the pile's growth (``POST /api/camera/undo-growth``) through the real ``ZoneSaver`` and a
real pipeline whose pile grew, what the camera page and its status say, and the TV's
pre-game check saying the camera moved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask

from companion.commands.serve import DRAWN_ZONES_FILE, ZONES_FILE, ZoneSaver
from companion.config import WebConfig, ZonesConfig
from companion.table import Table
from tests.vision.test_zonegrow import PILE, SEAT, run
from tests.web.conftest import as_host, csrf_of, post_json
from web import create_app

MOVED = "The camera moved: draw the zones again on the camera page."
UNDO = "/api/camera/undo-growth"


def grown_pile(state_dir: Path) -> tuple[Any, ZoneSaver]:
    """A real pipeline whose pile grew (the host counted a card seen beside it), and the
    dashboard's camera over it, saving to ``state_dir`` as ``companion serve`` does."""
    pipeline, _events, _saved = run([("A", 0.64, 0.5, range(0, 200))], 10)
    saver = ZoneSaver(pipeline, ZonesConfig(polygons={"pile": PILE, "seat": SEAT}))
    pipeline.on_zones = saver.save_grown
    assert pipeline.count_beside() == "pile"
    assert pipeline.zones.polygons["pile"] != PILE
    assert (state_dir / DRAWN_ZONES_FILE).exists()
    return pipeline, saver


def test_only_the_host_may_undo_and_only_with_the_pages_token(table: Table,
                                                               state_dir: Path) -> None:
    pipeline, saver = grown_pile(state_dir)
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, camera=saver,
                     testing=True)
    guest = app.test_client()
    assert post_json(guest, UNDO, {}).status_code == 403
    host = as_host(app, state_dir)
    assert host.post(UNDO, json={}).status_code == 403  # no CSRF token: not the page
    assert pipeline.zones.polygons["pile"] != PILE  # nothing was undone


def test_without_a_camera_the_undo_says_so(app: Flask, state_dir: Path) -> None:
    answer = post_json(as_host(app, state_dir), UNDO, {})
    assert answer.status_code == 409
    assert answer.get_json() == {"accepted": False, "reason": "No camera on this table."}


def test_when_nothing_grew_the_undo_says_so_and_changes_nothing(table: Table,
                                                                state_dir: Path) -> None:
    pipeline, _events, _saved = run([], 3)
    saver = ZoneSaver(pipeline, ZonesConfig(polygons={"pile": PILE, "seat": SEAT}))
    pipeline.on_zones = saver.save_grown
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, camera=saver,
                     testing=True)
    host = as_host(app, state_dir)
    answer = post_json(host, UNDO, {})
    assert answer.status_code == 409
    assert answer.get_json() == {"accepted": False,
                                 "reason": "Nothing grew: the zones are as you drew them."}
    assert not (state_dir / ZONES_FILE).exists()  # nothing saved
    page = host.get("/host/camera").get_data(as_text=True)
    assert '<div id="zone-grown" hidden>' in page
    assert host.get("/api/camera").get_json()["grown"] == {}


def test_the_host_undoes_the_piles_growth(table: Table, state_dir: Path) -> None:
    pipeline, saver = grown_pile(state_dir)
    grown = [list(p) for p in pipeline.zones.polygons["pile"]]
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, camera=saver,
                     testing=True)
    host = as_host(app, state_dir)
    status = host.get("/api/camera").get_json()
    assert status["grown"] == {"pile": grown} and status["moved"] is None
    page = host.get("/host/camera").get_data(as_text=True)
    assert '<div id="zone-grown">' in page and "Undo the pile's growth" in page

    answer = post_json(host, UNDO, {})
    assert answer.status_code == 200
    drawn = {"pile": [list(p) for p in PILE], "seat": [list(p) for p in SEAT]}
    assert answer.get_json() == {"accepted": True, "reason": None, "zones": drawn}
    assert pipeline.zones.polygons == {"pile": PILE, "seat": SEAT}
    assert pipeline.grown_zones() == {}
    # saved as drawn; the kept drawing went: they are the drawing, the base of a growth
    assert json.loads((state_dir / ZONES_FILE).read_text()) == drawn
    assert not (state_dir / DRAWN_ZONES_FILE).exists()
    assert host.get("/api/camera").get_json()["grown"] == {}
    assert '<div id="zone-grown" hidden>' in host.get("/host/camera").get_data(as_text=True)
    again = post_json(host, UNDO, {})
    assert again.status_code == 409 and "Nothing grew" in again.get_json()["reason"]


class KnockedCamera:
    """A camera knocked so far that its zones could not follow the table."""

    def live_jpeg(self) -> bytes | None:
        return None

    def status(self) -> dict[str, Any]:
        return {"state": "running", "fps": 10.0, "tags": {}, "zones": {"pile": PILE},
                "grown": None,
                "table": {"state": "moved", "shift_px": 0.0, "turn_deg": 0.0, "score": 0.4,
                          "sentence": MOVED},
                "check": {"level": "red", "verdicts": [], "warnings": [MOVED]}}

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        pass


def test_a_knocked_camera_is_said_on_the_camera_page_and_the_tv(table: Table,
                                                                 state_dir: Path) -> None:
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir,
                     camera=KnockedCamera(), testing=True)
    host = as_host(app, state_dir)
    page = host.get("/host/camera").get_data(as_text=True)
    assert f'<p id="camera-moved" class="refusal" role="alert"><b>{MOVED}</b></p>' in page
    assert host.get("/api/camera").get_json()["moved"] == MOVED
    tv = app.test_client().get("/tv/camera-check").get_data(as_text=True)
    assert MOVED in tv and "Fix the red lines before playing." in tv
    assert csrf_of(host)  # the page still carries its token
