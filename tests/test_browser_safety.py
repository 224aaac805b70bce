"""The browser tests' safety net: a Chromium that hangs closing a test's windows is ended
and launched again, so one hung close cannot stop the suite (it once hung a CI run)."""

from __future__ import annotations

from typing import Any

import pytest

import tests.browser as tb
from tests.browser import BROWSER

pytestmark = [
    *BROWSER,
    # the net ends a Chromium this test process started; a remote one (the arm64 root's,
    # reached over the DevTools protocol) is not this process's to end
    pytest.mark.skipif(bool(tb.REMOTE), reason="the Chromium is remote (COMPANION_TEST_"
                       "CHROMIUM_CDP): the safety net ends only a Chromium it started"),
]


class _HangingContext:
    """A context whose close never returns while Chromium lives: it waits on a promise
    that never settles (as Chromium's unanswered close did)."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def close(self) -> None:
        self.page.evaluate("() => new Promise(() => {})")


def test_a_hung_close_ends_chromium_and_the_next_test_gets_a_new_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # its own Playwright, apart from the worker's (whose loop is set aside meanwhile): a
    # driver whose Chromium is ended in the middle of a call may not survive it
    from playwright.sync_api import sync_playwright

    monkeypatch.setattr(tb, "CLOSE_SAFETY_S", 1.0)
    with tb.loop_set_aside(), sync_playwright() as p:
        chromium = tb.Chromium(p)
        first = chromium.new_context()
        page = first.new_page()
        page.set_content("<h1>Before</h1>")
        chromium.close_context(_HangingContext(page))  # returns: the timer ended Chromium
        assert not page.context.browser.is_connected()
        again = chromium.new_context().new_page()  # launched again
        again.set_content("<h1>After</h1>")
        assert again.inner_text("h1") == "After"
        chromium.end()


def test_the_next_test_gets_a_chromium_though_the_net_ended_it(browser: Any) -> None:
    """The net ends every Chromium of the test process: the worker's shared one too."""
    page = browser.new_context().new_page()
    page.set_content("<h1>Before</h1>")
    tb._end_chromium()
    again = browser.new_context().new_page()  # launched again
    again.set_content("<h1>After</h1>")
    assert again.inner_text("h1") == "After"
