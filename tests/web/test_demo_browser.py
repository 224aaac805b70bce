"""A phone opens the table of a real ``companion serve --demo``: cards arrive live from
the synthetic camera, and a hesitation penalty shows up on the page."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--demo", "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        env={**os.environ, "TABLE_COMPANION_STATE": str(state_dir)},
    )
    try:
        assert proc.stdout is not None
        line, deadline = "", time.monotonic() + 60
        while time.monotonic() < deadline and not line.startswith("Host:"):
            line = proc.stdout.readline()
        assert line.startswith("Host:"), "companion serve --demo did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        finally:
            if proc.stdout:
                proc.stdout.close()


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
