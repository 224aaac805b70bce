"""The host's camera page at 390×844: the pile that grew is drawn dashed and the host
undoes its growth with one labelled button; a knocked camera's sentence stands next to
the zone editor, and the TV's pre-game check says it too.

The growth is real (``tests.camera_rig``: a synthetic camera, the real decoder, tracker,
pipeline and ``ZoneSaver``, frames decoded in lockstep): a card of The Nasty 7 lands
beside the pile and the host counts it. The knocked camera is a camera whose status says
so (the pipeline's own knock is tested in ``tests/vision/test_tablewatch.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.config import WebConfig
from companion.demo import demo_payloads
from companion.table import Table
from tests.browser import BROWSER, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from vision.synthetic import CardPlay
from web import create_app
from web.auth import host_token
from web.server import make_server, stop

pytestmark = BROWSER

PILE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]
MOVED = "The camera moved: draw the zones again on the camera page."


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    cards = demo_payloads("nasty7")["racketeer"]
    plays = [CardPlay(cards[0], at=0.5, zone="pile", tag_px=90, angle=0.0),
             CardPlay(cards[1], at=1.5, position=(0.745, 0.5), tag_px=90, angle=0.0)]
    with camera_rig(state_dir, "nasty7", ["Ann", "Ben", "Cy"], {}, plays,
                    {"pile": PILE}) as r:
        yield r


def test_the_picture_stays_put_while_the_status_line_grows(rig: Rig, phone: Any,
                                                           state_dir: Path) -> None:
    """The camera's status line (fps, decode time, tags in view) grows every 2 s and wraps
    on a phone: above the picture, it moved the picture under the host's finger between
    two corners of a zone (a corner saved 0.14 off where it was tapped)."""
    rig.run_until(0.5)
    host = phone()
    host.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    host.goto(f"{rig.url}/host/camera")
    svg = host.locator("#zones")
    expect(svg).to_be_visible()
    before = svg.bounding_box()
    host.evaluate("""() => { document.getElementById("cam-status").textContent =
        "running · 14.9 fps · decode 4.2 ms · 3 tag(s) visible · " +
        "the camera answered late, twice, in the last minute"; }""")
    assert host.locator("#cam-status").bounding_box()["height"] > 30  # it wrapped
    assert svg.bounding_box() == before


def test_the_host_sees_the_grown_pile_and_undoes_its_growth(rig: Rig, phone: Any,
                                                            state_dir: Path) -> None:
    rig.run_until(3.0)
    beside = demo_payloads("nasty7")["racketeer"][1]
    assert rig.pipeline.tracker.visible()[beside] is None  # seen beside the pile
    assert rig.pipeline.count_beside() == "pile"  # the host counted it
    grown = rig.pipeline.zones.polygons["pile"]
    assert grown != PILE

    host = phone()
    host.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    host.goto(f"{rig.url}/host/camera")
    undo = host.get_by_role("button", name="Undo the pile's growth")
    expect(undo).to_be_visible()
    expect(host.locator("#zone-grown")).to_contain_text(
        "The pile grew to take in a card that landed beside it")
    outline = host.locator("#zones polygon.grown")
    expect(outline).to_have_count(1)
    expect(outline).to_have_attribute("stroke-dasharray", "0.02 0.012")
    expect(host.locator("#zones text")).to_have_text("pile (grew)")
    expect(host.locator("#zone-list")).to_have_text(
        f"pile: {len(grown)} corners (grew to take in a card beside it: dashed)")
    undo.scroll_into_view_if_needed()
    shot(host, "camera-page-grown-pile")
    assert too_wide(host) == []

    undo.click()
    expect(undo).to_be_hidden()
    expect(host.locator("#answer")).to_contain_text("The pile is back as you drew it.")
    expect(host.locator("#zones polygon.grown")).to_have_count(0)
    expect(host.locator("#zone-list")).to_have_text("pile: 4 corners")
    assert rig.pipeline.zones.polygons["pile"] == PILE
    assert rig.pipeline.grown_zones() == {}
    rig.run_until(3.5)  # the next frames: the live picture outlines the pile as drawn
    for _ in range(2):  # a picture asked for after those frames is on the page
        with host.expect_response(lambda r: "/host/camera.jpg" in r.url):
            pass
    assert rig.pipeline.zones.polygons["pile"] == PILE  # the pile did not grow again
    shot(host, "camera-page-growth-undone")
    # the statuses the page asks for next keep the button away: nothing grew (the
    # second one was asked for after the undo was answered)
    for _ in range(2):
        with host.expect_response(lambda r: r.url.endswith("/api/camera")):
            pass
    expect(undo).to_be_hidden()


class Camera:
    """A camera whose status the test sets: steady, then knocked and not followed."""

    def __init__(self) -> None:
        self.table: dict[str, Any] = {"state": "steady", "shift_px": 0.0, "turn_deg": 0.0,
                                      "score": 0.97, "sentence": None}
        self.warnings: list[str] = []

    def live_jpeg(self) -> bytes | None:
        import cv2
        import numpy as np

        ok, jpeg = cv2.imencode(".jpg", np.full((270, 480, 3), 70, np.uint8))
        return bytes(jpeg) if ok else None

    def status(self) -> dict[str, Any]:
        level = "red" if self.warnings else "green"
        verdicts = [{"what": "light", "level": "green", "sentence": "The light is good."}]
        return {"state": "running", "fps": 10.0, "tags": {}, "zones": {"pile": PILE},
                "grown": None, "table": dict(self.table),
                "check": {"level": level, "verdicts": verdicts, "warnings": list(self.warnings)}}

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        pass

    def knock(self) -> None:
        """What the pipeline reports after two checks without finding the table."""
        self.table = {"state": "moved", "shift_px": 0.0, "turn_deg": 0.0, "score": 0.41,
                      "sentence": MOVED}
        self.warnings = [MOVED]


@pytest.fixture
def knocked(table: Table, state_dir: Path) -> Iterator[tuple[str, Camera]]:
    camera = Camera()
    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                     camera=camera, testing=True)
    server = make_server(app, "127.0.0.1", 0, 24)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.bind_addr[1]}", camera
    finally:
        stop(app, server)
        thread.join(300)


def test_a_knocked_camera_is_said_next_to_the_zone_editor_and_on_the_tv(
        knocked: tuple[str, Camera], phone: Any, tv: Any, state_dir: Path) -> None:
    url, camera = knocked
    host = phone()
    host.goto(f"{url}/host?token={host_token(state_dir)}")
    host.goto(f"{url}/host/camera")
    said = host.locator("#camera-moved")
    expect(host.get_by_role("heading", name="Zones")).to_be_visible()
    expect(said).to_be_hidden()
    camera.knock()  # while the host has the page open: its next look at the camera says so
    expect(said).to_be_visible()
    expect(said).to_have_text(MOVED)
    expect(host.get_by_role("alert")).to_have_text(MOVED)
    # next to the zone editor: right under its heading, before its first control
    heading = host.get_by_role("heading", name="Zones").bounding_box()
    kind = host.get_by_label("This zone is").bounding_box()
    box = said.bounding_box()
    assert heading and kind and box and heading["y"] < box["y"] < kind["y"]
    assert too_wide(host) == []
    host.reload()  # and when the page is opened after the knock
    expect(said).to_have_text(MOVED)
    expect(host.locator("#check-warnings")).to_have_text(MOVED)
    shot(host, "camera-page-knocked")

    screen = tv()
    screen.goto(f"{url}/?tv=1")  # before a game: the pre-game check, its warnings first
    check = screen.locator("#tv-check")
    expect(check).to_contain_text("Fix the red lines before playing.")
    expect(check.locator("#check-warnings")).to_have_text(MOVED)
    shot(screen, "tv-camera-knocked")
