"""A fresh deck in Chromium at 390×844: the host enters a Mob card and a new Crook's
stats by tapping labelled chips of the "your move" card (each number a row of values,
the Weakness and whether he is a Bodyguard rows of words); only the card's name is
typed. The taps of the stats are counted; the next new Crook offers the values already
entered first.

The table runs on a fake clock with no card in front of the camera: nothing waits for a
time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.decks import Deck
from tests.browser import BROWSER, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from web.auth import host_token

pytestmark = BROWSER

SHOTS_CL = Path("/tmp/shots-cl")


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    Deck.new("crime_lords", "home", state_dir)  # a fresh deck: no card entered
    with camera_rig(state_dir, "crime_lords", ["Ann", "Ben"], {}, [], {}) as rig:
        yield rig


def _state(rig: Rig) -> Any:
    session = rig.table.session
    assert session is not None
    return session.state


class HostCard:
    """The host's "your move" card; every tap on it is counted."""

    def __init__(self, rig: Rig, page: Any) -> None:
        self.rig, self.page, self.taps = rig, page, 0
        self.card = page.locator("#host-live .yourmove")

    def tap(self, name: str, within: str | None = None, sends: bool = False) -> None:
        """Tap the button ``name`` (in the group of choices labelled ``within``)."""
        where = self.card if within is None else self.card.get_by_role(
            "group", name=within, exact=True)
        button = where.get_by_role("button", name=name, exact=True)
        expect(button).to_be_visible()
        expect(button).to_be_enabled()
        self.taps += 1
        if not sends:
            button.click()
            return
        before = self.rig.table.hub.latest().seq
        with self.page.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        body = answer.value.json()
        assert body["accepted"], (name, body)
        self.page.wait_for_function(
            "([seq]) => Number(document.querySelector('#host-live').dataset.seen) > seq",
            arg=[before])

    def open_then(self, group: str, name: str) -> None:
        """Tap ``name``, opening its group ``group…`` first when it is not on top."""
        if not self.card.get_by_role("button", name=name, exact=True).count():
            self.tap(f"{group}…")
        self.tap(name)

    def chips(self, within: str) -> list[str]:
        group = self.card.get_by_role("group", name=within, exact=True)
        return [x.strip() for x in group.get_by_role("button").all_inner_texts()]

    def snap(self, name: str) -> None:
        shot(self.page, name)
        SHOTS_CL.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS_CL / f"{name}.png"), full_page=True)


def test_a_mob_card_and_a_new_crook_entered_by_tapping(rig: Rig, phone: Any,
                                                        state_dir: Path) -> None:
    page = phone()
    page.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    page.goto(f"{rig.url}/host")
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#host-live .yourmove[data-built]")
    c = HostCard(rig, page)

    # the Mob card: its name typed, its Boss token bonus a chip
    c.tap("Ann's Mob: a Mob card not entered yet")
    assert c.chips("The Boss token bonus") == ["0", "1", "2", "3", "4", "5"]
    assert c.chips("The extra draws") == ["0", "1"]
    c.card.get_by_label("The name on the card").fill("The Old Family")
    c.tap("3", within="The Boss token bonus")
    c.tap("0", within="The extra draws")
    expect(c.card.get_by_role("group", name="The Boss token bonus").get_by_role(
        "button", name="3")).to_have_attribute("aria-pressed", "true")
    c.snap("crime-lords-pick-mob")
    assert too_wide(page) == []
    c.tap("Ann's Mob: a Mob card not entered yet", sends=True)
    mob = _state(rig).mobs[0]
    assert (mob.mob_card, mob.mob_name, mob.boss_bonus) == ("mob_01", "The Old Family", 3)
    assert c.taps == 4, "a Mob card: the move, its Boss bonus, its extra draws, the button"

    # a new Crook won at the auction: the price, then its stats, each a tap
    c.open_then("The auction", "Ann won a new Crook")
    c.tap("10")  # the price
    c.taps = 0  # from here: the card's stats
    assert c.chips("The Power") == ["0", "1", "2", "3", "4", "5", "6"]
    c.tap("6", within="The Power")
    c.tap("4", within="The Resistance")
    c.tap("Casinos", within="The Weakness")
    c.tap("No", within="Is he a Bodyguard?")
    c.card.get_by_label("The name on the card").fill("Mom Parker")
    c.snap("crime-lords-pick-crook")
    assert too_wide(page) == []
    c.tap("Ann won a new Crook", sends=True)
    assert c.taps == 5, "a new Crook's stats: Power, Resistance, Weakness, Bodyguard, the button"
    state = _state(rig)
    mom = state.card("crook_01")
    assert (mom.name, mom.power, mom.resistance, mom.weakness) == (
        "Mom Parker", 6, 4, ("Casinos",))
    assert state.mobs[0].crook("crook_01") is not None

    # the next new Crook: the values this deck already holds come first
    c.open_then("The auction", "Ben won a new Crook")
    c.tap("4")
    assert c.chips("The Power")[0] == "6" and c.chips("The Resistance")[0] == "4"
    c.taps = 0
    c.tap("2", within="The Power")
    c.tap("1", within="The Resistance")
    c.tap("None", within="The Weakness")
    c.tap("Yes, a Bodyguard", within="Is he a Bodyguard?")
    c.card.get_by_label("The name on the card").fill("Kid Rocco")
    c.snap("crime-lords-pick-second-crook")
    c.tap("Ben won a new Crook", sends=True)
    assert c.taps == 5
    state = _state(rig)
    kid = state.card("crook_02")
    assert (kid.name, kid.power, kid.resistance, kid.weakness, kid.bodyguard) == (
        "Kid Rocco", 2, 1, (), True)
    assert state.mobs[1].crook("crook_02") is not None

    # the rules read only a Crook's Power and Resistance: the rest may be left out
    c.open_then("The auction", "Ann won a new Crook")
    c.tap("2")
    c.taps = 0
    c.tap("5", within="The Power")
    c.tap("2", within="The Resistance")
    c.snap("crime-lords-pick-crook-two-taps")
    c.tap("Ann won a new Crook", sends=True)
    assert c.taps == 3, "Power, Resistance, the button"
    third = _state(rig).card("crook_03")
    assert (third.power, third.resistance, third.weakness, third.bodyguard) == (
        5, 2, (), False)
