"""A lamp's glare over part of the pile, at a real Nasty 7 table, in Chromium at 390×844.

Issue 36: cards that land inside a lamp's reflection are never read, and nothing can be
seen to settle there (white before, white after), so the 3-second clock penalised a
player who had played in time. Here the real camera path (``tests.camera_rig``: a
synthetic camera, the real decoder, tracker and check, one fake clock, frames decoded in
lockstep) sees the glare, says the pile is blind, and the table stops penalising by
itself (``glare_timing`` "host_rules", the default): Ben's card lands under the glare
unseen and Ben is not penalised. The host page and the TV say why there is no clock and
what to do; the host can still rule ("Ben hesitated"). When the lamp is turned away, Ben's
card is read, the camera sees the whole pile again, the clock runs again, and a real
hesitation is penalised by it.

Nothing depends on the machine's speed: frames are released up to a scripted time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_payloads
from tests.browser import BROWSER, host_token, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from tests.wait import SAFETY
from vision.synthetic import CardPlay, Patch

pytestmark = BROWSER
expect.set_options(timeout=int(SAFETY * 1000))  # a safety net: nothing waits for a time

PILE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]
#: the reflection over the pile's bottom right, until the host turns the lamp away
GLARE = Patch("glare", 0.0, 9.0, (0.62, 0.66), 0.07)


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    cards = demo_payloads("nasty7")["racketeer"]
    plays = [CardPlay(cards[0], at=0.5, position=(0.42, 0.38), tag_px=110, angle=0.0),  # Ann
             CardPlay(cards[1], at=1.6, position=(0.62, 0.66), tag_px=110, angle=0.0),  # Ben
             # Cy; the video runs on 2 s after it is picked up
             CardPlay(cards[2], at=13.5, position=(0.4, 0.45), tag_px=110, angle=0.0,
                      removed_at=17.0)]
    with camera_rig(state_dir, "nasty7", ["Ann", "Ben", "Cy"], {}, plays, {"pile": PILE},
                    patches=[GLARE]) as r:
        yield r


def taken(rig: Rig) -> list[dict[str, Any]]:
    table = rig.table
    assert table.info is not None
    return [e.payload for e in table.store.events(table.info.game_id) if e.type == "PileTaken"]


def test_glare_over_the_pile_stops_the_clock_and_the_host_is_told(
        rig: Rig, phone: Any, tv: Any, state_dir: Path) -> None:
    rig.run_until(8.0)  # Ben's card landed under the glare at 1.6 s: its tag never read
    view = rig.view()
    assert view["pile"] == 1 and view["glare"] is True and view["deadline"] is None
    assert taken(rig) == []  # Ben's deadline (3.5 s) passed long ago: not penalised
    assert rig.pipeline.status()["pile_blind"] is True
    assert len(view["unread"]) == 1  # its edges outside the glare were seen to settle

    host = phone()
    host.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    controls = host.locator("#host-live")
    expect(controls).to_contain_text(
        "A lamp's glare hides part of the pile from the camera, so it cannot time the "
        "cards there: no automatic hesitation penalty until the glare is gone.")
    expect(controls).to_contain_text(
        "A card landed on the pile that the camera could not read: which card?")
    shot(host, "nasty7-glare-host")
    assert too_wide(host) == []
    screen = tv()
    screen.goto(f"{rig.url}/?tv=1")
    expect(screen.locator("body")).to_contain_text(
        "No 3-second clock: a lamp's glare hides part of the pile from the camera.")
    shot(screen, "nasty7-glare-table")

    # The host names Ben's card; Cy is to play, and the clock still does not run: the
    # host rules on hesitation meanwhile.
    controls.get_by_role("button", name=re.compile(r"^Which card did Ben play at ")).click()
    controls.get_by_role("button", name="Racketeer", exact=True).click()
    expect(controls).to_contain_text(
        "if Cy hesitates meanwhile, say so under “Penalty…”: “Cy hesitated”")
    controls.get_by_role("button", name="Penalty…", exact=True).click()
    expect(controls.get_by_role("button", name="Cy hesitated (more than 3 s)")).to_be_visible()
    shot(host, "nasty7-glare-host-rules")
    controls.get_by_role("button", name="Back", exact=True).click()
    assert rig.view()["pile"] == 2 and rig.view()["deadline"] is None

    # The lamp is turned away at 9 s: Ben's card is read where it landed (booked once
    # already: nothing more); two clean checks later (one every 3 s at this frame rate)
    # the camera sees the whole pile and the clock runs again from then.
    rig.run_until(12.5)
    view = rig.view()
    assert view["pile"] == 2 and view["glare"] is False
    assert view["deadline"] == pytest.approx(15.0, abs=0.01)
    expect(controls).not_to_contain_text("A lamp's glare hides part of the pile")
    expect(screen.locator("body")).not_to_contain_text("No 3-second clock")

    # Cy's card at 13.5 s is in time; Ann then does not play: the clock penalises her.
    rig.run_until(18.0)
    assert [(p["why"], p["offender"]) for p in taken(rig)] == [("hesitation", 0)]
    expect(controls).to_contain_text("Ann hesitated")
    shot(host, "nasty7-glare-gone-host")
