"""A whole two-hand Illegal match at a real table, in Chromium at 390×844.

The host draws the camera zones on the camera page (play zone, discard pile, one zone in
front of each player) with visible controls only, and saves them. The camera's cards are
then fed to the table as ``TagSeen`` inputs carrying those saved zone names, one at a
time with an injected clock (deterministic: the real vision pipeline has its own tests
and benchmarks; here the zones, the engine's reading of them and the phones are tested).
Everything else is done by tapping labelled controls on the phones and the host page.

The scores are worked out by hand (see ``HAND_1`` and ``HAND_2``), and the final state
must equal the replay of the record the host downloads.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from playwright.sync_api import expect

from companion import games
from companion.config import WebConfig
from companion.inputs import TagSeen
from companion.records import replay_lines
from companion.store import MemoryStore
from companion.table import Table
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.web.conftest import start_game
from tests.web.test_host import FakeCamera as HostFakeCamera
from web import create_app

pytestmark = BROWSER

# Hand 1, worked by hand. Ann: open Weapons 50,000 + Tropical Fish 1,000 (her Merchandise
# went to the Raid); in hand Family Party (−25,000) and Politics (her highest business in
# hand, −10,000): 51,000 − 25,000 − 10,000 = 16,000. Ben: open Pimps 5,000; in hand
# Brokering (−3,000), two Alibis: 2,000.
HAND_1 = [16000, 2000]
# Hand 2: Ann: open Weapons 50,000; in hand Tropical Fish (−1,000) and no paranoia card:
# 49,000. Ben emptied his hand: nothing open, nothing in hand: 0.
HAND_2 = [49000, 0]
MATCH_TO = 50000  # Ann's 16,000 + 49,000 = 65,000 reaches it after the second hand


class FakeCamera(HostFakeCamera):
    """The host tests' camera, with a still picture of a green table to draw zones on."""

    def __init__(self) -> None:
        super().__init__()
        image = np.full((480, 640, 3), (40, 90, 40), np.uint8)  # green baize
        ok, jpeg = cv2.imencode(".jpg", image)
        assert ok
        self.jpeg = jpeg.tobytes()

    def live_jpeg(self) -> bytes | None:
        return self.jpeg


@dataclass
class Rig:
    url: str
    table: Table
    camera: FakeCamera
    state_dir: Path
    now: list[float]  # the table's clock: it moves only when a card is shown
    serials: Iterator[int]

    def tag(self, card: str, zone: str) -> None:
        """The camera sees ``card`` settle in the saved zone ``zone``, 5 seconds later."""
        assert zone in self.camera.zones, f"zone {zone} was not drawn: {self.camera.zones}"
        self.now[0] += 5.0
        seen = TagSeen(payload=f"tag-{card}", at=self.now[0], zone=zone, status="ok",
                       game="illegal", card=card, serial=next(self.serials))
        result = self.table.submit(seen).result(10)
        assert result.accepted, f"{card} in {zone}: {result.reason}"


@pytest.fixture
def now() -> list[float]:
    return [1000.0]


@pytest.fixture
def table(now: list[float]) -> Iterator[Table]:
    """The table, on a clock that moves only when the test shows a card."""
    t = Table(MemoryStore(), clock=lambda: now[0])
    t.start()
    yield t
    t.stop()


@pytest.fixture
def camera() -> FakeCamera:
    return FakeCamera()


@pytest.fixture
def app(table: Table, state_dir: Path, camera: FakeCamera) -> Flask:
    """The dashboard with a camera (``live_url`` serves it)."""
    return create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                      camera=camera, testing=True)


@pytest.fixture
def rig(live_url: str, table: Table, camera: FakeCamera, state_dir: Path,
        now: list[float]) -> Rig:
    return Rig(live_url, table, camera, state_dir, now, itertools.count(1))


ZONES = [  # what the host picks, and the corners tapped (fractions of the picture)
    ("Play zone (cards played)", [(0.35, 0.3), (0.65, 0.3), (0.65, 0.7), (0.35, 0.7)]),
    ("Discard pile", [(0.7, 0.35), (0.95, 0.35), (0.95, 0.65), (0.7, 0.65)]),
    ("In front of Ann", [(0.1, 0.75), (0.9, 0.75), (0.9, 0.98), (0.1, 0.98)]),
    ("In front of Ben", [(0.1, 0.02), (0.9, 0.02), (0.9, 0.25), (0.1, 0.25)]),
]


def draw_zones(host: Any, rig: Rig) -> None:
    host.goto(rig.url + "/host/camera")
    svg = host.locator("#zones")
    expect(svg).to_be_visible()
    for label, corners in ZONES:
        host.get_by_label("This zone is").select_option(label=label)
        box = svg.bounding_box()
        assert box is not None
        for x, y in corners:  # the click waits until nothing (a message) covers the spot
            svg.click(position={"x": x * box["width"], "y": y * box["height"]})
        host.get_by_role("button", name="Finish this zone").click()
        expect(host.locator("#zone-list")).to_contain_text(label)
    assert too_wide(host) == []
    shot(host, "illegal-camera-zones")
    host.get_by_role("button", name="Save zones").click()
    expect(host.locator("#answer")).to_have_text("Done.")
    assert sorted(rig.camera.zones) == ["discard", "play", "seat:0", "seat:1"]


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=f"Join as {name}").click()
    page.wait_for_url(re.compile(r"/seat/\d$"))
    page.wait_for_selector("#conn.live")


def tap(page: Any, button: str) -> None:
    """Tap a labelled button and wait for the table's answer (a refusal fails the test)."""
    page.evaluate("() => { const a = document.getElementById('answer');"
                  " a.hidden = true; a.textContent = ''; }")
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator("#answer")).to_have_text("Done.")


def hand_form(page: Any, form: Any, counts: dict[str, int]) -> None:
    for label, n in counts.items():
        form.get_by_label(label, exact=True).fill(str(n))


def test_a_whole_two_hand_match(rig: Rig, phone: Any) -> None:
    start_game(rig.table, ["Ann", "Ben"], game="illegal", options={"match_to": MATCH_TO})
    host = phone()
    links = join_links(host, rig.url, rig.state_dir)
    draw_zones(host, rig)
    host.goto(rig.url + "/host")
    ann, ben, tv = phone(), phone(), phone()
    join(ann, links[0], "Ann")
    join(ben, links[1], "Ben")
    tv.goto(rig.url + "/")
    tv.wait_for_selector("#conn.live")
    live = {p: p.locator("#live") for p in (ann, ben, tv)}
    hostlive = host.locator("#host-live")

    # --- hand 1 ---------------------------------------------------------------------
    rig.tag("market_open", "play")  # Ann
    rig.tag("market_open", "play")  # Ben
    # Ann trades unevenly: she gives Ben one card and gets two
    ann.get_by_label("With", exact=True).select_option(label="Ben (7 cards)")
    ann.get_by_label("Cards you give (at least one)", exact=True).fill("1")
    ann.get_by_label("Cards you get", exact=True).fill("2")
    tap(ann, "Trade")
    expect(ann.locator("#secret-title")).to_have_text("You: 8 cards in hand")
    shot(ann, "illegal-trade")
    rig.tag("weapons", "play")
    rig.tag("tropical_fish", "play")  # a legal business joins the illegal one: Ann's turn ends
    # Ben lays a playable Tropical Fish on the discard pile: a discard, not a play
    rig.tag("tropical_fish", "discard")
    expect(live[ben]).to_contain_text("Ben is discarding 1 × Tropical Fish")
    tap(ben, "End my turn")
    expect(live[tv]).to_contain_text("Ann's turn")
    assert rig.table.hub.latest().public["seats"][1]["businesses"] == []
    rig.tag("merchandise", "play")  # Ann; her turn stays open for a legal business
    rig.tag("raid", "seat:0")  # Ben lays a Raid on Ann's Market Open: his card, her zone
    rig.tag("tax_inspection", "seat:1")  # Ann's Tax Inspection on Ben; her turn ends
    expect(live[ann]).to_contain_text("The Raid takes one of your businesses: your choice")
    # Ben lays his hand open (the inspection), on his phone, with counts
    show = ben.locator("form[data-do=show]")
    hand_form(ben, show, {"Magnum": 1, "Bribe": 1, "Gambling (5 000 €)": 1,
                          "Pimps (5 000 €)": 1, "Brokering (3 000 €)": 1, "Alibi": 1})
    tap(ben, "Show my open hand")
    expect(live[tv]).to_contain_text("Open hand (Tax Inspection)")
    expect(live[tv]).to_contain_text("Magnum")
    assert too_wide(tv) == []
    shot(tv, "illegal-tax-inspection-open-hand")
    # Ben's Magnum, out of turn, while Ann's choice waits: the host is asked whose it is
    rig.tag("magnum", "play")
    expect(hostlive).to_contain_text("Whose Magnum?")
    shot(host, "illegal-host-whose-magnum")
    assert "Ann's" not in rig.table.hub.latest().public["log"][-1]
    tap(host, "Ben's Magnum")
    expect(live[ben]).to_contain_text("Choose what your Magnum does")
    ben.get_by_label("Remove the hassle of").select_option(label="Ben")
    shot(ben, "illegal-magnum-choice")
    tap(ben, "Complete the Magnum")
    expect(live[tv]).not_to_contain_text("Open hand (Tax Inspection)")
    seats = rig.table.hub.latest().public["seats"]
    assert [s["hand"] for s in seats] == [6, 5]  # Ben's hand lost the Magnum, not Ann's
    # the Raid's choice is still Ann's
    ann.get_by_label("The Raid takes one of your businesses: your choice").select_option(
        label="Merchandise (25 000 €)")
    shot(ann, "illegal-raid-choice")
    tap(ann, "Lose this business")
    expect(live[tv]).to_contain_text("Ben's turn")
    # Ben's Bribe: the card shown after it is its cost
    rig.tag("bribe", "play")
    expect(live[ben]).to_contain_text("Now show the business card your Bribe costs")
    shot(ben, "illegal-bribe-cost")
    rig.tag("gambling", "play")
    expect(tv.locator(".seats > li").first).not_to_contain_text("Raid")
    rig.tag("pimps", "play")  # the Bribe was not his card: Ben still plays one
    tap(ben, "End my turn")
    rig.tag("day_of_accounting", "play")  # Ann ends the hand
    expect(live[ann]).to_contain_text("Show your whole hand (6 cards)")
    reveal = ann.locator("form[data-do=reveal]")
    hand_form(ann, reveal, {"Politics (10 000 €)": 1, "Family Party (25 000 €)": 1,
                            "Informant": 1, "White Coat": 1, "Alibi": 1,
                            "Gambling (5 000 €)": 1})
    tap(ann, "Show my hand")
    for card in ("brokering", "alibi", "alibi"):  # Ben shows his in front of him
        rig.tag(card, "seat:1")
    expect(hostlive).to_contain_text("Deal the next hand")
    assert rig.table.hub.latest().public["accounting"]["scores"] == HAND_1
    shot(tv, "illegal-hand-1-scored")
    tap(host, "Deal the next hand")

    # --- hand 2: Ben starts (the dealer moved to Ann) ---------------------------------
    expect(live[tv]).to_contain_text("hand 2")
    rig.tag("alibi", "discard")
    for _ in range(3):
        rig.tag("merchandise", "discard")  # one card, then three identical ones
    expect(live[tv]).to_contain_text("Ann's turn")
    rig.tag("market_open", "play")  # Ann
    rig.tag("informant", "discard")  # Ben
    tap(ben, "End my turn")
    rig.tag("weapons", "play")  # Ann
    tap(ann, "End my turn")
    rig.tag("pimps", "discard")  # Ben: one card and three identical: his hand is empty
    for _ in range(3):
        rig.tag("market_open", "discard")
    expect(live[tv]).to_contain_text("Hand 2 is over: show your hands")
    # Ann shows her hand in the play zone: it is hers, not Ben's (he holds nothing)
    for card in ("tropical_fish", "alibi", "informant", "relatives", "white_coat", "raid",
                 "mister_zero"):
        rig.tag(card, "play")
    expect(live[ben]).to_contain_text("I hold no cards: reveal")
    shot(ben, "illegal-empty-hand")
    tap(ben, "I hold no cards: reveal")

    # --- the end of the match ---------------------------------------------------------
    expect(live[tv]).to_contain_text("Ann win(s) the match")
    snap = rig.table.hub.latest()
    assert snap.public["match"]["hands"] == [HAND_1, HAND_2]
    assert snap.public["match"]["totals"] == [HAND_1[0] + HAND_2[0], HAND_1[1] + HAND_2[1]]
    assert tv.locator("#live svg").count() >= 1  # the chart of the match
    for page in (ann, ben, tv, host):
        assert too_wide(page) == []
    shot(tv, "illegal-match-over")
    shot(ann, "illegal-seat-end")
    host.reload()
    shot(host, "illegal-host-end")
    record = host.request.get(f"{rig.url}/host/record/{snap.game_id}.jsonl")
    assert record.ok, record.status
    replayed = replay_lines(record.text().splitlines())
    engine = games.get("illegal")
    assert rig.table.session is not None
    assert replayed.state == engine.state_json(rig.table.session.state)
    assert replayed.outcome is not None and replayed.outcome["hands"] == [HAND_1, HAND_2]
