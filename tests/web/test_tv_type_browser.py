"""The TV read from the sofa (3 m): every visible word large enough, in Chromium.

Each game is brought to its moments by replaying a recorded game on a live table, once
for all of its moments (``tv_states.play_on``): a busy moment, the end (Casablanca's
also with its board drawn), and for Crime Lords three Mobs (its Gang War) and a table
of eight, the game's most, as the auction leaves them and as big as a late game's
(``tv_states.crowded_crime_lords``); Illegal with four, five and six players in the
middle of a hand and at its Day of Accounting, in seeded games built from ``moves()``
(``tv_states.random_lines``). The host's TV is shown, so the free seats' join codes
stand beside the table until the end. At 1920×1080 and 1280×720 (one window each,
reloaded at each moment) one ``page.evaluate`` walks every visible text node and takes
its size as drawn: its computed font size times the scale ``static/tv.js`` fitted the
page to. Body text must be at least 28 px at 1080p and the players' names and scores
at least 40 px (two thirds of both at 720p), and ``tv.js`` must not have scaled the page
below 1 (what does not fit is laid out again or left out, never drawn smaller).
Pictures (the Casablanca board, a chart, a QR code) are measured as pictures, not as
text: their SVG text is not walked.

At each moment also: The Nasty 7 uses the whole screen (its pile's count large, the top
card, whose turn, the stacks down to the foot of the screen); no badge runs into the
word before it or wraps into a two-line pill; "Live" covers nothing the table draws; no status sentence is squeezed into a
narrow column nor said again as a bullet under it; a negative amount is written with a
true minus sign ("−67 000 €", as the standing writes it). Screenshots:
``artifacts/screenshots/tv-type-<game>-<record>-<moment>-<width>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.inputs import Command
from companion.table import Table
from tests.browser import BROWSER, SHOTS
from tests.wait import SAFETY
from tests.web.tv_states import (
    CROWD,
    Until,
    crowded_crime_lords,
    play_on,
    random_lines,
    send_lines,
    start_random,
    still_table,
)
from web.auth import host_token

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER

SIZES = [(1920, 1080), (1280, 720)]
BODY_PX, NAME_PX = 28.0, 40.0  # at 1080 px high; scaled with the screen's height

#: (game, record, the moments measured, in the order the record reaches them)
MOMENTS: list[tuple[str, str, list[Until]]] = [
    ("nasty7", "full_game", ["camera", "end"]),
    ("illegal", "three_hand_match", ["loss", "end"]),
    ("casablanca", "full_game", ["announcement", 7, "end"]),
    # the default board, its spaces placed: drawn during the game and at the end
    ("casablanca", "board_moves", [3, "end"]),
    # three Mobs: the auction half done (every Crook without a place yet), an attack's
    # roll, the Gang War
    ("crime_lords", "war_one_hit", [14, "roll", "war"]),
    ("crime_lords", "full_game", ["showdown", "end"]),
]

#: every visible text node outside SVG: its text, its size as drawn, and whether it is a
#: name or a score (a player's name standing alone, a total on the score list, the
#: number of a Crime Lords Mob's score)
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
    const name = names.includes(text) || !!el.closest('.tv-side .totals, .tv-mob .score b');
    out.push({text: text.slice(0, 60), px: Math.round(px * 10) / 10, name});
  }
  return out;
}"""

#: badges drawn against the word before them ("Ben" "turn" "out" read as one), and
#: badges wrapped into a pill two lines high ("Protection" over "Money")
BADGES = """() => {
  const out = [];
  for (const tag of document.querySelectorAll('main .tag')) {
    const r = tag.getBoundingClientRect();
    if (!r.width || !tag.checkVisibility()) continue;
    if (r.height > 1.9 * parseFloat(getComputedStyle(tag).fontSize))
      out.push('two lines: ' + tag.textContent.trim());
    const before = tag.previousElementSibling;
    if (!before) continue;
    const q = before.getBoundingClientRect();
    if (Math.abs(q.top - r.top) < r.height / 2 && r.left - q.right < 4)
      out.push('touching: ' + before.textContent.trim() + '|' + tag.textContent.trim());
  }
  return out;
}"""

#: what "Live" (#conn, fixed in a corner) is drawn over: a line of text of the page, a
#: picture, a box with a background or a border
UNDER_LIVE = """() => {
  const conn = document.getElementById('conn');
  const c = conn.getBoundingClientRect();
  if (!conn.textContent.trim() || !c.width) return ['"Live" is not shown'];
  const over = r => r.width >= 1 && r.height >= 1 && r.left < c.right && c.left < r.right
    && r.top < c.bottom && c.top < r.bottom;
  const out = [];
  for (const e of document.querySelectorAll('main *')) {
    if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
    if (!e.checkVisibility({visibilityProperty: true})) continue;
    const cs = getComputedStyle(e);
    const painted = /^(svg|img|canvas)$/i.test(e.tagName)
      || !/rgba\\(0, 0, 0, 0\\)|transparent/.test(cs.backgroundColor)
      || parseFloat(cs.borderTopWidth) + parseFloat(cs.borderLeftWidth) > 0;
    if (painted && over(e.getBoundingClientRect()))
      out.push(e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 40));
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      if ([...range.getClientRects()].some(over)) out.push('text: ' + n.textContent.trim().slice(0, 40));
    }
  }
  return out;
}"""

#: each status sentence of the table: its text, its width, and the bullets under it
STATUSES = """() => [...document.querySelectorAll('#live .status')]
  .filter(e => !e.closest('.seats') && e.checkVisibility())
  .map(e => ({text: e.innerText, width: e.getBoundingClientRect().width,
              bullets: [...(e.parentElement.querySelectorAll('.instructions li'))]
                .filter(li => li.checkVisibility()).map(li => li.innerText)}))"""


def too_small(found: list[dict[str, Any]], height: int) -> list[str]:
    """The words drawn under the targets at a screen ``height`` px high."""
    k = height / 1080
    return [f"{f['text']!r} {f['px']} px (needs {(NAME_PX if f['name'] else BODY_PX) * k:.1f})"
            for f in found if f["px"] < (NAME_PX if f["name"] else BODY_PX) * k - 0.05]


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def said_twice(status: str, bullet: str) -> bool:
    """Whether ``bullet`` says what ``status`` says ("Cy chooses the business the
    Protection Money takes." and "Cy: choose the business the Protection Money takes")."""
    a, b = words(status), words(bullet)
    return len(a & b) >= 0.7 * len(a | b)


#: a negative amount of money written with a hyphen ("-67 000 €", "-$1,300")
HYPHEN_AMOUNT = re.compile(r"(?<![\w\u2212])-\s?(\$\s?\d|\d[\d\s\u202f\u00a0.,]*\s?€)")


#: The Nasty 7's screen: the pile's count, the top card, whose turn, where the stacks end
NASTY7_SCREEN = """() => {
  const pile = document.querySelector('.nasty7 .facts > div:first-child .n');
  const top = document.querySelector('.nasty7 .card-face');
  const turn = document.querySelector('.nasty7 .seats > li.turn .tag.turn');
  return {pile: parseFloat(getComputedStyle(pile).fontSize), count: pile.textContent.trim(),
          top: !!top && top.checkVisibility(), turn: !!turn && turn.checkVisibility(),
          bottom: document.querySelector('.nasty7 .seats').getBoundingClientRect().bottom};
}"""


def the_nasty7_uses_the_whole_screen(page: Any, height: int, where: str) -> None:
    """A camera game watched from across the table: the pile's count three times the
    body text or more, the last card played (once there is one) and whose turn it is
    shown (the end has no turn), the stacks down to the foot of the screen (once it used
    only its top 55 %)."""
    seen = page.evaluate(NASTY7_SCREEN)
    assert seen["pile"] >= 3 * BODY_PX * height / 1080, f"{where}: the pile's count {seen}"
    assert seen["top"] == (seen["count"] != "0"), f"{where}: the top card: {seen}"
    over = page.locator(".nasty7 .status.outcome").count() > 0
    assert seen["turn"] != over, f"{where}: whose turn: {seen}"
    assert seen["bottom"] >= 0.85 * height, f"{where}: the stacks end at {seen['bottom']} px"


def tv_windows(browser: Any, live_url: str, state_dir: Path) -> Iterator[tuple[int, int, Any]]:
    """One dark window per TV size, signed in as the host (the join codes show)."""
    for width, height in SIZES:
        page = browser.new_context(viewport={"width": width, "height": height},
                                   color_scheme="dark").new_page()
        page.goto(f"{live_url}/host?token={host_token(state_dir)}")
        page.goto("about:blank")  # the host's page reloads when a game starts
        yield width, height, page


def check_the_tv(page: Any, live_url: str, table: Table, width: int, height: int,
                 shot: str) -> None:
    """Show the TV as the table stands now and check every word of it (see the module)."""
    snap = table.hub.latest()
    page.goto(f"{live_url}/?tv=1")
    page.wait_for_selector("#conn.live")
    page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"tv-type-{shot}-{width}.png"))
    where = f"{shot} at {width}×{height}"
    codes = page.locator("#tv-joins figure").count()
    if snap.outcome is None:  # nobody joined: every seat's code beside the table
        assert codes == len(snap.players), f"{where}: {codes} join codes"
    found = page.evaluate(MEASURE, list(snap.players))
    assert len(found) > 10, f"{where}: the TV shows almost nothing ({found})"
    assert any(f["name"] for f in found), f"{where}: no player's name on the TV"
    scale = float(page.evaluate("document.documentElement.dataset.tvScale"))
    small = too_small(found, height)
    assert small == [], f"{where}: {len(small)} of {len(found)} texts too small to read " \
                        f"from the sofa (drawn at {scale}): {small}"
    assert scale >= 1, f"{where}: tv.js drew the table at {scale} to fit the screen"
    assert page.evaluate(BADGES) == [], f"{where}: badges"
    assert page.evaluate(UNDER_LIVE) == [], f"{where}: \"Live\" is drawn over the table"
    for st in page.evaluate(STATUSES):
        assert st["width"] >= 0.3 * width, f"{where}: {st['text']!r} in a column " \
                                           f"{st['width']:.0f} px wide"
        for bullet in st["bullets"]:
            assert not said_twice(st["text"], bullet), f"{where}: said twice: {st['text']!r}, {bullet!r}"
    text = page.inner_text("#main")
    assert not HYPHEN_AMOUNT.search(text), \
        f"{where}: an amount with a hyphen for its minus: {HYPHEN_AMOUNT.search(text)}"


@pytest.mark.parametrize(("game", "record", "untils"), MOMENTS,
                         ids=[f"{g}-{r}" for g, r, _ in MOMENTS])
def test_every_word_on_the_tv_reads_from_the_sofa(game: str, record: str,
                                                   untils: list[Until], table: Table,
                                                   live_url: str, browser: Any,
                                                   state_dir: Path) -> None:
    if game not in games.available():
        pytest.skip(f"{game} is not installed")
    windows = list(tv_windows(browser, live_url, state_dir))
    for until, _ in play_on(table, game, record, untils):
        board = table.hub.latest().public.get("board")
        for width, height, page in windows:
            check_the_tv(page, live_url, table, width, height, f"{game}-{record}-{until}")
            if isinstance(board, dict):  # Casablanca: its board drawn when it can be
                drawn = page.locator(".board svg").is_visible()
                assert drawn == bool(board.get("drawn")), f"{record}: board drawn: {drawn}"
            if game == "nasty7":
                the_nasty7_uses_the_whole_screen(page, height, f"{record}-{until} at {width}")
    for _, _, page in windows:
        page.context.close()


@pytest.mark.parametrize("n", [4, 5, 6])
def test_illegal_with_four_five_and_six_players(n: int, table: Table, live_url: str,
                                               browser: Any, state_dir: Path) -> None:
    """Every tableau side by side, every seat's join code under them: in the middle of a
    hand and at its end (the Day of Accounting, one hand: the match's end), in a seeded
    game built from ``moves()`` alone (no recorded game has five or six players)."""
    if "illegal" not in games.available():
        pytest.skip("illegal is not installed")
    lines = random_lines("illegal", n, seed=n)
    origin = start_random(table, "illegal", CROWD[:n], seed=n)
    windows = list(tv_windows(browser, live_url, state_dir))
    done = 0
    for moment, upto in (("middle", len(lines) // 2), ("end", len(lines))):
        send_lines(table, "illegal", lines[done:upto], origin)
        done = upto
        snap = table.hub.latest()
        assert (snap.outcome is not None) == (moment == "end"), snap.waiting
        for width, height, page in windows:
            check_the_tv(page, live_url, table, width, height, f"illegal-{n}-players-{moment}")
            assert page.locator(".illegal .seats > li").count() == n
            if moment == "end":
                assert "Day of Accounting" in page.inner_text("#main")
    for _, _, page in windows:
        page.context.close()


@pytest.mark.parametrize(("crooks", "rackets"), [(3, 2), (4, 6)],
                         ids=["as-the-auction-leaves-them", "big-mobs"])
def test_eight_mobs_read_from_the_sofa(crooks: int, rackets: int, table: Table,
                                       live_url: str, browser: Any, state_dir: Path) -> None:
    """The game's most Mobs, every seat's join code beside them: after the first
    player's income, and during a recruitment's showdown (the attack's panel too); Mobs
    as the auction leaves them, and Mobs as big as a late game's (four Crooks and six
    Rackets each: 32 of the deck's 36 Crooks, 48 of its 52 Rackets)."""
    engine = games.get("crime_lords")
    players, options, lines = crowded_crime_lords(engine.max_seats, crooks, rackets)
    res = table.submit(Command("start", {"game": "crime_lords", "players": players,
                                         "options": options})).result(SAFETY)
    assert res.accepted, res.reason
    origin = table.clock() - table.now()
    windows = list(tv_windows(browser, live_url, state_dir))
    done = 0
    for moment, n in (("turn", len(lines) - 1), ("showdown", len(lines))):
        send_lines(table, "crime_lords", lines[done:n], origin)
        done = n
        assert table.hub.latest().waiting["on"] == moment, table.hub.latest().waiting
        for width, height, page in windows:
            check_the_tv(page, live_url, table, width, height,
                         f"crime_lords-8-mobs-{crooks}-crooks-{rackets}-rackets-{moment}")
            assert page.locator(".tv-mob").count() == len(players)
            shown = page.inner_text("#main")
            for name in ("Mom Parker", "Velvet Vera", "Hal", "Evangeline"):
                assert name in shown, f"{name} is not on the TV"
            # eight codes in a band under the table: each still reads as its seat's link
            for seat in (0, 7):
                link = decode(page, f"#tv-joins li:nth-child({seat + 1}) svg")
                assert "/join/" in link, link
    for _, _, page in windows:
        page.context.close()


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
