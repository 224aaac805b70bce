"""In Chromium at 390×844: the host signs in and the token leaves the address bar; showing
a joined seat's code again asks first, and the phone that held the seat is told at once.
Screenshots: ``artifacts/screenshots/handover-*.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.table import Table
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.web.conftest import start_game
from web.auth import host_token

pytestmark = BROWSER

WAIT_MS = 120_000  # a safety limit only: every wait ends on what the page shows


def _join(phone: Any, link: str, name: str) -> Any:
    page = phone()
    page.goto(link)
    page.get_by_role("button", name=f"Join as {name}").click()
    page.wait_for_url(re.compile(r"/seat/\d+$"), timeout=WAIT_MS)
    page.wait_for_selector("#conn.live", timeout=WAIT_MS)
    return page


def test_the_host_signs_in_and_the_token_leaves_the_address_bar(
        table: Table, live_url: str, phone: Any, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"])
    host = phone()
    token = host_token(state_dir)
    host.goto(f"{live_url}/host?token={token}")
    assert host.url == f"{live_url}/host"
    expect(host.get_by_role("heading", name="Host panel")).to_be_visible()
    host.reload()  # the cookie, not the address, keeps the host signed in
    expect(host.get_by_role("heading", name="Host panel")).to_be_visible()
    shot(host, "handover-host-signed-in-phone")


def test_showing_a_joined_seats_code_asks_and_tells_its_phone(
        table: Table, live_url: str, phone: Any, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"])
    host = phone()
    ben = _join(phone, join_links(host, live_url, state_dir)[1], "Ben")
    host.reload()
    expect(host.locator(".seat-join").nth(1)).to_contain_text("Joined on a phone")
    host.get_by_role("link", name="Show the code again (hand the seat to another phone)").click()
    expect(host.get_by_role("heading", name="Hand Ben's seat to another phone?")).to_be_visible()
    assert host.locator("a[href*='/join/']").count() == 0  # no code before the answer
    assert too_wide(host) == []
    shot(host, "handover-ask-phone")
    host.get_by_role("button", name="Hand the seat over and show the code").click()
    expect(host.get_by_role("heading", name=re.compile("Ben's code"))).to_be_visible()
    expect(host.locator("figure.qr svg")).to_be_visible()
    assert too_wide(host) == []
    shot(host, "handover-code-phone")
    # Ben's phone is told at once, with nothing else happening at the table
    expect(ben.locator("h1")).to_have_text("Your seat was handed to another phone",
                                           timeout=WAIT_MS)
    assert too_wide(ben) == []
    shot(ben, "handover-old-phone-told")
    link = host.locator("a[href*='/join/']").get_attribute("href") or ""
    again = _join(phone, re.sub(r"^https?://[^/]+", live_url, link), "Ben")
    expect(again.locator("#live")).to_be_visible()
