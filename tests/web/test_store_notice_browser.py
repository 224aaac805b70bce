"""The host is told, on the host page, that a game could not be resumed and what to do
(issue 28, B3): a real Chromium at phone and TV sizes, and the words without a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import expect

from companion.damage import damaged_notice
from companion.store import MemoryStore
from companion.table import Table
from tests.browser import BROWSER, shot, too_wide
from tests.web.conftest import as_host, start_game
from web.auth import host_token

ASIDE = Path("/var/lib/table-companion/events-damaged-2026-11-25-150405.sqlite3")


@pytest.fixture
def table() -> Iterator[Table]:
    """A table whose store was found damaged at start (companion.damage)."""
    t = Table(MemoryStore(), notice=damaged_notice(ASIDE))
    t.start()
    yield t
    t.stop()


def test_the_host_page_says_what_happened_and_what_to_do(
        app: Flask, table: Table, state_dir: Path) -> None:
    page = as_host(app, state_dir).get("/host").get_data(as_text=True)
    assert "A game could not be resumed" in page
    assert "companion export --store " + str(ASIDE) in page
    assert app.test_client().get("/api/state").get_json()["notice"].startswith(
        "A game could not be resumed")
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    page = as_host(app, state_dir).get("/host").get_data(as_text=True)
    assert "A game could not be resumed" not in page  # a new game: the notice is done


@pytest.mark.parametrize("size", ["phone", "tv"])
@BROWSER[0]
@BROWSER[1]
def test_the_notice_on_a_real_browser(live_url: str, state_dir: Path, table: Table,
                                      request: pytest.FixtureRequest, size: str) -> None:
    page = request.getfixturevalue(size)()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    alert = page.get_by_role("alert").filter(has_text="could not be resumed")
    expect(alert).to_be_visible()
    expect(alert.get_by_role("heading", name="A game could not be resumed")).to_be_visible()
    assert ASIDE.name in alert.inner_text()
    assert too_wide(page) == []
    shot(page, f"host-store-damaged-{size}")
    page.get_by_role("link", name="Set up a game").click()
    page.wait_for_url("**/host/setup")
