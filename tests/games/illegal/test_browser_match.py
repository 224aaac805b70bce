"""A whole two-hand Illegal match at a real table, in Chromium at 390×844.

The host draws the camera zones on the camera page (play zone, discard pile, one zone in
front of each player) with visible controls only, and saves them: the camera pipeline
starts with no zone and uses the saved ones. A synthetic camera (``tests.camera_rig``)
renders the demo deck's QR cards landing in those same zones; the real decoder, tracker
and zones read them and the table books them. Nothing depends on the machine's speed: one
fake clock drives the table and the camera, frames are released up to a scripted time and
decoded in lockstep. Everything else is done by tapping labelled controls on the phones
and the host page.

The scores are worked out by hand (see ``HAND_1`` and ``HAND_2``), and the final state
must equal the replay of the record the host downloads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from companion import games
from companion.demo import demo_payloads
from companion.records import replay_lines
from companion.session import Batch
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from vision.synthetic import CardPlay

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

Corners = list[tuple[float, float]]
#: what the host picks on the camera page, the corners tapped (fractions of the picture),
#: and the zone name it is saved as: the synthetic camera's zones are the same polygons
ZONES: list[tuple[str, str, Corners]] = [
    ("In front of Ann", "seat:0", [(0.01, 0.02), (0.24, 0.02), (0.24, 0.98), (0.01, 0.98)]),
    ("Play zone (cards played)", "play",
     [(0.26, 0.02), (0.5, 0.02), (0.5, 0.98), (0.26, 0.98)]),
    ("Discard pile", "discard", [(0.52, 0.02), (0.74, 0.02), (0.74, 0.98), (0.52, 0.98)]),
    ("In front of Ben", "seat:1", [(0.76, 0.02), (0.99, 0.02), (0.99, 0.98), (0.76, 0.98)]),
]
SLOT = 2.0  # seconds between two cards the camera sees; each leaves after ``SHOWN``
SHOWN = 0.8
#: every card the camera sees, in order: (card, zone)
CAMERA: list[tuple[str, str]] = [
    # hand 1
    ("market_open", "play"), ("market_open", "play"),  # Ann, Ben
    ("weapons", "play"), ("tropical_fish", "play"),  # Ann: illegal, then legal
    ("tropical_fish", "discard"),  # Ben discards a playable card
    ("merchandise", "play"), ("raid", "seat:0"), ("tax_inspection", "seat:1"),
    ("magnum", "play"),  # Ben's, out of turn
    ("bribe", "play"), ("gambling", "play"), ("pimps", "play"),  # Ben: Bribe, cost, play
    ("day_of_accounting", "play"),  # Ann ends the hand
    ("brokering", "seat:1"), ("alibi", "seat:1"), ("alibi", "seat:1"),  # Ben's reveal
    # hand 2
    ("alibi", "discard"), ("merchandise", "discard"), ("merchandise", "discard"),
    ("merchandise", "discard"),  # Ben: one card, then three identical
    ("market_open", "play"), ("informant", "discard"), ("weapons", "play"),
    ("pimps", "discard"), ("market_open", "discard"), ("market_open", "discard"),
    ("market_open", "discard"),  # Ben empties his hand
    ("tropical_fish", "play"), ("alibi", "play"), ("informant", "play"),  # Ann's reveal
    ("relatives", "play"), ("white_coat", "play"), ("raid", "play"), ("mister_zero", "play"),
]


def script() -> list[CardPlay]:
    """``CAMERA`` as the synthetic camera's script: one physical card (tag) each."""
    payloads, used = demo_payloads("illegal"), dict[str, int]()
    plays = []
    for i, (card, zone) in enumerate(CAMERA):
        n = used[card] = used.get(card, -1) + 1
        at = SLOT * (i + 1)
        plays.append(CardPlay(payloads[card][n], at=at, zone=zone, removed_at=at + SHOWN,
                              tag_px=110, angle=0.0))
    return plays


class Camera:
    """The test's hands on the synthetic table: the next scripted card lands and is booked."""

    def __init__(self, rig: Rig) -> None:
        self.rig, self.next = rig, 0

    def show(self, card: str, zone: str) -> dict[str, Any]:
        """The camera sees ``card`` land in ``zone`` (the next one in ``CAMERA``); the
        table books it as exactly one accepted action, which is returned."""
        assert CAMERA[self.next] == (card, zone), f"the script shows {CAMERA[self.next]}"
        before = self.batches()
        self.next += 1
        self.rig.run_until(SLOT * self.next + 0.5)
        snap = self.rig.table.hub.latest()
        assert snap.refusal is None, f"{card} in {zone}: {snap.refusal.reason}"
        booked = self.batches()[len(before):]
        assert len(booked) == 1, f"{card} in {zone} was booked {len(booked)} times"
        return booked[0].action.to_json()

    def batches(self) -> Sequence[Batch]:
        session = self.rig.table.session
        assert session is not None
        return session.batches


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    zones = {name: corners for _, name, corners in ZONES}
    with camera_rig(state_dir, "illegal", ["Ann", "Ben"], {"match_to": MATCH_TO}, script(),
                    zones, known_zones={}) as r:
        r.run_until(0.0)  # the first picture, to draw the zones on
        yield r


def draw_zones(host: Any, rig: Rig) -> None:
    host.goto(rig.url + "/host/camera")
    svg = host.locator("#zones")
    expect(svg).to_be_visible()
    for label, _, corners in ZONES:
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
    saved = rig.pipeline.zones.polygons  # what the camera now reads cards against
    assert sorted(saved) == ["discard", "play", "seat:0", "seat:1"]
    for _, name, corners in ZONES:
        flat = [c for point in saved[name] for c in point]
        assert flat == pytest.approx([c for point in corners for c in point], abs=0.01), name


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=f"Join as {name}").click()
    page.wait_for_url(re.compile(r"/seat/\d$"))
    page.wait_for_selector("#conn.live")


def tap(rig: Rig, page: Any, *buttons: str) -> None:
    """Tap ``buttons`` in turn on the page's "your move" card; the last one's action is
    accepted (a refusal fails the test) and the page has drawn the table's answer."""
    box = "#host-live" if urlsplit(page.url).path == "/host" else "#live"
    card = page.locator(f"{box} .yourmove")
    for name in buttons[:-1]:
        card.get_by_role("button", name=name, exact=True).click()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        card.get_by_role("button", name=buttons[-1], exact=True).click()
    body = answer.value.json()
    assert body["accepted"], (buttons, body)
    seq = rig.table.hub.latest().seq  # the snapshot that shows it (or a later one)
    page.wait_for_function("([box, seq]) => Number(document.querySelector(box).dataset.seen) >= seq",
                           arg=[box, seq])


def lay_open(rig: Rig, page: Any, cards: list[str]) -> None:
    """A hand laid open (or revealed) on the card, one card at a time: "Lay a card of your
    hand open" (or "Reveal one card at a time"), then the card; the question is open at once when it
    is the only thing to do."""
    card = page.locator("#live .yourmove")
    opener = card.get_by_role("button", name=re.compile(
        r"^(Lay a card of your hand open|Reveal one card at a time)"))
    for name in cards:
        choice = card.get_by_role("button", name=name, exact=True)
        expect(choice.or_(opener).first).to_be_visible()
        if choice.count() == 0:
            opener.click()
        tap(rig, page, name)


def alerted(page: Any, on: bool) -> None:
    """Whether the phone shows (and buzzes for) "you must act now" (``attention``)."""
    turn = expect(page.locator("body"))
    if on:
        turn.to_have_class(re.compile(r"\bmy-turn\b"))
    else:
        turn.not_to_have_class(re.compile(r"\bmy-turn\b"))


def test_a_whole_two_hand_match(rig: Rig, phone: Any, state_dir: Path) -> None:
    cam = Camera(rig)
    host = phone()
    links = join_links(host, rig.url, state_dir)
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
    cam.show("market_open", "play")  # Ann
    host.goto(rig.url + "/host/camera")  # the host sees the card read in the play zone
    assert rig.pipeline.tracker.visible() == {script()[0].payload: "play"}
    host.wait_for_function("() => document.getElementById('live-img').naturalWidth > 0")
    shot(host, "illegal-camera-card-in-play")
    host.goto(rig.url + "/host")
    cam.show("market_open", "play")  # Ben
    # Ann trades unevenly: she gives Ben one card and gets two
    tap(rig, ann, "Trade…", "Give Ben 1 card", "2")
    expect(ann.locator("#secret-title")).to_have_text("You: 8 cards in hand")
    shot(ann, "illegal-trade")
    cam.show("weapons", "play")
    cam.show("tropical_fish", "play")  # a legal business joins the illegal one: Ann's turn ends
    # Ben lays a playable Tropical Fish on the discard pile: a discard, not a play
    act = cam.show("tropical_fish", "discard")
    assert (act["do"], act["seat"], act["card"]) == ("discard_card", 1, "tropical_fish")
    expect(live[ben]).to_contain_text("Ben is discarding 1 × Tropical Fish")
    tap(rig, ben, "End your turn")
    expect(live[tv]).to_contain_text("Ann's turn")
    assert rig.table.hub.latest().public["seats"][1]["businesses"] == []
    cam.show("merchandise", "play")  # Ann; her turn stays open for a legal business
    act = cam.show("raid", "seat:0")  # Ben lays a Raid on Ann's Market Open: his card,
    assert (act["seat"], act["card"], act["target"]) == (1, "raid", 0)  # in her zone
    cam.show("tax_inspection", "seat:1")  # Ann's Tax Inspection on Ben; her turn ends
    expect(live[ann]).to_contain_text("Choose the business you lose")
    alerted(ann, True)  # her choice
    alerted(ben, True)  # his hand to lay open
    # Ben lays his hand open (the inspection), on his phone, with counts
    lay_open(rig, ben, ["Magnum", "Bribe", "Gambling (5\u202f000\u00a0€)", "Pimps (5\u202f000\u00a0€)",
                   "Brokering (3\u202f000\u00a0€)", "Alibi"])
    alerted(ben, False)  # Ann's choice holds the table
    expect(live[tv]).to_contain_text("Open hand (Tax Inspection)")
    expect(live[tv]).to_contain_text("Magnum")
    assert too_wide(tv) == []
    shot(tv, "illegal-tax-inspection-open-hand")
    # Ben's Magnum, out of turn, while Ann's choice waits: the host is asked whose it is
    assert cam.show("magnum", "play")["do"] == "magnum_shown"
    expect(hostlive).to_contain_text("Whose Magnum?")
    shot(host, "illegal-host-whose-magnum")
    assert "Ann's" not in rig.table.hub.latest().public["log"][-1]
    tap(rig, ben, "It is my Magnum")
    expect(live[ben]).to_contain_text("Complete Magnum")
    shot(ben, "illegal-magnum-choice")
    tap(rig, ben, "Complete Magnum", "Ben")
    expect(live[tv]).not_to_contain_text("Open hand (Tax Inspection)")
    seats = rig.table.hub.latest().public["seats"]
    assert [s["hand"] for s in seats] == [6, 5]  # Ben's hand lost the Magnum, not Ann's
    # the Raid's choice is still Ann's
    shot(ann, "illegal-raid-choice")
    tap(rig, ann, "Merchandise (25\u202f000\u00a0€)")
    expect(live[tv]).to_contain_text("Ben's turn")
    # Ben's Bribe: the card shown after it is its cost
    cam.show("bribe", "play")
    expect(live[ben]).to_contain_text("Ben shows a Bribe: next, the business card it costs.")
    shot(ben, "illegal-bribe-cost")
    act = cam.show("gambling", "play")
    assert (act["seat"], act["card"], act["discard"]) == (1, "bribe", "gambling")
    expect(tv.locator(".seats > li").first).not_to_contain_text("Raid")
    cam.show("pimps", "play")  # the Bribe was not his card: Ben still plays one
    tap(rig, ben, "End your turn")
    cam.show("day_of_accounting", "play")  # Ann ends the hand
    expect(live[ann]).to_contain_text("Reveal one card at a time (6 to go)")
    lay_open(rig, ann, ["Politics (10\u202f000\u00a0€)", "Family Party (25\u202f000\u00a0€)", "Informant",
                   "White Coat", "Alibi", "Gambling (5\u202f000\u00a0€)"])
    for card in ("brokering", "alibi", "alibi"):  # Ben shows his in front of him
        cam.show(card, "seat:1")
    expect(hostlive).to_contain_text("Deal the next hand")
    assert rig.table.hub.latest().public["accounting"]["scores"] == HAND_1
    shot(tv, "illegal-hand-1-scored")
    tap(rig, host, "Deal the next hand")

    # --- hand 2: Ben starts (the dealer moved to Ann) ---------------------------------
    expect(live[tv]).to_contain_text("hand 2")
    cam.show("alibi", "discard")
    for _ in range(3):
        cam.show("merchandise", "discard")  # one card, then three identical ones
    expect(live[tv]).to_contain_text("Ann's turn")
    cam.show("market_open", "play")  # Ann
    cam.show("informant", "discard")  # Ben
    tap(rig, ben, "End your turn")
    cam.show("weapons", "play")  # Ann
    tap(rig, ann, "End your turn")
    cam.show("pimps", "discard")  # Ben: one card and three identical: his hand is empty
    for _ in range(3):
        cam.show("market_open", "discard")
    expect(live[tv]).to_contain_text("Hand 2 is over: every player shows their hand")
    # Ann shows her hand in the play zone: it is hers, not Ben's (he holds nothing)
    for card in ("tropical_fish", "alibi", "informant", "relatives", "white_coat", "raid",
                 "mister_zero"):
        cam.show(card, "play")
    expect(live[ben]).to_contain_text("Reveal your empty hand")
    assert rig.table.session is not None
    assert rig.table.session.state.seats[0].revealed is not None
    assert len(rig.table.session.state.seats[0].revealed) == 7  # all seven booked to Ann
    alerted(ann, False)
    alerted(ben, True)
    shot(ben, "illegal-empty-hand")
    tap(rig, ben, "Reveal your empty hand")

    # --- the end of the match ---------------------------------------------------------
    expect(live[tv]).to_contain_text("Ann wins the match")
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
