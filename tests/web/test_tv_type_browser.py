"""The TV read from the sofa (3 m): every visible word large enough, in Chromium.

During a game of each of the four games (brought there by replaying a recorded game on a
live table), at 1920×1080 and 1280×720, one ``page.evaluate`` walks every visible text
node of the TV and takes its size as drawn: its computed font size times the scale
``static/tv.js`` fitted the page to. Body text must be at least 28 px at 1080p and the
players' names and scores at least 40 px (two thirds of both at 720p). Pictures (the
Casablanca board, a chart, a QR code) are measured as pictures, not as text: their SVG
text is not walked. Screenshots: ``artifacts/screenshots/tv-type-<game>-<width>.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.table import Table
from tests.browser import BROWSER, SHOTS
from tests.web.tv_states import play, still_table
from web.auth import host_token

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER

SIZES = [(1920, 1080), (1280, 720)]
BODY_PX, NAME_PX = 28.0, 40.0  # at 1080 px high; scaled with the screen's height

#: (game, record, the moment it waits on): a busy moment of each game's table
GAMES = [
    ("nasty7", "full_game", "camera"),
    ("illegal", "three_hand_match", "loss"),
    ("casablanca", "full_game", "announcement"),
    ("crime_lords", "full_game", "turn"),
]

#: every visible text node outside SVG: its text, its size as drawn, and whether it is a
#: name or a score (a player's name standing alone, a total on the score list)
MEASURE = """(names) => {
  const scale = parseFloat(document.documentElement.dataset.tvScale || '1');
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || el.closest('svg, script, style, noscript, .sr-only, .skip')) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.top >= innerHeight) continue;
    const px = parseFloat(getComputedStyle(el).fontSize) * scale;
    const name = names.includes(text) || !!el.closest('.tv-side .totals');
    out.push({text: text.slice(0, 60), px: Math.round(px * 10) / 10, name});
  }
  return out;
}"""


#: badges drawn against the word before them ("Ben" "turn" "out" read as one)
TOUCHING = """() => {
  const out = [];
  for (const tag of document.querySelectorAll('main .tag')) {
    const before = tag.previousElementSibling, r = tag.getBoundingClientRect();
    if (!before || !r.width) continue;
    const q = before.getBoundingClientRect();
    if (Math.abs(q.top - r.top) < r.height / 2 && r.left - q.right < 4)
      out.push(before.textContent.trim() + '|' + tag.textContent.trim());
  }
  return out;
}"""




def too_small(found: list[dict[str, Any]], height: int) -> list[str]:
    """The words drawn under the targets at a screen ``height`` px high."""
    k = height / 1080
    return [f"{f['text']!r} {f['px']} px (needs {(NAME_PX if f['name'] else BODY_PX) * k:.1f})"
            for f in found if f["px"] < (NAME_PX if f["name"] else BODY_PX) * k - 0.05]


@pytest.mark.parametrize(("game", "record", "until"), GAMES, ids=[g for g, _, _ in GAMES])
def test_every_word_on_the_tv_reads_from_the_sofa(game: str, record: str, until: str,
                                                   table: Table, live_url: str,
                                                   browser: Any, state_dir: Path) -> None:
    if game not in games.available():
        pytest.skip(f"{game} is not installed")
    play(table, game, record, until)
    names = list(table.hub.latest().players)
    for width, height in SIZES:
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark")
        page = ctx.new_page()
        page.goto(f"{live_url}/host?token={host_token(state_dir)}")  # the join codes too
        page.goto(f"{live_url}/?tv=1")
        page.wait_for_selector("#conn.live")
        page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
        page.evaluate("() => document.fonts.ready.then(() => null)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tv-type-{game}-{width}.png"))
        found = page.evaluate(MEASURE, names)
        assert len(found) > 10, f"{game}: the TV shows almost nothing ({found})"
        assert any(f["name"] for f in found), f"{game}: no player's name on the TV"
        small = too_small(found, height)
        assert small == [], f"{game} at {width}×{height}: {len(small)} of {len(found)} " \
                            f"texts too small to read from the sofa: {small}"
        assert page.evaluate(TOUCHING) == [], f"{game} at {width}: badges run together"
        ctx.close()


def decode(page: Any, selector: str) -> str:
    """The QR code at ``selector`` as the screen draws it, read by the project's decoder."""
    import io

    import numpy as np
    from PIL import Image

    from vision.decoding import default_decoder

    png = page.locator(selector).screenshot()
    gray = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    found = default_decoder().decode(np.pad(gray, 40, constant_values=255))
    assert len(found) == 1, found
    return str(found[0].text)


def test_an_idle_tv_invites_with_the_tables_code_and_the_hosts(
        live_url: str, browser: Any, state_dir: Path) -> None:
    """No game yet: the table's address as a large code every phone can scan (a guest's
    TV too); on the host's screen also the host's page (no sign-in token: the room sees the TV)."""
    for width, height in SIZES:
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark")
        page = ctx.new_page()
        page.goto(f"{live_url}/host?token={host_token(state_dir)}")
        page.goto(f"{live_url}/?tv=1")
        page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tv-idle-{width}.png"))
        address = decode(page, ".idle-join svg")
        port = live_url.rsplit(":", 1)[1]
        assert re.fullmatch(rf"http://[\w.:\[\]-]+:{port}/", address), address
        assert address in page.inner_text(".idle-join")
        host = decode(page, ".idle-host svg")
        assert host == f"{address}host", "the host's code must not carry the sign-in token"
        side = page.locator(".idle-join svg").bounding_box()
        assert side is not None and side["height"] >= height / 3, "too small to scan"
        found = page.evaluate(MEASURE, [])
        assert too_small(found, height) == [], f"idle TV at {width}"
        ctx.close()
    guest = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    guest.goto(f"{live_url}/?tv=1")
    assert decode(guest, ".idle-join svg") == address
    assert guest.locator(".idle-host").count() == 0, "the host's code on a guest's TV"
    guest.context.close()
