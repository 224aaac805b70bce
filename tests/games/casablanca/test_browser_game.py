"""A whole Casablanca game at the table: three phones at 390×844, the host, the TV, the camera.

The real camera path: a synthetic camera renders the board (its spaces are the camera's
zones) with the tagged agent stands and the suitcase; a stand moving is one ``CardPlay``
removed on one space and a new one with the same tag landing on the next. The real
decoder, tracker and zones read the frames and the table loop books them. Nothing
depends on the machine's speed: one fake clock drives the table and the camera's frame
times; frames are released up to a scripted time and decoded in lockstep
(``tests/camera_rig.py``). Players use only visible, labelled controls. The game has a
protest lost and one won, a concession, an elimination, a stand put on a
non-neighbouring space (refused), and the suitcase carried home by the camera alone.
After every step each phone is checked for other seats' amounts; at the end the state
equals the replay of the exported record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_payloads
from companion.records import export_lines, replay_lines
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from tests.games.casablanca.helpers import board_zones, stand
from vision.synthetic import CardPlay

pytestmark = BROWSER

SEATS = ["Ann", "Ben", "Cy"]
WAIT = 10_000  # ms: a safety net for the live stream, not a speed limit
#: seconds a stand must stand still to count, and the protest window (game options)
OPTIONS = {"settle_s": 2, "protest_s": 5}
#: where on a space each tag stands (off the space's centre), so none covers another
SPOT = {"red": (0.065, 0.0), "blue": (0.065, 0.0), "white_hotel": (0.0, 0.0),
        "suitcase": (-0.065, 0.0)}


#: when the board is cleared, after the game (the camera's feed ends 2 s later)
CLEARED = 55.0


def script() -> list[CardPlay]:
    """The stands and the suitcase as hands move them: each tag's spaces, with times.

    ``(space, lands, lifted)``: the tag lands on ``space`` at ``lands`` and is lifted at
    ``lifted`` (``CLEARED``: the board is cleared after the game; the feed ends then).
    Landings keep clear of the test's steps
    (``run_until``), so every sighting is booked inside the step it belongs to.
    """
    tags = demo_payloads("casablanca")
    moves: dict[str, list[tuple[str, float, float]]] = {
        # Ann's turn: Red from the Airport to the Gate (Ben protests and loses);
        # later Ann announces Red to the Basar on her phone and moves the stand there;
        # Red is eliminated there and its stand taken off the board
        "red": [("Airport", 0.2, 3.5), ("Gate", 4.0, 21.8), ("Basar", 22.3, 25.3)],
        # Cy's turn: Blue put on the Basar (not next to the Hotel: refused), put back,
        # then to the Kasbah; later to the Basar, then with the suitcase to the Kasbah
        # (over the Market for a moment) and home to the Hotel
        "blue": [("Hotel", 0.2, 7.0), ("Basar", 7.6, 10.3), ("Hotel", 10.8, 13.3),
                 ("Kasbah", 13.8, 25.3), ("Basar", 25.8, 33.8), ("Kasbah", 35.0, 43.2),
                 ("Hotel", 43.7, CLEARED)],
        # lifted for a moment and put back: a hand passing over the Hotel
        "white_hotel": [("Hotel", 0.2, 7.0), ("Hotel", 7.5, CLEARED)],
        "suitcase": [("Basar", 0.2, 33.8), ("Kasbah", 35.2, 43.2), ("Hotel", 43.9, CLEARED)],
    }
    plays = [stand(tags[tag][0], at, space, *SPOT[tag], removed_at=lifted)
             for tag, steps in moves.items() for space, at, lifted in steps]
    # Blue carried over the Market on its way to the Kasbah: seen there for a moment
    plays.append(stand(tags["blue"][0], 34.3, "Market", *SPOT["blue"], removed_at=34.6,
                       slide_s=0.1))
    return plays


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    with camera_rig(state_dir, "casablanca", SEATS, OPTIONS, script(), board_zones(),
                    fps=10.0) as r:
        yield r


class Game:
    """The table with its camera, and the pages of the three phones, the host and the TV."""

    def __init__(self, rig: Rig, phones: list[Any], host: Any, tv: Any) -> None:
        self.rig, self.table = rig, rig.table
        self.phones, self.host, self.tv = phones, host, tv

    def until(self, t: float) -> None:
        """The camera's frames up to game time ``t`` booked; the clock shows ``t``."""
        self.rig.run_until(t)

    # --- the pages ---------------------------------------------------------------------

    def expect(self, page: Any, text: str) -> None:
        from playwright.sync_api import expect

        box = "#host-live" if page is self.host else "#live"
        expect(page.locator(box)).to_contain_text(text, timeout=WAIT)

    def everywhere(self, text: str) -> None:
        for page in [*self.phones, self.tv]:
            self.expect(page, text)

    def alerted(self, *wanted: bool) -> None:
        """Which phones have the turn alert on (the seat view's ``attention``)."""
        from playwright.sync_api import expect

        for page, on in zip(self.phones, wanted, strict=True):
            mine = expect(page.locator("body"))
            turn = re.compile(r"\bmy-turn\b")
            if on:
                mine.to_have_class(turn, timeout=WAIT)
            else:
                mine.not_to_have_class(turn, timeout=WAIT)

    def private(self) -> None:
        """No phone shows an amount only another seat may know (checked at every step)."""
        session = self.table.session
        assert session is not None
        state = session.state
        if state.winners is not None:
            return
        public = numbers(session.engine.public_view(state))
        for seat, page in enumerate(self.phones):
            html = page.locator("#live").inner_html()
            mine = secrets(state, seat)
            for other in range(len(SEATS)):
                if other == seat:
                    continue
                for amount in secrets(state, other) - mine - public:
                    assert f"{amount:,}" not in html, (SEATS[seat], SEATS[other], amount)
            words = re.sub(r"<[^>]+>", " ", html)
            for word in ("white_hotel", "ricks_cafe", "white_police", "seat 0", "null"):
                assert word not in words, (SEATS[seat], word)

    def fits(self, name: str) -> None:
        for i, page in enumerate(self.phones):
            assert too_wide(page) == [], (SEATS[i], too_wide(page))
        shot(self.phones[0], f"casablanca-{name}-ann")

    def tap(self, page: Any, name: str) -> None:
        """Tap ``name`` on the page's "your move" card: the action it completes is accepted."""
        from playwright.sync_api import expect

        card = page.locator("#host-live .yourmove" if page is self.host else "#live .yourmove")
        button = card.get_by_role("button", name=name, exact=True)
        expect(button).to_be_enabled(timeout=WAIT)
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        body = answer.value.json()
        assert body["accepted"], (name, body)

    def offers(self, page: Any, name: str) -> None:
        """The page's card offers ``name`` (enabled)."""
        from playwright.sync_api import expect

        card = page.locator("#host-live .yourmove" if page is self.host else "#live .yourmove")
        expect(card.get_by_role("button", name=name, exact=True)).to_be_enabled(timeout=WAIT)

    def card(self, seat: int) -> Any:
        return self.phones[seat].locator("#live .yourmove")

    def bribe(self, seat: int, amounts: dict[str, int], left: str) -> None:
        from playwright.sync_api import expect

        card = self.card(seat)
        card.get_by_role("button", name="Bribe agents", exact=True).click()
        for agent, amount in amounts.items():
            card.get_by_label(f"Agent {agent}", exact=True).fill(str(amount))
        total = sum(amounts.values())
        expect(card).to_contain_text(f"Together {total:,} of ")  # the sum, shown live
        self.tap(self.phones[seat], "Bribe agents")
        self.expect_left(seat, left)

    def expect_left(self, seat: int, left: str) -> None:
        from playwright.sync_api import expect

        expect(self.phones[seat].locator("#casa-left")).to_have_text(left, timeout=WAIT)

    def move(self, seat: int, agent: str, to: str, suitcase: bool = False) -> None:
        """Agent, then space, then (where the suitcase is) with it or not: on the card.
        A part with one choice is not asked (the card's moves say which are)."""
        from playwright.sync_api import expect

        page, card = self.phones[seat], self.card(seat)
        name = f"Agent {agent.capitalize()}"
        expect(card.get_by_role("button", name=name, exact=True)).to_be_enabled(timeout=WAIT)
        moves = json.loads(card.get_attribute("data-moves") or "[]")
        (m,) = [m for m in moves if m["do"] == "move" and m["fixed"].get("agent") == agent]
        steps = [name] + [to if p["name"] == "to" else
                          ("Yes, with the suitcase" if suitcase else "No, without it")
                          for p in m["params"] if len(p.get("choices", [])) != 1]
        for step in steps[:-1]:
            card.get_by_role("button", name=step, exact=True).click()
        self.tap(page, steps[-1])


def numbers(view: Any) -> set[int]:
    return {int(m.replace(",", "")) for m in re.findall(r"\d[\d,]*", json.dumps(view))}


def secrets(state: Any, seat: int) -> set[int]:
    return {a for a in state.bribes[seat] if a} | {state.left[seat]}


def test_a_whole_game_with_camera_phones_host_and_tv(
    rig: Rig, phone: Any, tv: Any, state_dir: Path
) -> None:
    url, table = rig.url, rig.table
    host = phone()
    links = join_links(host, url, state_dir)
    phones = []
    for link, name in zip(links, SEATS, strict=True):
        page = phone()
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector("#conn.live")
        phones.append(page)
    screen = tv()
    screen.goto(url + "/")
    screen.wait_for_selector("#conn.live")
    host.goto(url + "/host")
    g = Game(rig, phones, host, screen)
    ann, ben, cy = phones
    g.until(3.0)  # the camera sees every stand on its homebase, the suitcase on the Basar
    assert rig.view()["camera_note"] is None
    g.private()
    g.alerted(True, False, False)  # Ann's turn
    g.fits("start")

    # everyone bribes; the sheet shows what is left as the amounts are typed
    g.bribe(0, {"Red": 3700, "Green": 1300}, "$5,000")
    g.everywhere("Ben's turn")
    g.private()
    g.bribe(1, {"Red": 2900, "Green": 2400}, "$4,700")
    g.everywhere("Cy's turn")
    g.private()
    g.bribe(2, {"Blue": 4400}, "$5,600")
    g.everywhere("Ann's turn")
    g.private()
    g.fits("bribed")

    # Ann's turn, by the camera: Red's stand from the Airport to the Gate (lands at 4.0,
    # still for 2 s: announced at 6.0)
    g.until(5.5)
    assert rig.view()["pending"] is None  # not settled yet: nothing announced
    g.until(6.5)
    g.offers(ben, "Protest against Agent Red")
    g.expect(ben, "Agent Red moves to Gate")
    g.alerted(False, True, False)  # Ben may protest (and plays next); Cy bribed nothing on Red
    g.private()
    shot(ben, "casablanca-protest-ask-ben")
    g.tap(ben, "Protest against Agent Red")
    g.expect(ann, "Ben protests")
    g.offers(ann, "Concede (cancel my action)")
    g.private()
    shot(ann, "casablanca-settle-ann")
    g.tap(ann, "Compare our bribes")
    g.tap(ben, "Compare our bribes")
    g.everywhere("not upheld")  # a protest lost: Ben's bribe on Red is lower
    g.private()

    # Ben moves Green on his phone; Ann protests, then concedes (her bribe stays hidden)
    g.move(1, "green", "Souk")
    g.offers(ann, "Protest against Agent Green")
    g.tap(ann, "Protest against Agent Green")
    g.offers(ann, "Concede (let it stand)")
    g.tap(ann, "Concede (let it stand)")
    g.everywhere("Ann concedes: the action still stands")
    g.private()

    # Cy's turn, by the camera: the White stand lifted and put back (a hand passing over
    # the Hotel: nothing), Blue put on the Basar, which is not next to the Hotel
    g.until(10.0)
    g.everywhere("Basar is not next to Hotel")
    g.everywhere("Put Agent Blue back on Hotel")
    g.expect(g.tv, "Camera: Not moved")
    shot(g.tv, "casablanca-refused-non-neighbour-tv")
    assert rig.view()["pending"] is None
    # put back on the Hotel (nothing to announce), then to the Kasbah (lands at 13.8)
    g.until(16.3)
    g.everywhere("Agent Blue moves to Kasbah")
    g.until(21.3)  # nobody protests: the move stands by itself
    g.everywhere("Ann's turn")
    g.private()

    # Ann moves Green; Ben protests and wins (2,400 against 1,300): Ann may not bribe
    g.move(0, "green", "Basar")
    g.tap(ben, "Protest against Agent Green")
    g.tap(ben, "Compare our bribes")
    g.tap(ann, "Compare our bribes")
    g.everywhere("upheld: the action is cancelled")
    g.expect(ann, "may not bribe this turn")
    expect(g.card(0).get_by_role("button", name="Bribe agents", exact=True)).to_be_disabled()
    g.private()
    # Ann announces Red to the Basar on her phone and moves the stand: announced once
    g.move(0, "red", "Basar")
    g.until(24.8)
    pending = rig.view()["pending"]
    assert pending is not None and (pending["agent"], pending["to"]) == ("red", "basar")
    assert sum("Red moves to Basar" in line for line in rig.view()["log"]) <= 1

    # Ben moves Green to the Basar and eliminates Red there; the host confirms
    g.move(1, "green", "Basar")
    g.offers(ben, "Eliminate: Agent Green")
    shot(ben, "casablanca-eliminate-ben")
    g.tap(ben, "Eliminate: Agent Green")  # Red is the one it can eliminate: one tap
    g.expect(ben, "Agent Green eliminates Agent Red")
    g.expect(host, "Confirm: nobody else protests")
    shot(host, "casablanca-host-controls")
    assert too_wide(host) == []
    g.tap(host, "Confirm: nobody else protests")
    g.everywhere("Agent Green eliminated Agent Red")
    g.private()
    g.fits("eliminated")

    # the camera alone: Red's stand taken off, Blue to the Basar (Cy's turn) ...
    g.until(28.3)
    g.everywhere("Agent Blue moves to Basar")
    g.until(33.3)  # the move stands; Blue shares the Basar with Green
    g.everywhere("Cy may still eliminate with Agent Blue; otherwise Ann goes on")
    # ... then Blue with the suitcase, carried over the Market, to the Kasbah (Ann's turn)
    g.until(38.2)
    g.everywhere("Agent Blue moves to Kasbah with the suitcase")
    assert not any("Market" in line for line in rig.view()["log"])
    g.until(42.9)
    g.everywhere("Ben's turn")
    g.private()
    # ... and home to the Hotel: the move stands and Cy (most on Blue) wins
    g.until(46.4)
    g.everywhere("Agent Blue moves to Hotel with the suitcase")
    g.private()
    g.until(51.4)
    g.everywhere("carried the suitcase home: Cy won")
    g.alerted(False, False, False)

    # the end: every sheet side by side, the winner and the deciding amounts, the chart
    g.expect(g.tv, "Every bribe sheet, side by side")
    assert g.tv.locator("mark").first.inner_text() == "$4,400"
    assert g.tv.locator("svg polyline").count() == 3
    shot(g.tv, "casablanca-end-tv")
    for i, page in enumerate(phones):
        g.expect(page, "Every bribe sheet, side by side")
        assert too_wide(page) == [], (SEATS[i], too_wide(page))
    shot(cy, "casablanca-end-cy")

    # the exported record replays to the same state
    session, info = table.session, table.info
    assert session is not None and info is not None
    lines = export_lines(table.store, info.game_id)
    replay = replay_lines(lines)
    assert replay.state == session.engine.state_json(session.state)
    assert replay.outcome is not None and replay.outcome["winner"] == [2]
    camera = [json.loads(line) for line in lines if '"seen"' in line or '"left"' in line]
    assert len(camera) >= 20  # the camera's sightings are in the record
