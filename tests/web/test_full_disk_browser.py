"""A full disk, seen on the host's phone: saving the board says so in words and keeps
the old board (issue 28, B4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import BROWSER, SHOTS, shot, too_wide
from tests.full_disk import Disk, disk
from web.auth import host_token
from web.board import saved_board

pytestmark = BROWSER


@pytest.fixture
def on_disk(state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Disk]:
    with disk(state_dir, monkeypatch) as d:
        yield d


def test_saving_the_board_on_a_full_disk_says_so(
    on_disk: Disk, live_url: str, phone: Any, state_dir: Path
) -> None:
    page = phone()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    page.goto(f"{live_url}/host/board")
    expect(page.get_by_role("heading", name="The board")).to_be_visible()
    page.get_by_label("New space's name (up to 40 letters)").fill("Fountain")
    page.get_by_role("button", name="Add the space").click()
    expect(page.locator("#answer")).to_contain_text("Fountain added")
    on_disk.fill()
    with page.expect_response(lambda r: r.url.endswith("/api/board")) as answer:
        page.get_by_role("button", name="Save the board").click()
    assert answer.value.status == 507
    expect(page.locator("#answer")).to_contain_text(
        "Refused: The disk is full, so the board could not be saved (nothing was changed).")
    assert "Free some space" in page.locator("#answer").inner_text()
    assert too_wide(page) == []
    shot(page, "board-full-disk")
    page.locator("#answer").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "board-full-disk-answer.png"))  # what the eye sees
    assert saved_board(state_dir) is None and on_disk.leftovers() == []
