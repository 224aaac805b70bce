"""The TV on the table's own Wi-Fi (hotspot mode), in Chromium at 1920×1080 and 1280×720:
the join codes carry the table's address, not ``table.local`` (many Android browsers do
not resolve ``.local``), and the join screens say what an Android or iPhone player must do,
large enough to read from the sofa. The codes are read off the screen by the project's
own decoder."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from companion.network import HOTSPOT_ADDRESS
from companion.table import Table
from hardware.fake_network import FakeAP, FakeNetworkManager
from hardware.network import NetworkManager
from tests.browser import BROWSER, SHOTS
from tests.web.conftest import start_game, wire_network
from tests.web.test_tv_type_browser import MEASURE, SIZES, decode, too_small
from web.auth import host_token
from web.network import PHONES_ON_HOTSPOT

pytestmark = BROWSER

LOOK = Path("/tmp/shots-illegal")


@pytest.fixture
def hotspot(app: Flask, state_dir: Path, tmp_path: Path) -> NetworkManager:
    """The table is its own Wi-Fi (no home network known: it opens the hotspot)."""
    fake = FakeNetworkManager([FakeAP("Flat 3", 71, password="correct horse")], active=None)
    net = wire_network(app, tmp_path, fake)
    assert net.captive_address() == HOTSPOT_ADDRESS
    return net


def screen(browser: Any, live_url: str, state_dir: Path, width: int, height: int) -> Any:
    """The host's TV at ``width``×``height``, drawn and fitted."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark")
    page = ctx.new_page()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    page.goto(f"{live_url}/?tv=1")
    page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    return page


def look(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    LOOK.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    shutil.copy(SHOTS / f"{name}.png", LOOK / f"{name}.png")


def test_the_idle_tv_on_the_hotspot_gives_the_address_and_says_what_phones_do(
        hotspot: NetworkManager, live_url: str, browser: Any, state_dir: Path) -> None:
    port = live_url.rsplit(":", 1)[1]
    address = f"http://{HOTSPOT_ADDRESS}:{port}/"
    for width, height in SIZES:
        page = screen(browser, live_url, state_dir, width, height)
        look(page, f"tv-idle-hotspot-{width}")
        assert decode(page, ".idle-join svg") == address
        assert address in page.inner_text(".idle-join")
        assert decode(page, ".idle-host svg") == f"{address}host"
        tip = page.locator(".tv-idle .tv-phones")
        expect(tip).to_be_visible()
        expect(tip).to_have_text(PHONES_ON_HOTSPOT)
        expect(page.locator("aside.wifi-tv")).to_contain_text(
            f"then open {HOTSPOT_ADDRESS}:{port}")
        found = page.evaluate(MEASURE, [])
        assert any(f["text"].startswith("Android or iPhone") for f in found)
        assert too_small(found, height) == [], f"idle TV on the hotspot at {width}"
        page.context.close()


def test_the_tv_join_panel_on_the_hotspot(hotspot: NetworkManager, table: Table,
                                          live_url: str, browser: Any,
                                          state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="illegal")
    port = live_url.rsplit(":", 1)[1]
    for width, height in SIZES:
        page = screen(browser, live_url, state_dir, width, height)
        look(page, f"tv-joins-hotspot-{width}")
        panel = page.locator("#tv-joins")
        expect(panel.locator(".tv-phones")).to_have_text(PHONES_ON_HOTSPOT)
        seat = decode(page, "#tv-joins .tv-qrs li:first-child svg")
        assert seat.startswith(f"http://{HOTSPOT_ADDRESS}:{port}/join/"), seat
        found = page.evaluate(MEASURE, ["Ann", "Ben", "Cy"])
        assert too_small(found, height) == [], f"TV join panel on the hotspot at {width}"
        page.context.close()
