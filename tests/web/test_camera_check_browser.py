"""The camera check on the host page and the camera page, in Chromium at 390×844.

A real table with a real camera pipeline (``tests.camera_rig``: a synthetic camera, the
real decoder and tracker, one fake clock, frames decoded in lockstep): two cards on the
pile under a lamp's glare spot. The host sees each question of the check with its level
and its fix, and the quiet warning for the glare over the pile.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_payloads
from tests.browser import BROWSER, host_token, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from vision.synthetic import CardPlay, Patch

pytestmark = BROWSER

PILE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    cards = demo_payloads("nasty7")["racketeer"]
    plays = [CardPlay(cards[0], at=0.5, zone="pile", tag_px=110, angle=0.0),
             CardPlay(cards[1], at=1.5, position=(0.45, 0.45), tag_px=110, angle=0.0)]
    glare = Patch("glare", 0.0, 60.0, (0.62, 0.66), 0.07)
    with camera_rig(state_dir, "nasty7", ["Ann", "Ben", "Cy"], {}, plays, {"pile": PILE},
                    patches=[glare]) as r:
        yield r


def test_the_host_sees_the_camera_check_with_its_fixes(rig: Rig, phone: Any,
                                                       state_dir: Path) -> None:
    rig.run_until(3.0)
    check = rig.pipeline.status()["check"]
    assert check["level"] == "red" and check["warnings"]  # the glare over the pile
    host = phone()
    host.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    box = host.locator("#camera-check")
    expect(box.get_by_role("heading", name="Camera check")).to_be_visible()
    expect(box).to_contain_text("Fix the red lines before playing.")
    expect(box).to_contain_text("Light")
    expect(box).to_contain_text("of the pile: tilt or move the lamp until it is gone.")
    expect(box).to_contain_text("Glare over the pile (")
    expect(box).to_contain_text("100% of the codes in view are read.")
    box.scroll_into_view_if_needed()
    shot(host, "camera-check-host")
    assert too_wide(host) == []
    host.goto(f"{rig.url}/host/camera")
    expect(host.locator("#camera-check")).to_contain_text("Glare over the pile (")
    shot(host, "camera-check-camera-page")
    assert too_wide(host) == []

    # The host draws the play zone around the two cards on the pile, and saves it.
    host.get_by_label("This zone is").select_option(label="Play zone (cards played)")
    host.get_by_role("button", name="Draw it around the cards in view").click()
    expect(host.locator("#answer")).to_contain_text("drawn around the cards in view")
    host.get_by_role("button", name="Finish this zone").click()
    host.get_by_role("button", name="Save zones").click()
    expect(host.locator("#zone-list")).to_contain_text("Play zone (cards played): 4 corners")
    shot(host, "camera-zone-from-cards")
    zones = rig.pipeline.zones.polygons
    assert set(zones) == {"pile", "play"}
    (x0, y0), _, (x1, y1), _ = zones["play"]
    assert 0.1 < x0 < 0.45 < 0.55 < x1 < 0.9 and 0.0 <= y0 < 0.45 < 0.55 < y1 <= 1.0
