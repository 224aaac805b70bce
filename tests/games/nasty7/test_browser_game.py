"""A whole game of The Nasty 7 at a real table, in Chromium at 390×844.

The real pipeline: a synthetic camera renders the deck's QR cards landing on the pile,
the real decoder and tracker read them, the table loop books them; a seat's button is a
gpiozero mock pin through ``hardware.attach``; the host and Ann use phones and tap only
visible, labelled buttons. The game has a misread card corrected, a skipped player's card
reassigned (the skipped player takes the pile), an upheld and a false accusation, a
hesitation penalty whose clip the host opens and plays, and the end; the record the host
downloads replays to the same state. The table is a real one: a hand rests on the pile
for 2.5 s (its top card is no play and no refusal), a card lands off-centre, a lamp's glare
spot sits over the edge of the pile all game (the players chose to keep the 3-second clock
running all the same: ``glare_timing`` "clock"), and a card landing beside the pile is put
to the host, who counts it; the only penalty for hesitating is the real one.

Nothing depends on the machine's speed: one fake clock drives the table, the camera's
frame times and the buttons; frames are released up to a scripted time and decoded in
lockstep, and the test waits for the table to have handled them before it moves on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.config import GpioConfig, SignalsConfig
from companion.demo import demo_payloads
from companion.records import replay_path
from companion.table import Table
from hardware import attach
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.camera_rig import Clock, camera_rig
from tests.hardware import conftest as gpio
from tests.wait import SAFETY
from tests.web import taps
from vision.synthetic import CardPlay, Patch
from web.clips import CLIPS

pytestmark = BROWSER
mock_factory = gpio.mock_factory  # gpiozero's mock pins (the hardware tests' fixture)
expect.set_options(timeout=int(SAFETY * 1000))  # a safety net: nothing waits for a time

FPS = 10.0
PILE = [(0.35, 0.3), (0.65, 0.3), (0.65, 0.7), (0.35, 0.7)]
GPIO = GpioConfig(seat_buttons=[5, 6, 13], seat_leds=[12, 25, 24], confirm_button=17,
                  undo_button=27, next_button=22, buzzer=9, bounce_s=0.01, hold_s=10.0)


def script(payloads: dict[str, list[str]]) -> list[CardPlay]:
    """The cards as they land: (time, tag kind); each round's cards leave the table."""
    used: dict[str, int] = {}

    def card(kind: str, at: float, removed: float) -> CardPlay:
        i = used.get(kind, 0)
        used[kind] = i + 1
        if kind == "missed":  # lands beside the pile: the camera asks the host
            return CardPlay(payloads["racketeer"][40], at=at, position=(0.12, 0.8),
                            removed_at=removed, tag_px=110, angle=0.0)
        if kind == "gun":  # lands off-centre, still on the pile
            return CardPlay(payloads[kind][i], at=at, position=(0.58, 0.55), removed_at=removed,
                            tag_px=110, angle=0.0)
        return CardPlay(payloads[kind][i], at=at, zone="pile", removed_at=removed,
                        tag_px=110, angle=0.0)

    rounds = [
        # round 1: Ann, Ben, Cy (its tag says Racketeer: the card is a Mobile phone),
        # Ann's twin makes Ben skip, Ben plays anyway (booked to Cy)
        ([("racketeer", 1.0), ("racketeer", 2.0), ("racketeer", 3.0),
          ("twin_racketeer", 4.0), ("racketeer", 5.0)], 6.3),
        # round 2: Ben, Cy; Ann accuses Cy of a wrong count: upheld
        ([("racketeer", 7.0), ("racketeer", 8.0)], 9.3),
        # round 3: Cy, Ann; Ben's button accuses Ann: not upheld
        ([("racketeer", 10.0), ("racketeer", 11.0)], 12.3),
        # round 4: Ben; a hand rests on the pile 13.3-15.8; Cy hesitates (penalty at
        # 16.0), the card comes at 17.0
        ([("racketeer", 13.0)], 16.6),
        # round 5: Cy, Ann (off-centre), Ben (beside the pile: the host counts it), Cy,
        # Ann (her last card), Ben's card ends the game
        ([("racketeer", 17.0), ("gun", 18.0), ("missed", 19.0), ("phone", 20.0),
          ("racketeer", 21.0), ("racketeer", 22.0)], 30.0),
    ]
    return [card(kind, at, removed) for cards, removed in rounds for kind, at in cards]


#: a hand resting on the pile longer than a card's leave time, and a lamp's glare spot
#: over the pile's edge for the whole game
PATCHES = [Patch("hand", 13.3, 15.8, (0.5, 0.5), 0.09),
           Patch("glare", 0.0, 40.0, (0.66, 0.32), 0.05)]


@pytest.fixture
def rig(state_dir: Path, mock_factory: Any) -> Iterator[dict[str, Any]]:
    from companion.commands.serve import start_clips

    extra: dict[str, Any] = {}

    def attach_parts(table: Table, clock: Clock, parts: list[Any]) -> Any:
        recorder = start_clips(table, state_dir, parts)  # as companion serve wires it
        (extra["keeper"],) = parts
        extra["box"] = attach(table, GPIO, SignalsConfig(), pin_factory=mock_factory,
                              clock=clock)
        parts.append(extra["box"])
        return recorder.on_frame

    # the glare over the pile's edge would stop the 3-second clock (the camera could miss
    # a card landing there: ``glare_timing`` "host_rules", tests/web/
    # test_nasty7_glare_browser.py); these players keep the clock running (the option)
    with camera_rig(state_dir, "nasty7", ["Ann", "Ben", "Cy"],
                    {"deck_size": 15, "glare_timing": "clock"},
                    script(demo_payloads("nasty7")), {"pile": PILE}, fps=FPS,
                    before_app=attach_parts, patches=PATCHES) as r:
        r.flushes.append(extra["keeper"].flush)
        yield {"table": r.table, "clock": r.clock, "camera": r.camera, "rig": r,
               "keeper": extra["keeper"], "box": extra["box"], "url": r.url,
               "pipeline": r.pipeline}


def settle(rig: dict[str, Any]) -> None:
    """Every queued input handled, every clip written."""
    rig["rig"].settle()


def run_until(rig: dict[str, Any], t: float) -> None:
    """Camera frames up to game time ``t`` decoded and booked; deadlines delivered."""
    rig["rig"].run_until(t)


def press(factory: Any, pin: int) -> None:
    """A human press of a seat button (contacts chatter a little)."""
    p = factory.pin(pin)
    for _ in range(3):
        p.drive_low()
        p.drive_high()
    p.drive_low()  # pressed: a seat button reports now, on the rig's clock
    p.drive_high()


def view(rig: dict[str, Any]) -> Any:
    return rig["table"].hub.latest().public


def test_a_whole_game_at_the_table(rig: dict[str, Any], phone: Any, state_dir: Path,
                                   mock_factory: Any, tmp_path: Path) -> None:
    url, table = rig["url"], rig["table"]
    host = phone()
    links = join_links(host, url, state_dir)
    ann = phone()
    ann.goto(links[0])
    ann.get_by_role("button", name="Join as Ann").click()
    ann.wait_for_url(re.compile(r"/seat/0$"))
    ann.wait_for_selector("#conn.live")
    expect(ann.locator("#live .yourmove")).to_contain_text(
        "No card is on the pile: there is nothing to accuse anyone of yet.")
    host.goto(url + "/host")
    host.wait_for_selector("#conn.live")
    controls = host.locator("#host-live")
    card = controls.locator(".yourmove")  # the host's "your move" card

    # Round 1: the third card's tag says Racketeer, but it is a Mobile phone.
    run_until(rig, 3.5)
    assert view(rig)["top"] == "racketeer" and view(rig)["last_player"] == 2
    expect(controls).to_contain_text("Racketeer, booked to Cy")
    shot(host, "nasty7-host-last-card")
    assert too_wide(host) == []
    card.get_by_role("button", name="Correct…").click()
    card.get_by_role("button", name="The last card was really").click()
    card.get_by_role("button", name="Mobile phone", exact=True).click()
    expect(controls).to_contain_text("Mobile phone, booked to Cy")
    assert table.session is not None and table.session.state.figures == 3

    # Ann's twin makes Ben skip; Ben plays anyway and the camera books it to Cy.
    run_until(rig, 5.5)
    assert view(rig)["last_player"] == 2 and view(rig)["pile"] == 5
    card.get_by_role("button", name="Correct…").click()
    card.get_by_role("button", name="The last card was played by").click()
    card.get_by_role("button", name="Ben", exact=True).click()
    expect(controls).to_contain_text("Ben played instead of skipping")
    assert [r["cards"] for r in view(rig)["seats"]] == [3, 8, 4]
    shot(host, "nasty7-host-reassigned")

    # Round 2: Ann accuses Cy of a wrong count from her phone; the host upholds it.
    run_until(rig, 8.5)
    mine = ann.locator("#live .yourmove")
    expect(mine.get_by_role("button", name="Accuse Cy of a mistake")).to_be_visible()
    shot(ann, "nasty7-seat-accuse")
    assert too_wide(ann) == []
    mine.get_by_role("button", name="Accuse Cy of a mistake").click()
    mine.get_by_role("button", name="Wrong count").click()
    phone_taps = 2  # the only taps on a phone all game: the rest is the camera's
    expect(controls).to_contain_text("Ann accuses Cy of a wrong count")
    expect(controls).to_contain_text("Recount: the count was 2")
    expect(mine).to_contain_text("Ann already accused Cy: the host must now rule.")
    shot(host, "nasty7-host-ruling")
    card.get_by_role("button", name="Upheld: Cy takes the pile").click()
    expect(controls).to_contain_text("The accusation against Cy was upheld")
    expect(ann.locator(".clip-link")).to_contain_text("upheld")
    assert too_wide(ann) == []  # the accusation's line wraps on a phone
    shot(ann, "nasty7-seat-upheld")
    assert [r["cards"] for r in view(rig)["seats"]] == [3, 7, 5]

    # Round 3: Ben's seat button accuses Ann; the host rules it false.
    run_until(rig, 11.5)
    press(mock_factory, 6)
    expect(controls).to_contain_text("Ben accuses Ann")
    card.get_by_role("button", name="Not upheld: the accusers take the pile").click()
    expect(controls).to_contain_text("The accusation against Ann was not upheld")
    assert [r["cards"] for r in view(rig)["seats"]] == [2, 9, 4]

    # Round 4: a hand rests on Ben's card (13.0) for 2.5 s: no play, no refusal.
    run_until(rig, 15.9)
    assert view(rig)["pile"] == 1 and table.hub.latest().refusal is None
    shot(host, "nasty7-host-hand-resting")
    # Cy hesitates after Ben's card: at 16.0 the clock gives Cy the pile.
    run_until(rig, 16.5)
    assert view(rig)["dispute"]["kind"] == "hesitation"
    expect(controls).to_contain_text("Cy: no card within 3 s")
    shot(host, "nasty7-host-hesitation")
    expect(ann.locator(".clip-link")).to_contain_text("Cy: no card within 3 s — watch")
    assert too_wide(ann) == []  # the dispute's line wraps on a phone
    shot(ann, "nasty7-seat-dispute")
    controls.get_by_role("link", name="Watch the clip").click()
    host.wait_for_selector("#clip[data-ready='1']")
    expect(host.locator("#clip-what")).to_have_text("Cy: no card within 3 s")
    expect(host.locator("#clip-clock")).to_have_text("0.0 s of 3 s")
    host.get_by_role("button", name="Frame ▶").click()
    expect(host.locator("#clip-clock")).to_have_text("0.1 s of 3 s")
    host.get_by_role("button", name="Play").click()
    # the clip runs from Ben's card (booked at the frame that read it) to the penalty
    dispute = view(rig)["dispute"]
    assert 12.7 <= dispute["start"] <= 13.1 and dispute["end"] == dispute["start"] + 3.000001
    expect(host.locator("#clip-pos")).to_have_text("Frame 31 of 31")
    expect(host.locator("#clip-clock")).to_have_text("3.0 s of 3 s")
    shot(host, "nasty7-clip")
    assert too_wide(host) == []
    assert table.info is not None
    meta = json.loads((state_dir / CLIPS / table.info.game_id / "3" / "meta.json").read_text())
    assert meta["frames"][0]["t"] == dispute["start"]
    assert meta["frames"][-1]["t"] == round(dispute["start"] + 3.0, 3)
    host.goto(url + "/host")
    host.wait_for_selector("#conn.live")
    controls = host.locator("#host-live")
    card = controls.locator(".yourmove")

    # Round 5: Ann's gun lands off-centre; Ben's card lands beside the pile: the host is
    # asked (Ben's clock waits for the answer) and counts it.
    run_until(rig, 19.6)
    assert view(rig)["last_player"] == 0 and view(rig)["turn"] == 1
    assert view(rig)["top"] == "gun" and view(rig)["deadline"] is None
    expect(controls).to_contain_text("Ben's card (Racketeer) was seen beside the pile: count it?")
    shot(host, "nasty7-host-seen-beside")
    assert too_wide(host) == []
    card.get_by_role("button", name="Count it: Ben played a Racketeer").click()
    expect(controls).to_contain_text("Racketeer, booked to Ben")
    assert view(rig)["turn"] == 2 and view(rig)["deadline"] == 22.600001  # Cy's clock: now

    # To the end: Ann plays her last card, Ben's next card ends the game.
    run_until(rig, 23.0)
    outcome = table.hub.latest().outcome
    assert outcome is not None and outcome["winner"] == 0
    expect(ann.locator("#live")).to_contain_text("Ann wins!")
    shot(ann, "nasty7-seat-over")

    # Taps per turn on the phones: a turn is a card on the pile; Ann's accusation came
    # in Cy's turn (round 2); every other turn took no tap at all.
    assert table.session is not None
    cards = [b for b in table.session.batches if b.action.do in ("play", "missed_card")]
    turns = [(f"card {i + 1}", 0, True) for i in range(len(cards))]
    turns.append(("Ann accuses Cy of a wrong count", phone_taps, False))
    assert len(cards) >= 15 and taps.record("nasty7", turns) == 0

    # The record the host downloads replays to the same state.
    host.reload()
    with host.expect_download() as download:
        host.get_by_role("link", name=re.compile("this game")).click()
    path = tmp_path / "game.jsonl"
    download.value.save_as(path)
    replay = replay_path(path)
    assert table.session is not None
    assert replay.state == json.loads(json.dumps(table.session.engine.state_json(
        table.session.state)))
    assert replay.outcome == outcome
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:] if x.strip()]
    done = [x["do"] for x in lines]
    assert {"replace_card", "reassign", "accuse", "rule", "count_seen"} <= set(done)
    taken = [e.payload for e in table.store.events(table.info.game_id) if e.type == "PileTaken"]
    assert [p["why"] for p in taken].count("hesitation") == 1  # Cy's real one, no other
