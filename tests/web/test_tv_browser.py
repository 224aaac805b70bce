"""The TV view (``/?tv=1``) at 1920×1080 and 1280×720, in Chromium, for every game.

Each game is brought to its moments by replaying a recorded game on a live table: the
start (the join codes), mid-game, the moment the whole table waits on (a protest, a
showdown, a Gang War, an accusation, the reveal) and the end. The page must fit the
screen: never taller nor wider than the viewport, no scrolling. What the TV says must be
what the phones say (the snapshot's ``waiting``). Screenshots:
``artifacts/screenshots/tv-<game>-<moment>-<width>.png``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.table import Table
from tests.browser import BROWSER, SHOTS
from tests.web.test_tv_type_browser import UNDER_LIVE
from tests.web.tv_states import play, still_table
from web.auth import host_token

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER

SIZES = [(1920, 1080), (1280, 720)]

#: (game, moment, record, what the table waits on there: "start", "end" or waiting.on)
MOMENTS = [
    ("nasty7", "start", "full_game", "start"),
    ("nasty7", "mid", "full_game", "camera"),
    ("nasty7", "accusation", "accusation_pending_joined", "ruling"),
    ("nasty7", "end", "full_game", "end"),
    ("illegal", "start", "full_hand", "start"),
    ("illegal", "mid", "three_hand_match", "loss"),
    ("illegal", "reveal", "full_hand", "reveal"),
    ("illegal", "end", "three_hand_match", "end"),
    ("casablanca", "start", "full_game", "start"),
    ("casablanca", "mid", "full_game", "announcement"),
    ("casablanca", "protest", "concessions", "protest"),
    ("casablanca", "end", "full_game", "end"),
    ("crime_lords", "start", "full_game", "start"),
    ("crime_lords", "mid", "full_game", "turn"),
    ("crime_lords", "showdown", "full_game", "showdown"),
    ("crime_lords", "war", "war_log", "war"),
    ("crime_lords", "end", "full_game", "end"),
]




def shot(page: Any, name: str) -> None:
    """What the TV shows (the viewport, never more): ``artifacts/screenshots/<name>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def overflow(page: Any) -> dict[str, float]:
    """How far the page reaches past the viewport (0 when it fits)."""
    found: dict[str, float] = page.evaluate("""() => {
      const d = document.documentElement, m = document.getElementById('main').getBoundingClientRect();
      return {tall: Math.max(d.scrollHeight, m.bottom) - innerHeight,
              wide: Math.max(d.scrollWidth, m.right) - innerWidth,
              scrolled: window.scrollY + window.scrollX};
    }""")
    return found


def overlapping(page: Any) -> list[str]:
    """Regions of the TV drawn over each other: the table, its side column, the codes."""
    found: list[str] = page.evaluate("""() => {
      const sel = ['.tv-grid > .tv-main', '.tv-grid > .tv-side', '#tv-joins:not([hidden])'];
      const boxes = sel.map(s => [s, document.querySelector(s)]).filter(([, e]) => e)
        .map(([s, e]) => [s, e.getBoundingClientRect()]);
      const out = [];
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, r] = boxes[i], [b, q] = boxes[j];
        if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1)
          out.push(a + ' over ' + b);
      }
      return out;
    }""")
    return found


def tv_screen(browser: Any, size: tuple[int, int], live_url: str, state_dir: Path) -> Any:
    """A TV of ``size`` signed in as the host (it shows the join codes)."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              color_scheme="dark")
    page = ctx.new_page()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    return page


def open_tv(page: Any, live_url: str) -> None:
    page.goto(f"{live_url}/?tv=1")
    page.wait_for_selector("#conn.live")
    page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")


@pytest.mark.parametrize(("game", "moment", "record", "until"), MOMENTS,
                         ids=[f"{g}-{m}" for g, m, _, _ in MOMENTS])
def test_the_tv_fits_its_screen(game: str, moment: str, record: str, until: str,
                                table: Table, live_url: str, browser: Any,
                                state_dir: Path) -> None:
    if game not in games.available():
        pytest.skip(f"{game} is not installed")
    play(table, game, record, until)
    snap = table.hub.latest()
    for size in SIZES:
        page = tv_screen(browser, size, live_url, state_dir)
        open_tv(page, live_url)
        shot(page, f"tv-{game}-{moment}-{size[0]}")
        over = overflow(page)
        assert over["tall"] <= 1 and over["wide"] <= 1 and over["scrolled"] == 0, \
            f"{game} {moment} at {size}: past the screen by {over}"
        assert overlapping(page) == [], f"{game} {moment} at {size}"
        assert page.evaluate(UNDER_LIVE) == [], f"{game} {moment} at {size}: \"Live\" over the table"
        text = page.inner_text("#main")
        assert snap.waiting.get("why", "") in text or snap.outcome is not None, \
            f"{game} {moment}: the TV does not say what the table waits for"
        for name in snap.players:
            assert name in text, f"{game} {moment}: {name} is not on the TV"
        codes = page.locator("#tv-joins svg").count()
        if until == "start":  # before the game: a code for every seat, each labelled
            assert codes == len(snap.players)
            for name in snap.players:
                assert page.locator("#tv-joins figcaption", has_text=name).count() == 1
        if snap.outcome is not None:
            assert codes == 0, "the game is over: no join codes"
        scale = float(page.evaluate("document.documentElement.dataset.tvScale"))
        assert scale > 0.45, f"{game} {moment} at {size}: shrunk to {scale:.2f}, unreadable"
        page.context.close()


def test_a_seat_joined_leaves_the_tv_and_a_guest_sees_no_codes(
        table: Table, live_url: str, browser: Any, state_dir: Path) -> None:
    play(table, "casablanca", "full_game", "start")
    tv = tv_screen(browser, SIZES[0], live_url, state_dir)
    open_tv(tv, live_url)
    assert tv.locator("#tv-joins figure").count() == 3
    link = tv.eval_on_selector_all("#tv-joins a, #tv-joins svg title",
                                   "els => els.map(e => e.href || e.textContent)")[0]
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(re.sub(r"^https?://[^/]+", live_url, link))
    phone.get_by_role("button", name="Join as Ann").click()
    phone.wait_for_url(re.compile(r"/seat/0$"))
    # the TV polls its codes: Ann's disappears, Ben's and Cy's stay
    tv.locator("#tv-joins figure").nth(2).wait_for(state="detached")
    assert "Ann" not in tv.inner_text("#tv-joins")
    guest = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    open_tv(guest, live_url)
    assert guest.locator("#tv-joins svg").count() == 0
    for page in (tv, phone, guest):
        page.context.close()


def test_the_tv_never_shows_how_this_works(
        table: Table, live_url: str, browser: Any, state_dir: Path) -> None:
    """Nobody taps a TV: a first-time screen shows the table, never the intro over it."""
    play(table, "illegal", "full_hand", "start")
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    open_tv(page, live_url)  # a screen that has never seen the intro (empty localStorage)
    assert page.locator("#intro").count() == 0
    assert "How this works" not in page.inner_text("body")
    page.context.close()


def test_a_phone_explains_once_under_the_move_card_and_never_how_to_join(
        table: Table, live_url: str, browser: Any, state_dir: Path) -> None:
    play(table, "casablanca", "full_game", "start")
    host = tv_screen(browser, SIZES[0], live_url, state_dir)
    link = host.eval_on_selector_all("a[href*='/join/']", "els => els.map(e => e.href)")[0]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True).new_page()
    phone.goto(re.sub(r"^https?://[^/]+", live_url, link))
    phone.get_by_role("button", name="Join as Ann").click()
    intro = phone.get_by_role("dialog", name=re.compile("How this works"))
    intro.wait_for()
    phone.wait_for_selector("#conn.live")
    assert "1 of 3" in intro.inner_text()
    shot(phone, "phone-casablanca-intro")
    words = phone.eval_on_selector_all("#intro [data-step]", "els => els.map(e => e.textContent)")
    assert len(words) == 3
    for step in words:  # Ann is seated: nothing about joining
        assert not re.search(r"\bjoin|\bscan", step, re.I), step
    card = phone.locator(".yourmove").first.bounding_box()
    box = intro.bounding_box()
    assert card is not None and box is not None
    assert box["y"] + box["height"] <= card["y"] or card["y"] + card["height"] <= box["y"], \
        f"the intro {box} covers the your-move card {card}"
    phone.get_by_role("button", name="Skip").click()  # one tap
    assert phone.locator("#intro").is_hidden()
    phone.reload()
    phone.wait_for_selector("#conn.live")
    assert phone.locator("#intro").is_hidden()  # once per phone
    for page in (host, phone):
        page.context.close()


@pytest.mark.parametrize("game", ["nasty7", "illegal", "casablanca"])
def test_from_the_host_page_to_the_first_turn_in_five_taps(
        game: str, table: Table, state_dir: Path, browser: Any) -> None:
    """The host, on the TV or laptop, starts the configured game and shows the TV view:
    every tap counted, names left to the game ("Player 1"...)."""
    from companion.config import WebConfig
    from web import create_app
    from web.server import make_server, stop

    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                     testing=True, game=game)
    server = make_server(app, "127.0.0.1", 0, 24)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.bind_addr[1]}"
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(f"{url}/host?token={host_token(state_dir)}")
        taps = 0
        for name, role in (("Set up a game", "link"), ("Start the game", "button"),
                           ("TV view", "link")):
            page.get_by_role(role, name=name).click()
            taps += 1
            if name == "Start the game":
                page.wait_for_url(re.compile(r"/host$"))
        page.wait_for_selector("#conn.live")
        snap = table.hub.latest()
        assert snap.game == game and snap.waiting is not None
        assert snap.waiting["seats"], f"{game}: the table does not wait for a player yet"
        assert snap.waiting["why"] in page.inner_text("#live")
        assert page.locator("#tv-joins svg").count() == len(snap.players)
        shot(page, f"tv-{game}-after-{taps}-taps")
        assert taps <= 5
        page.context.close()
    finally:
        stop(app, server)
        thread.join(10)


@pytest.fixture
def camera_before_a_game(state_dir: Path) -> Iterator[tuple[str, Any]]:
    """A table with no game yet and a real camera pipeline (synthetic camera, the real
    decoder, lockstep frames, one fake clock): two cards on the pile under a lamp's glare
    spot, as the host lays them for the pre-game check. Yields the URL and a function
    that decodes the frames up to a time."""
    from companion.config import TrackingConfig, ZonesConfig
    from companion.decks import resolve_tag
    from companion.demo import demo_payloads
    from companion.store import SqliteStore
    from tests.camera_rig import Clock, GatedCamera, dashboard
    from vision.decoding import default_decoder
    from vision.pipeline import VisionPipeline
    from vision.synthetic import CardPlay, Patch, SyntheticTable

    pile = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]
    cards = demo_payloads("nasty7")["racketeer"]
    plays = [CardPlay(cards[0], at=0.5, zone="pile", tag_px=110, angle=0.0),
             CardPlay(cards[1], at=1.5, position=(0.45, 0.45), tag_px=110, angle=0.0)]
    clock = Clock()
    store = SqliteStore.in_state_dir(state_dir)
    table = Table(store, clock=clock)
    table.start()
    feed = SyntheticTable([], plays, width=960, height=540, fps=10.0, seed=3, zones={"pile": pile},
                          realtime=False, clock=clock,
                          patches=[Patch("glare", 0.0, 60.0, (0.62, 0.66), 0.07)])
    camera = GatedCamera(feed, 10.0)
    pipeline = VisionPipeline(camera, default_decoder(), TrackingConfig(),
                              ZonesConfig(polygons={"pile": pile}), lambda event: None,
                              resolve=resolve_tag, clock=clock, lockstep=True)
    pipeline.start()

    def run_until(t: float) -> None:
        camera.run_until(t)
        clock.now = t

    try:
        with dashboard(table, pipeline, state_dir) as url:
            yield url, run_until
    finally:
        camera.close()
        pipeline.stop()
        table.stop()
        store.close()


def test_before_a_game_the_tv_shows_the_camera_check_with_its_fixes(
        camera_before_a_game: tuple[str, Any], browser: Any) -> None:
    url, run_until = camera_before_a_game
    run_until(3.0)
    for size in SIZES:
        page = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                   color_scheme="dark").new_page()
        page.add_init_script("localStorage.setItem('tc-intro-nasty7', 'seen')")
        page.goto(f"{url}/?tv=1")  # a guest's TV: the check is no secret
        box = page.locator("#tv-check")
        box.locator("#check-list li").first.wait_for()
        text = box.inner_text()
        assert "Camera check" in text and "Fix the red lines before playing." in text
        for label in ("Light", "Glare", "Reads", "Code size"):
            assert label in text, f"{label} is not on the TV"
        assert "of the pile: tilt or move the lamp until it is gone." in text
        assert "100% of the codes in view are read." in text
        levels = box.locator("#check-list li").evaluate_all(
            "els => els.map(e => e.className)")
        assert "cc-line red" in levels and len(levels) == 4
        page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")
        shot(page, f"tv-camera-check-{size[0]}")
        over = overflow(page)
        assert over["tall"] <= 1 and over["wide"] <= 1 and over["scrolled"] == 0, \
            f"the camera check at {size}: past the screen by {over}"
        assert float(page.evaluate("document.documentElement.dataset.tvScale")) > 0.45
        assert not re.search(r"\bseat \d|\{|Traceback", text)
        page.context.close()


def test_during_a_game_the_tv_shows_no_camera_check(table: Table, live_url: str,
                                                     browser: Any) -> None:
    play(table, "nasty7", "full_game", "camera")
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.add_init_script("localStorage.setItem('tc-intro-nasty7', 'seen')")
    open_tv(page, live_url)
    assert page.locator("#tv-check").count() == 0
    page.context.close()
