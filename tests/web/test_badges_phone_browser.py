"""Badges never wrap on a phone: every badge (``.tag``: "Protection Money", "market
closed", "to play", "suitcase"; the card's "Your move") is one line at 390×844.

Once Illegal's "Protection Money" badge broke over two lines in a narrow tableau. In
Chromium, on the table page of each game at a moment with badges (recorded games,
``tests/web/tv_states.py``) and on the seat page of the player the badge lies on, each
badge's text is measured: its line boxes (a Range's client rects) must share one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.table import Table
from tests.browser import BROWSER, PHONE, join_links
from tests.web.tv_states import play, still_table

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER

SHOTS = Path("/tmp/shots-tv4")

#: every badge's text and how many lines it is drawn on, one entry per visible badge
LINES = """() => [...document.querySelectorAll('#live .tag, #live .ym-badge')]
  .filter(el => el.offsetParent !== null && el.textContent.trim())
  .map(el => {
    const r = document.createRange(); r.selectNodeContents(el);
    const tops = new Set([...r.getClientRects()].filter(x => x.width > 0)
      .map(x => Math.round(x.top)));
    return [el.textContent.trim(), tops.size, Math.round(el.getBoundingClientRect().width)];
  })"""

#: (game, record, moment, a badge that must be among those measured)
MOMENTS = [("illegal", "three_hand_match", "end", "Protection Money"),
           ("illegal", "three_hand_match", "loss", "to play"),
           ("casablanca", "full_game", "end", "suitcase"),
           ("nasty7", "full_game", "camera", "to play")]


#: the badges whose right edge is past the screen (a badge kept on one line must not be
#: pushed out of the phone's screen instead)
OUTSIDE = """() => [...document.querySelectorAll('#live .tag, #live .ym-badge')]
  .filter(el => el.offsetParent !== null && !el.closest('.scroll, .scroll-x')
          && el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(el => el.textContent.trim())"""


def outside(page: Any) -> list[str]:
    found: list[str] = page.evaluate(OUTSIDE)
    return found


def wrapped(page: Any) -> tuple[list[Any], list[Any]]:
    badges = page.evaluate(LINES)
    return badges, [b for b in badges if b[1] != 1]


@pytest.mark.parametrize(("game", "record", "until", "badge"), MOMENTS,
                         ids=[f"{m[0]}-{m[2]}" for m in MOMENTS])
def test_no_badge_wraps_on_a_phone(table: Table, live_url: str, browser: Any, game: str,
                                   record: str, until: Any, badge: str) -> None:
    if game not in games.available():
        pytest.skip(f"{game} is not installed")
    play(table, game, record, until)
    page = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    page.goto(live_url + "/")
    page.wait_for_selector("#conn.live")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"badges-{game}-{until}.png"), full_page=True)
    badges, bad = wrapped(page)
    assert badge in [b[0] for b in badges], badges
    assert bad == [], f"badges on more than one line (text, lines, width): {bad}"
    assert outside(page) == [], f"badges past the screen's edge: {outside(page)}"
    page.context.close()


def test_the_protection_money_badge_is_one_line_on_its_players_phone(
        table: Table, live_url: str, browser: Any, state_dir: Path) -> None:
    """On the seat page of the player it lies on (Cy at the end of the recorded match)."""
    if "illegal" not in games.available():
        pytest.skip("illegal is not installed")
    play(table, "illegal", "three_hand_match", "end")
    seats = table.hub.latest().public["seats"]
    cy = next(row["seat"] for row in seats if row["hassle"])
    host = browser.new_context(viewport=PHONE).new_page()
    link = join_links(host, live_url, state_dir)[cy]
    page = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    page.goto(link)
    page.get_by_role("button", name=f"Join as {seats[cy]['name']}").click()
    page.wait_for_selector("#conn.live")
    page.screenshot(path=str(SHOTS / "badges-illegal-seat-end.png"), full_page=True)
    badges, bad = wrapped(page)
    assert "Protection Money" in [b[0] for b in badges], badges
    assert bad == [], f"badges on more than one line (text, lines, width): {bad}"
    assert outside(page) == [], f"badges past the screen's edge: {outside(page)}"
    host.context.close()
    page.context.close()
