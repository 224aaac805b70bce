"""A phone opens the table of a real ``companion serve --demo``: cards arrive live from
the synthetic camera, and a hesitation penalty shows up on the page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import BROWSER, SAFETY_MS, SHOTS
from tests.demo_server import demo_server

pytestmark = [*BROWSER, pytest.mark.slow]


@pytest.fixture
def demo_url(state_dir: Path) -> Iterator[str]:
    with demo_server(state_dir) as server:
        yield server.url


def test_demo_table_on_a_phone(demo_url: str, phone: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    page: Any = phone()
    page.goto(demo_url + "/")
    page.wait_for_selector("#conn.live", timeout=SAFETY_MS)
    # a card the synthetic camera played reaches the page (pile count above 0)
    expect(page.locator(".facts .n").first).not_to_have_text("0", timeout=SAFETY_MS)
    page.screenshot(path=str(SHOTS / "demo-card-arrived.png"), full_page=True)
    # the first round ends with a pause longer than 3 s: a hesitation penalty
    expect(page.locator("body")).to_contain_text("hesitated", timeout=SAFETY_MS)
    page.screenshot(path=str(SHOTS / "demo-hesitation.png"), full_page=True)
