"""Real Chromium on a phone-sized viewport: live cards, joining a seat, private sheets.

Screenshots go to artifacts/screenshots/ (CI keeps artifacts/).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.inputs import TABLE
from companion.table import Table
from tests.browser import BROWSER, join_links, shot
from tests.web.conftest import act, start_game

pytestmark = BROWSER


def test_table_page_shows_a_card_arrive_live(table: Table, live_url: str, phone: Any) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    page = phone()
    page.goto(live_url + "/")
    page.wait_for_selector("#conn.live")
    assert page.locator(".facts .n").first.inner_text() == "0"
    shot(page, "table-before")
    assert act(table, {"do": "play", "card": "racketeer"}, TABLE).accepted
    expect(page.locator(".facts .n").first).to_have_text("1")
    assert page.locator(".card-face").inner_text() == "Racketeer"
    assert page.locator(".seats li.turn .name").inner_text() == "Ben"
    assert page.locator(".timer").count() == 1  # the hesitation bar runs for Ben
    shot(page, "table-card-arrived")


def test_join_a_seat_by_its_url(table: Table, live_url: str, phone: Any,
                                state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    host = phone()
    links = join_links(host, live_url, state_dir)
    assert len(links) == 3
    shot(host, "host-panel")
    page = phone()
    page.goto(links[1])
    shot(page, "join-confirm")
    page.get_by_role("button", name="Join as Ben").click()
    page.wait_for_url(re.compile(r"/seat/1$"))
    page.wait_for_selector("#conn.live")
    assert "You: 36 cards" in page.inner_text("#secret-title")
    shot(page, "seat-nasty7")


def test_second_seat_cannot_see_the_first_seats_bribes(table: Table, live_url: str,
                                                      phone: Any, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="casablanca")
    links = join_links(phone(), live_url, state_dir)
    ann, ben = phone(), phone()
    for page, link, name in ((ann, links[0], "Ann"), (ben, links[1], "Ben")):
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector("#conn.live")
    card = ann.locator(".yourmove")
    card.get_by_role("button", name="Bribe agents", exact=True).click()
    card.get_by_label("Agent Green", exact=True).fill("4200")
    expect(card).to_contain_text("Together 4,200 of 10,000 available.")
    card.get_by_role("button", name="Bribe agents", exact=True).click()
    ann.wait_for_selector("#answer:not([hidden])")
    expect(ann.locator("#live")).to_contain_text("$4,200")
    expect(ann.locator("#casa-left")).to_have_text("$5,800")
    # an accepted bribe closes the picker: a second tap must not bribe again
    expect(card.get_by_label("Agent Green", exact=True)).to_have_count(0)
    shot(ann, "seat-casablanca-bribe-sheet")
    expect(ben.locator("#live")).to_contain_text("Ben's turn")
    assert "4,200" not in ben.content() and "4200" not in ben.content()
    shot(ben, "seat-casablanca-other-seat")
    resp = ben.goto(live_url + "/seat/0")
    assert resp is not None and resp.status == 403
    assert "4,200" not in ben.content()
    shot(ben, "seat-forbidden")
    anon = phone()
    anon.goto(live_url + "/")
    anon.wait_for_selector("#conn.live")
    assert "4,200" not in anon.content()
    shot(anon, "table-casablanca")


#: counts the frames the page's timer animation asks for (``tickTimers`` in app.js)
_COUNT_TICKS = """
window.__ticks = 0;
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => {
  if (cb.name === "tickTimers") window.__ticks += 1;
  return raf(cb);
};
"""
#: two frames of the page's own, then how many the timer animation asked for
_TWO_FRAMES_THEN_TICKS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(window.__ticks))))"""


def test_the_timer_animates_only_while_a_timer_is_shown(table: Table, live_url: str,
                                                        phone: Any) -> None:
    """An idle page asks for no animation frame (a loop that ran forever cost each phone's
    browser a tenth of a core); the hesitation bar counts down once it is shown."""
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    page = phone()
    page.add_init_script(_COUNT_TICKS)
    page.goto(live_url + "/")
    page.wait_for_selector("#conn.live")
    assert page.locator(".timer").count() == 0
    assert page.evaluate(_TWO_FRAMES_THEN_TICKS) == 0, "frames asked for with no timer shown"
    assert act(table, {"do": "play", "card": "racketeer"}, TABLE).accepted
    secs = page.locator(".timer .secs")
    expect(secs).to_have_count(1)
    expect(secs).not_to_have_text(secs.inner_text())  # it counts down
    assert page.evaluate(_TWO_FRAMES_THEN_TICKS) > 0
