"""A whole Casablanca game at the table: three phones at 390×844, the host, the TV, the camera.

The camera's tags reach the table as the pipeline delivers them (``TagSeen``/``TagLeft``
with the zone, i.e. the board space), fed deterministically on an injected clock: the
stands settle when the test moves the clock, never by machine speed (the pipeline path
from rendered frames to these inputs is tested in ``test_camera_pipeline.py``). Players
use only visible, labelled controls. The game has a protest lost and one won, a
concession, an elimination, a stand put on a non-neighbouring space (refused), and the
suitcase carried home by the camera alone. After every step each phone is checked for
other seats' amounts; at the end the state equals the replay of the exported record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.inputs import TagLeft, TagSeen
from companion.records import export_lines, replay_lines
from companion.store import MemoryStore
from companion.table import Table
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.web.conftest import start_game

pytestmark = BROWSER

SEATS = ["Ann", "Ben", "Cy"]
WAIT = 10_000  # ms: a safety net for the live stream, not a speed limit


class Clock:
    """The table's clock: it moves only when the test moves it."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(clock: Clock) -> Iterator[Table]:
    t = Table(MemoryStore(), clock=clock)
    t.start()
    yield t
    t.stop()


class Game:
    """The table, its clock, and the pages of the three phones, the host and the TV."""

    def __init__(self, table: Table, clock: Clock, phones: list[Any], host: Any,
                 tv: Any) -> None:
        self.table, self.clock, self.phones, self.host, self.tv = table, clock, phones, host, tv

    # --- the camera --------------------------------------------------------------------

    def tag(self, card: str, zone: str | None) -> None:
        """The pipeline reports ``card``'s tag in ``zone`` (``None``: it left sight)."""
        self.clock.t += 0.1
        kind = TagSeen if zone is not None else TagLeft
        inp = kind(payload=f"casablanca:{card}", at=self.clock.t, zone=zone, status="ok",
                   game="casablanca", card=card, serial=1)
        result = self.table.submit(inp).result(5)
        assert result.accepted, result.reason

    def lift(self, *cards: str) -> None:
        for card in cards:
            self.tag(card, None)

    def put(self, zone: str, *cards: str) -> None:
        for card in cards:
            self.tag(card, zone)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of table time pass (the loop delivers what falls due)."""
        self.clock.t += seconds

    # --- the pages ---------------------------------------------------------------------

    def expect(self, page: Any, text: str) -> None:
        from playwright.sync_api import expect

        box = "#host-live" if page is self.host else "#live"
        expect(page.locator(box)).to_contain_text(text, timeout=WAIT)

    def everywhere(self, text: str) -> None:
        for page in [*self.phones, self.tv]:
            self.expect(page, text)

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
        button = page.get_by_role("button", name=name)
        assert button.is_visible() and button.is_enabled(), name
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        body = answer.value.json()
        assert body["accepted"], (name, body)

    def bribe(self, seat: int, amounts: dict[str, int], left: str) -> None:
        page = self.phones[seat]
        for agent, amount in amounts.items():
            page.get_by_label(f"Raise your bribe on Agent {agent} by").fill(str(amount))
        assert left in page.inner_text("#casa-after")  # what is left, shown live
        self.tap(page, "Place bribes")

    def move(self, seat: int, agent: str, to: str, suitcase: bool = False) -> None:
        page = self.phones[seat]
        page.get_by_label("Agent", exact=True).select_option(value=agent)
        page.get_by_label("To the space").select_option(label=to)
        if suitcase:
            page.get_by_label("take the suitcase along").check()
        self.tap(page, "Announce the move")


def numbers(view: Any) -> set[int]:
    return {int(m.replace(",", "")) for m in re.findall(r"\d[\d,]*", json.dumps(view))}


def secrets(state: Any, seat: int) -> set[int]:
    return {a for a in state.bribes[seat] if a} | {state.left[seat]}


def test_a_whole_game_with_camera_phones_host_and_tv(
    table: Table, clock: Clock, live_url: str, phone: Any, tv: Any, state_dir: Path
) -> None:
    start_game(table, SEATS, game="casablanca", options={"settle_s": 2, "protest_s": 5})
    host = phone()
    links = join_links(host, live_url, state_dir)
    phones = []
    for link, name in zip(links, SEATS, strict=True):
        page = phone()
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector("#conn.live")
        phones.append(page)
    screen = tv()
    screen.goto(live_url + "/")
    screen.wait_for_selector("#conn.live")
    host.goto(live_url + "/host")
    g = Game(table, clock, phones, host, screen)
    ann, ben, cy = phones
    g.private()
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

    # Ann's turn, by the camera: Red's stand from the Airport to the Gate
    g.lift("red")
    g.put("Gate", "red")
    g.wait(2.5)
    g.expect(ben, "Protest?")
    g.expect(ben, "Agent Red moves to Gate")
    g.private()
    shot(ben, "casablanca-protest-ask-ben")
    g.tap(ben, "Protest against Agent Red")
    g.expect(ann, "Ben protests your action")
    g.private()
    shot(ann, "casablanca-settle-ann")
    g.tap(ann, "Compare our bribes")
    g.tap(ben, "Compare our bribes")
    g.everywhere("not upheld")  # a protest lost: Ben's bribe on Red is lower
    g.private()

    # Ben moves Green on his phone; Ann protests, then concedes (her bribe stays hidden)
    g.move(1, "green", "Souk")
    g.expect(ann, "Protest?")
    g.tap(ann, "Protest against Agent Green")
    g.expect(ann, "Your protest")
    g.tap(ann, "Concede (let it stand)")
    g.everywhere("Ann concedes: the action still stands")
    g.private()

    # Cy's turn, by the camera: Blue put on the Basar, which is not next to the Hotel
    g.lift("white_hotel")  # a hand passing over the Hotel: nothing happens
    g.put("Hotel", "white_hotel")
    g.lift("blue")
    g.put("Basar", "blue")
    g.wait(2.5)
    g.everywhere("Basar is not next to Hotel")
    g.everywhere("Put Agent Blue back on Hotel")
    g.expect(g.tv, "Camera: Not moved")
    shot(g.tv, "casablanca-refused-non-neighbour-tv")
    g.put("Hotel", "blue")
    g.lift("blue")
    g.put("Kasbah", "blue")
    g.wait(2.5)
    g.everywhere("Agent Blue moves to Kasbah")
    g.wait(5.5)  # nobody protests: the move stands by itself
    g.everywhere("Ann's turn")
    g.private()

    # Ann moves Green; Ben protests and wins (2,400 against 1,300): Ann may not bribe
    g.move(0, "green", "Basar")
    g.tap(ben, "Protest against Agent Green")
    g.tap(ben, "Compare our bribes")
    g.tap(ann, "Compare our bribes")
    g.everywhere("upheld: the action is cancelled")
    g.expect(ann, "may not bribe this turn")
    assert ann.get_by_role("button", name="Place bribes").is_disabled()
    g.private()
    g.move(0, "red", "Basar")

    # Ben moves Green to the Basar and eliminates Red there; the host confirms
    g.move(1, "green", "Basar")
    g.expect(ben, "Agent Green eliminates")
    shot(ben, "casablanca-eliminate-ben")
    ben.get_by_label("Agent Green eliminates").select_option(label="Agent Red")
    g.tap(ben, "Announce: Green eliminates")
    g.expect(host, "Confirm: nobody else protests")
    shot(host, "casablanca-host-controls")
    assert too_wide(host) == []
    g.tap(host, "Confirm: nobody else protests")
    g.everywhere("Agent Green eliminated Agent Red")
    g.private()
    g.fits("eliminated")

    # the camera alone: Blue to the Basar, then with the suitcase to the Kasbah and home
    g.lift("blue")
    g.put("Basar", "blue")
    g.wait(2.5)
    g.wait(5.5)
    g.lift("blue", "suitcase")
    g.put("Market", "blue")  # carried over the Market for a moment: nothing
    g.lift("blue")
    g.put("Kasbah", "blue", "suitcase")
    g.wait(2.5)
    g.everywhere("Agent Blue moves to Kasbah with the suitcase")
    g.wait(5.5)
    g.private()
    g.lift("blue", "suitcase")
    g.put("Hotel", "blue", "suitcase")
    g.wait(2.5)
    g.everywhere("Agent Blue moves to Hotel with the suitcase")
    g.wait(5.5)
    g.everywhere("carried the suitcase home: Cy won")

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
    camera_lines = [json.loads(line) for line in lines if '"seen"' in line]
    assert len(camera_lines) >= 10  # the camera's sightings are in the record
