"""The board page in a phone's browser: add a space, place it, connect it, save it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser import BROWSER, shot, too_wide
from web.auth import host_token
from web.board import saved_board

pytestmark = BROWSER


def test_the_host_draws_a_space_and_a_street_and_saves_the_board(
    live_url: str, phone: Any, state_dir: Path
) -> None:
    page = phone()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    page.goto(f"{live_url}/host/board")
    expect(page.get_by_role("heading", name="The board")).to_be_visible()
    assert too_wide(page) == []
    page.get_by_label("New space's name (up to 40 letters)").fill("Fountain")
    page.get_by_role("button", name="Add the space").click()
    expect(page.locator("#answer")).to_contain_text("Fountain added")
    assert page.get_by_label("Space to place").input_value() == "fountain"
    drawing = page.locator("#board-svg")
    drawing.scroll_into_view_if_needed()
    box = drawing.bounding_box()
    assert box is not None
    drawing.click(position={"x": box["width"] * 0.5, "y": box["height"] * 0.3})
    streets = page.locator("#board-spaces")
    streets.get_by_role("button", name="Fountain").click()
    expect(page.locator("#board-pick")).to_contain_text("Fountain: now tap")
    streets.get_by_role("button", name="Basar").click()
    expect(page.locator("#board-pick")).to_contain_text("Connected: Fountain — Basar")
    expect(page.locator("#board-streets")).to_contain_text("Basar — Fountain")
    shot(page, "casablanca-board-editor")
    with page.expect_response(lambda r: r.url.endswith("/api/board")) as answer:
        page.get_by_role("button", name="Save the board").click()
    assert answer.value.json()["accepted"], answer.value.json()
    board = saved_board(state_dir)
    assert board is not None
    fountain = next(s for s in board["spaces"] if s["name"] == "Fountain")
    assert (round(fountain["x"], 1), round(fountain["y"], 1)) == (0.5, 0.3)
    assert ["basar", "fountain"] in board["streets"]
    assert too_wide(page) == []
