"""The deck page in Chromium on a phone (390×844): the host enters a deck card after card
in one sitting, the district, Racket type and Weakness picked from lists (names typed:
the host's one sitting), then shares the stats as a CSV sheet: exported, a bad row
refused by number with nothing imported, the good sheet imported into another deck."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.decks import Deck
from tests.browser import BROWSER, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from tests.web.conftest import host_token

pytestmark = BROWSER


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    Deck.new("crime_lords", "home", state_dir)
    Deck.new("crime_lords", "club", state_dir)
    with camera_rig(state_dir, "crime_lords", ["Ann", "Ben"], {}, [], {}) as rig:
        yield rig


def _save_next(page: Any, slot: str) -> None:
    page.get_by_role("button", name=f"Save {slot} and go to the next card").click()
    page.wait_for_url("**/cards?**")


def test_a_deck_entered_in_one_sitting_then_shared_as_a_sheet(
        rig: Rig, phone: Any, state_dir: Path, tmp_path: Path) -> None:
    page = phone()
    page.goto(f"{rig.url}/host?token={host_token(state_dir)}")
    page.goto(f"{rig.url}/cards?deck=home")
    page.get_by_role("link", name="Enter the cards not entered yet, one after another").click()
    # Mob 01 is open, its name field first
    page.get_by_label("Name", exact=True).first.fill("The Old Family")
    page.locator("#card-1").get_by_label("Boss bonus").fill("3")
    _save_next(page, "Mob 01")
    expect(page.locator("#card-2")).to_have_attribute("open", "")
    page.goto(f"{rig.url}/cards?deck=home&open=45#card-45")
    racket = page.locator("#card-45")
    racket.get_by_label("Name").fill("North Side Casinos")
    racket.get_by_label("Income").fill("3")
    racket.get_by_label("Resistance").fill("2")
    racket.get_by_label("District").select_option(label="North Side")
    racket.get_by_label("Type").select_option(label="Casinos")
    assert racket.get_by_label("District").locator("option").all_inner_texts() == [
        "(not entered)", "North Side", "South Side", "East Side", "West Side", "Central",
        "Other"]
    shot(page, "crime-lords-deck-page-racket")
    _save_next(page, "Racket 01")
    racket = page.locator("#card-46")
    expect(racket).to_have_attribute("open", "")
    racket.get_by_label("Name").fill("The Big Wheel")
    racket.get_by_label("Income").fill("4")
    racket.get_by_label("Resistance").fill("3")
    racket.get_by_label("District").select_option(label="Central")
    racket.get_by_label("Type").select_option(label="Other")
    _save_next(page, "Racket 02")
    page.goto(f"{rig.url}/cards?deck=home&open=9#card-9")
    crook = page.locator("#card-9")
    crook.get_by_label("Name").fill("Mom Parker")
    crook.get_by_label("Power").fill("6")
    crook.get_by_label("Resistance").fill("4")
    crook.get_by_label("Weakness").select_option(label="Casinos")
    _save_next(page, "Crook 01")
    expect(page.locator("#card-10")).to_have_attribute("open", "")
    assert too_wide(page) == [], too_wide(page)
    shot(page, "crime-lords-deck-page-next")
    deck = Deck.load("home", state_dir)
    assert deck.card_stats(45) == {"name": "North Side Casinos", "income": 3, "resistance": 2,
                                   "district": "North Side", "type": "Casinos"}
    assert deck.card_stats(46)["type"] == "Other"  # a one-of-a-kind Racket
    assert deck.card_stats(9) == {"name": "Mom Parker", "power": 6, "resistance": 4,
                                  "weakness": "Casinos"}

    # the sheet: exported, a bad row refused by its number, the good one imported
    page.get_by_text("Share the stats as a spreadsheet (CSV)").click()
    with page.expect_download() as info:
        page.get_by_role("link", name="Export the sheet (CSV)").click()
    sheet = tmp_path / "home.csv"
    info.value.save_as(sheet)
    text = sheet.read_text()
    assert "Racket 01,racket,North Side Casinos,,2,3,North Side,Casinos" in text
    bad = tmp_path / "bad.csv"
    bad.write_text(text.replace("North Side,Casinos", "Uptown,Casinos"))
    page.goto(f"{rig.url}/cards?deck=club")
    page.get_by_text("Share the stats as a spreadsheet (CSV)").click()
    page.get_by_label("A filled-in sheet").set_input_files(str(bad))
    page.get_by_role("button", name="Import the sheet").click()
    expect(page.locator("main")).to_contain_text("Row 46 (Racket 01): 'Uptown' is not a district")
    shot(page, "crime-lords-deck-page-bad-sheet")
    assert Deck.load("club", state_dir).card_stats(9) is None  # nothing half-imported
    page.goto(f"{rig.url}/cards?deck=club")
    page.get_by_text("Share the stats as a spreadsheet (CSV)").click()
    page.get_by_label("A filled-in sheet").set_input_files(str(sheet))
    page.get_by_role("button", name="Import the sheet").click()
    expect(page.get_by_role("status").filter(has_text="Imported")).to_contain_text(
        "Imported: 4 cards updated")
    assert Deck.load("club", state_dir).card_stats(45) == deck.card_stats(45)
    shot(page, "crime-lords-deck-page-imported")
