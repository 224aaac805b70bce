"""Whole games played only through the "your move" card, on phones at 390×844.

Each phone taps nothing but the card's buttons (and types an amount into its bribe
picker); the host taps only its own card. Every tap is counted per turn, and the median
taps of a plain turn is printed and written to ``artifacts/taps-per-turn.json`` (the
README's "Taps per turn" table). The table runs on a fake clock (``tests.camera_rig``,
with no card in front of the camera): nothing waits for a time, only for the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import BROWSER, join_links, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from tests.web import taps

pytestmark = BROWSER


class Cards:
    """The phones' and the host's "your move" cards, and the taps spent on each turn."""

    def __init__(self, rig: Rig, phones: list[Any], host: Any, game: str) -> None:
        self.rig, self.phones, self.host, self.game = rig, phones, host, game
        self.turns: list[tuple[str, int, bool]] = []  # (what, taps, plain)
        self.count = 0

    def card(self, page: Any) -> Any:
        return page.locator("#host-live .yourmove" if page is self.host else "#live .yourmove")

    def tap(self, page: Any, name: str, sends: bool = False) -> None:
        """Tap the card's button ``name``; ``sends``: it posts the action (accepted)."""
        button = self.card(page).get_by_role("button", name=name, exact=True)
        expect(button).to_be_enabled()
        self.count += 1
        if not sends:
            button.click()
            return
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        body = answer.value.json()
        assert body["accepted"], (name, body)
        # the page has drawn the snapshot that shows it (or a later one)
        seen(page, "#host-live" if page is self.host else "#live", self.rig.table.hub.latest().seq)

    def fill(self, page: Any, label: str, value: str) -> None:
        self.count += 1
        self.card(page).get_by_label(label, exact=True).fill(value)

    def turn(self, what: str, plain: bool = True) -> None:
        """The taps since the last turn were ``what``'s."""
        self.turns.append((what, self.count, plain))
        self.count = 0

    def fits(self, name: str) -> None:
        for i, page in enumerate(self.phones):
            assert too_wide(page) == [], (i, too_wide(page))
            shot(page, f"yourmove-{self.game}-{name}-{i + 1}")

    def median(self) -> float:
        return taps.record(self.game, self.turns)


def seen(page: Any, box: str, seq: int) -> None:
    """The page's live box has drawn the snapshot ``seq`` (the answer to its post)."""
    page.wait_for_function("([box, seq]) => Number(document.querySelector(box).dataset.seen) >= seq",
                           arg=[box, seq])


def joined(rig: Rig, phone: Any, state_dir: Path, names: list[str]) -> tuple[list[Any], Any]:
    host = phone()
    links = join_links(host, rig.url, state_dir)
    phones = []
    for link, name in zip(links, names, strict=True):
        page = phone()
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector("#conn.live")
        page.wait_for_selector(".yourmove[data-built]")
        phones.append(page)
    host.goto(rig.url + "/host")
    host.wait_for_selector("#conn.live")
    return phones, host


# --- Casablanca ------------------------------------------------------------------------------

BOARD = {"basar": ["ricks_cafe", "hotel", "airport", "police", "souk", "gate"],
         "souk": ["kasbah", "ricks_cafe"], "gate": ["airport"]}


@pytest.fixture
def casablanca(state_dir: Path) -> Iterator[Rig]:
    with camera_rig(state_dir, "casablanca", ["Ann", "Ben", "Cy"],
                    {"concessions": False, "board": BOARD}, [], {}) as rig:
        yield rig


def test_casablanca_played_with_the_card_alone(casablanca: Rig, phone: Any,
                                               state_dir: Path) -> None:
    rig = casablanca
    phones, host = joined(rig, phone, state_dir, ["Ann", "Ben", "Cy"])
    c = Cards(rig, phones, host, "casablanca")
    ann, ben, cy = phones
    expect(c.card(ann)).to_contain_text("Your move")
    expect(c.card(ben)).to_contain_text("It is Ann's turn: you may act on your own turn.")
    expect(c.card(ben).get_by_role("button", name="Bribe agents")).to_be_disabled()
    c.fits("start")

    # a bribe: the split picker offers its button only once the amounts are valid
    c.tap(ann, "Bribe agents")
    go = c.card(ann).get_by_role("button", name="Bribe agents")
    expect(go).to_be_disabled()  # nothing entered: never an empty bribe
    c.card(ann).get_by_label("Agent Red", exact=True).fill("20000")  # a slip, not a tap
    expect(go).to_be_disabled()  # more than she has
    expect(c.card(ann)).to_contain_text("more than the 10,000 available")
    c.fits("bribe-picker")
    c.fill(ann, "Agent Red", "600")
    c.tap(ann, "Bribe agents", sends=True)
    c.turn("Ann bribes")
    c.tap(ben, "Bribe agents")
    c.fill(ben, "Agent Red", "600")
    c.tap(ben, "Bribe agents", sends=True)
    c.turn("Ben bribes")

    # a move of two parts: the agent, then the space
    c.tap(cy, "Agent Red")
    expect(c.card(cy)).to_contain_text("Where does Agent Red go?")
    c.fits("move-space")
    c.tap(cy, "Basar", sends=True)
    c.turn("Cy moves Red")
    expect(c.card(ann).get_by_role("button", name="Protest against Agent Red")).to_be_enabled()
    c.fits("announced")
    c.tap(ann, "Agent Green")
    c.tap(ann, "Souk", sends=True)
    c.turn("Ann moves Green")
    c.tap(ben, "Agent Green")
    c.tap(ben, "Kasbah", sends=True)
    c.turn("Ben moves Green")
    # three parts: the agent, the space, the suitcase
    c.tap(cy, "Agent Red")
    c.tap(cy, "Gate")
    expect(c.card(cy)).to_contain_text("Take the suitcase along?")
    c.tap(cy, "Yes, with the suitcase", sends=True)
    c.turn("Cy moves Red with the suitcase")
    c.tap(ann, "Agent Green", sends=True)  # one space to go to: one tap
    c.turn("Ann moves Green back")
    c.tap(ben, "Agent Green")
    c.tap(ben, "Kasbah", sends=True)
    c.turn("Ben moves Green")
    c.tap(cy, "Agent Red")
    c.tap(cy, "Airport (home)")
    c.tap(cy, "Yes, with the suitcase", sends=True)
    c.turn("Cy carries the suitcase home")
    # the host's card: the last move stands when nobody else protests
    c.tap(host, "Confirm: nobody else protests", sends=True)
    c.turn("the host confirms", plain=False)

    outcome = rig.table.hub.latest().outcome
    assert outcome is not None and outcome["winner"] == [0, 1]
    for page in phones:
        expect(page.locator("#live")).to_contain_text("Every bribe sheet, side by side")
    c.fits("over")
    assert c.median() <= 2


# --- Illegal ----------------------------------------------------------------------------------


@pytest.fixture
def illegal(state_dir: Path) -> Iterator[Rig]:
    with camera_rig(state_dir, "illegal", ["Ann", "Ben"], {"dealer": 1}, [], {}) as rig:
        yield rig


def test_illegal_played_with_the_card_alone(illegal: Rig, phone: Any, state_dir: Path) -> None:
    rig = illegal
    phones, host = joined(rig, phone, state_dir, ["Ann", "Ben"])
    c = Cards(rig, phones, host, "illegal")
    ann, ben = phones
    expect(c.card(ann)).to_contain_text("Your move")
    c.fits("start")

    def play(page: Any, who: str, label: str, *then: str) -> None:
        c.tap(page, label, sends=not then)
        for i, name in enumerate(then):
            c.tap(page, name, sends=i == len(then) - 1)
        session = rig.table.session
        assert session is not None
        if session.state.phase == "more":  # a legal business: the turn goes on
            c.tap(page, "End your turn", sends=True)
        c.turn(f"{who}: {label}")

    play(ann, "Ann", "Play Market Open")
    play(ben, "Ben", "Play Market Open")
    play(ann, "Ann", "Play Gambling")
    play(ben, "Ben", "Play Pimps")
    play(ann, "Ann", "Play Tropical Fish")
    c.fits("open-markets")
    # a move of two parts: the takeover, then the business taken
    c.tap(ben, "Play Hostile Takeover: take from Ann")
    expect(c.card(ben)).to_contain_text("Which business?")
    c.fits("takeover-business")
    c.tap(ben, "Gambling (5\u202f000\u00a0€)", sends=True)
    session = rig.table.session
    assert session is not None
    if session.state.phase == "more":
        c.tap(ben, "End your turn", sends=True)
    c.turn("Ben: a takeover")
    play(ann, "Ann", "Play Day of Accounting")

    # the reveal: Ann's whole hand in one go (a card per copy, then one tap sends them
    # all), Ben's one card at a time
    for page in phones:
        expect(c.card(page)).to_contain_text("Reveal your whole hand")
    c.fits("reveal")
    for page, seat, name in ((ann, 0, "Ann"), (ben, 1, "Ben")):
        session = rig.table.session
        assert session is not None
        n = session.state.seats[seat].hand
        if page is ann:
            c.tap(page, f"Reveal your whole hand ({n} cards)")
            for _ in range(n):
                c.card(page).locator(".ym-choice:enabled").first.click()
                c.count += 1
            c.tap(page, f"Reveal your whole hand ({n} cards)", sends=True)
        else:  # the first card after choosing "one at a time"; then its question is open
            c.tap(page, f"Reveal one card at a time ({n} to go)")
            for left in range(n, 0, -1):
                if left < n:
                    expect(c.card(page)).to_contain_text(f"Reveal one card at a time ({left} to go)")
                c.tap(page, c.card(page).locator(".ym-choice").first.inner_text(), sends=True)
        c.turn(f"{name} reveals", plain=False)

    outcome = rig.table.hub.latest().outcome
    assert outcome is not None
    for page in phones:
        expect(page.locator("#live")).to_contain_text("Day of Accounting")
    c.fits("over")
    assert c.median() <= 2
