"""The TV's counted lists stay on the TV: a phone lists each card once.

Illegal's table writes a tableau's businesses and a revealed hand twice, card by card
and counted ("Weapons ×2"); ``static/tv.css`` shows the counted ones on the TV only.
Phones never load tv.css, so the counted lists are ``[hidden]`` in the template: once
they were not, and a phone listed "Weapons (50 000 €)" and then "Weapons" again, and
"Revealed: no cards no cards". In Chromium at 390×844, at the end of a recorded match.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import games
from companion.games.words import listed
from companion.table import Table
from tests.browser import BROWSER, PHONE, SHOTS
from tests.web.tv_states import play, still_table

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER


def test_a_phone_lists_each_card_of_a_tableau_once(table: Table, live_url: str,
                                                   browser: Any) -> None:
    if "illegal" not in games.available():
        pytest.skip("illegal is not installed")
    play(table, "illegal", "three_hand_match", "end")
    seats = table.hub.latest().public["seats"]
    assert any(row["revealed"] for row in seats) and any(row["businesses"] for row in seats)
    page = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    page.goto(live_url + "/")
    page.wait_for_selector("#conn.live")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-illegal-table-end.png"), full_page=True)
    tableaus = page.locator("#live .seats > li")
    assert tableaus.count() == len(seats)
    for i, row in enumerate(seats):
        text = tableaus.nth(i).inner_text()
        revealed = [line for line in text.splitlines() if line.startswith("Revealed:")]
        cards = listed(c["name"] for c in row["revealed"]) or "no cards"
        assert revealed == [f"Revealed: {cards}"], f"{row['name']}: {text!r}"
        shown = tableaus.nth(i).locator(".items").filter(has=page.locator("li:visible"))
        assert shown.count() == (1 if row["businesses"] else 0), f"{row['name']}: {text!r}"
    page.context.close()
