"""A phone opens the table of a real ``companion serve --demo``: cards arrive live from
the synthetic camera, and a hesitation penalty shows up on the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.demo_server import ROOT, demo_server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium (apt-get install "
                              "chromium)"),
]


@pytest.fixture
def demo_url(state_dir: Path) -> Iterator[str]:
    with demo_server(state_dir) as server:
        yield server.url


def test_demo_table_on_a_phone(demo_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, is_mobile=True,
                                      color_scheme="dark")
            page: Any = ctx.new_page()
            page.goto(demo_url + "/")
            page.wait_for_selector("#conn.live", timeout=20_000)
            # a card the synthetic camera played reaches the page (pile count above 0)
            expect(page.locator(".facts .n").first).not_to_have_text("0", timeout=30_000)
            page.screenshot(path=str(SHOTS / "demo-card-arrived.png"), full_page=True)
            # the first round ends with a pause longer than 3 s: a hesitation penalty
            expect(page.locator("body")).to_contain_text("hesitated", timeout=40_000)
            page.screenshot(path=str(SHOTS / "demo-hesitation.png"), full_page=True)
            ctx.close()
        finally:
            browser.close()
