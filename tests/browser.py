"""Real Chromium for browser tests: the one place that launches it.

Fixtures (registered by ``tests/conftest.py``): ``playwright`` and ``browser`` (one
Playwright and one Chromium per test process: per pytest-xdist worker, launched on first
use; each test gets fresh contexts), ``phone``
(a factory of 390×844 phones, each its own cookies) and ``tv`` (a factory of 1280×800
tablets/TVs). Helpers: ``shot(page, name)`` writes ``artifacts/screenshots/<name>.png``;
``join_links`` reads the seats' join links off the host panel; ``too_wide`` lists the
elements wider than the viewport; ``BROWSER`` marks a module as needing Chromium.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from web.auth import host_token

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1280, "height": 800}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: a Chromium already running elsewhere, reached over the DevTools protocol
#: (``http://127.0.0.1:9222``): the phones of an emulated arm64 root, where Chromium
#: itself cannot run (``scripts/arm64-test.sh``, docs/dev/arm64.md). The pages it opens
#: are still served by the code under test; only the browser is elsewhere, as a real
#: table's phones are.
REMOTE = os.environ.get("COMPANION_TEST_CHROMIUM_CDP", "")

#: how long a browser test waits for a condition before calling it hung (never a deadline
#: the test is about: every wait is on something the page shows)
SAFETY_MS = 180_000

#: how long closing a test's browser windows may take before Chromium is called hung.
#: On a loaded machine Chromium now and then never answers the close of a browser
#: context (it hung one CI run for the whole 600 s test timeout, in teardown, after the
#: test had passed; playwright#5273, tracker-radar-collector#88): Chromium is then ended,
#: and the next test launches it again. A safety net, never a deadline a test is about.
CLOSE_SAFETY_S = 120.0

log = logging.getLogger(__name__)

#: ``pytestmark = BROWSER`` in a module of browser tests
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not REMOTE,
                       reason="needs Debian's chromium at /usr/bin/chromium (apt-get install "
                              "chromium)"),
]


def launch(p: Any) -> Any:
    """Chromium for the tests: Debian's, started here, or the ``REMOTE`` one."""
    if REMOTE:
        return p.chromium.connect_over_cdp(REMOTE)
    return p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)


class Chromium:
    """The test process's Chromium: launched on first use, and again if a test had to end it.

    Tests use it as Playwright's ``Browser`` (``new_context`` and the rest pass through).
    ``new_context`` launches Chromium again once if it ended under it (the safety net
    below ends every Chromium of the test process, this one too, and Playwright may not
    have seen it go yet): a new context is where a test begins, so nothing a test checks
    is retried.
    """

    def __init__(self, playwright: Any) -> None:
        self._p = playwright
        self._b: Any = None

    def _browser(self) -> Any:
        if self._b is None or not self._b.is_connected():
            self._b = launch(self._p)
        return self._b

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser(), name)

    def new_context(self, **options: Any) -> Any:
        from playwright.sync_api import Error

        try:
            return self._browser().new_context(**options)
        except Error as err:  # Chromium ended: launched again, once
            log.warning("Chromium had ended (%s): launching it again", err)
            self._b = None
            return self._browser().new_context(**options)

    def close_context(self, ctx: Any) -> None:
        """Close ``ctx``; if Chromium does not answer within ``CLOSE_SAFETY_S``, end it."""
        _closed_or_ended(ctx)

    def end(self) -> None:
        if self._b is not None and self._b.is_connected():
            _closed_or_ended(self._b)


def _closed_or_ended(thing: Any) -> None:
    """``thing.close()``, with Chromium ended if it does not answer in ``CLOSE_SAFETY_S``."""
    timer = threading.Timer(CLOSE_SAFETY_S, _end_chromium)
    timer.daemon = True
    timer.start()
    try:
        thing.close()
    except Exception as err:  # ended by the timer: the windows went with Chromium
        log.warning("Chromium did not close a test's windows; it was ended (%s)", err)
    finally:
        timer.cancel()


def _end_chromium() -> None:
    """Kill the Chromium processes this test process started (never one by name)."""
    import psutil

    log.warning("Chromium hung closing a test's windows for %.0f s: ending it", CLOSE_SAFETY_S)
    for proc in psutil.Process().children(recursive=True):
        try:
            if "chrom" in proc.name().lower():
                proc.kill()
        except psutil.Error:
            pass


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, started once per test process (per xdist worker)."""
    from playwright.sync_api import expect, sync_playwright

    # a safety net, not a deadline: Playwright waits for what the test expects, and a
    # loaded machine (CI keeps the CPU busy on purpose; a Pi under emulation) may take long
    expect.set_options(timeout=SAFETY_MS)
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Chromium]:
    """One Chromium per test process (per xdist worker): launching it costs seconds, and
    every test still gets its own contexts (cookies, storage), closed after the test."""
    chromium = Chromium(playwright)
    yield chromium
    chromium.end()


# Playwright's sync API runs its asyncio loop in a greenlet of the main thread, so while
# the worker's Playwright lives, asyncio sees that loop as running in the main thread:
# a later test that calls asyncio.run() (the league bench) would be refused. Around
# every phase of a test that does not use Playwright, the loop is set aside and put back
# afterwards. With the loop set aside, a call into Playwright breaks its driver's
# connection (a test that asked for ``phone`` in its body, unmarked, broke every later
# browser test of its worker): every browser test must be marked ``browser``. Not in a
# teardown that may end the session's fixtures (the last test of the worker): there
# Playwright itself stops, and it needs its loop.
def _uses_playwright(item: pytest.Item) -> bool:
    """Marked ``browser`` (a test may ask for ``phone`` or ``tv`` by name, in its body,
    where its fixture names do not show it), or asking for Playwright's fixtures."""
    return (item.get_closest_marker("browser") is not None
            or "playwright" in getattr(item, "fixturenames", ()))


@contextlib.contextmanager
def loop_set_aside() -> Iterator[None]:
    """The worker's Playwright loop set aside for the block (if it runs), put back after:
    for a block that must not touch it (another Playwright of its own, asyncio.run)."""
    loop = asyncio._get_running_loop()
    if loop is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        if asyncio._get_running_loop() is None and loop.is_running():  # Playwright's, alive
            asyncio._set_running_loop(loop)


@contextlib.contextmanager
def _set_aside(item: pytest.Item, when: str, nextitem: pytest.Item | None = None
               ) -> Iterator[None]:
    if _uses_playwright(item) or (when == "teardown" and nextitem is None):
        yield
        return
    with loop_set_aside():
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _set_aside(item, "setup"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _set_aside(item, "call"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    with _set_aside(item, "teardown", nextitem):
        return (yield)


def _pages(browser: Any, viewport: dict[str, int], mobile: bool) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(color_scheme: str = "dark", javascript: bool = True) -> Any:
        ctx = browser.new_context(viewport=viewport, device_scale_factor=2 if mobile else 1,
                                  is_mobile=mobile, has_touch=mobile,
                                  color_scheme=color_scheme, java_script_enabled=javascript)
        ctx.set_default_timeout(SAFETY_MS)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        browser.close_context(ctx)


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[..., Any]]:
    """A factory of phones (390×844): each is its own browser context (its own cookies)."""
    yield from _pages(browser, PHONE, True)


@pytest.fixture
def tv(browser: Any) -> Iterator[Callable[..., Any]]:
    """A factory of tablets / TVs (1280×800)."""
    yield from _pages(browser, TV, False)


def shot(page: Any, name: str) -> None:
    """A full-page screenshot in ``artifacts/screenshots/<name>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def join_links(page: Any, base: str, state_dir: Path) -> list[str]:
    """The seats' join links, read off the host panel (signs ``page`` in as the host)."""
    page.goto(f"{base}/host?token={host_token(state_dir)}")
    hrefs = page.eval_on_selector_all("a[href*='/join/']", "els => els.map(e => e.href)")
    return [re.sub(r"^https?://[^/]+", base, h) for h in hrefs]


def too_wide(page: Any) -> list[str]:
    """Visible elements whose right edge is past the viewport (nothing may be).

    Waits for the page's ``load`` first: an element can be visible while the
    stylesheet that lays it out is still on its way (CI saw the league's
    standings measured unstyled, 672 px wide, right after a link's click)."""
    page.wait_for_load_state("load")
    found: list[str] = page.evaluate("""() => {
      const w = document.documentElement.clientWidth, out = [];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.width && r.right > w + 1 && getComputedStyle(el).visibility !== 'hidden'
            && !el.closest('.scroll-x')) {
          out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                   + (el.className && typeof el.className === 'string'
                      ? '.' + el.className.split(' ').join('.') : '')
                   + ' ' + Math.round(r.right) + 'px');
        }
      }
      return out;
    }""")
    return found
