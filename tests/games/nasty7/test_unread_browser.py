"""The host answers "which card?" for a card the camera saw land but could not read, in
Chromium at 390×844, tapping only visible, labelled buttons (issue 36: a lamp's glare)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.inputs import TABLE, CardLanded
from companion.table import Table
from tests.browser import BROWSER, SHOTS, join_links, shot, too_wide
from tests.web.conftest import act, app, live_url, start_game, table  # noqa: F401 (fixtures)

pytestmark = BROWSER


def _keep(name: str) -> None:
    """A copy of the screenshot for the report (``/tmp/shots-vision``)."""
    out = Path("/tmp/shots-vision")
    out.mkdir(exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", out / f"{name}.png")


def test_the_host_names_a_card_that_landed_unread(table: Table, live_url: str,  # noqa: F811
                                                  phone: Any, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    assert act(table, {"do": "play", "card": "racketeer", "serial": 5}, TABLE).accepted
    at = table.clock() + 0.5
    assert table.submit(CardLanded(at, "pile")).result(300).accepted
    host = phone()
    join_links(host, live_url, state_dir)  # signs the host in, on the host page
    host.wait_for_selector("#conn.live")
    expect(host.locator("#unread-h")).to_contain_text("Landed unread: 1 waiting")
    expect(host.locator("body")).to_contain_text(
        "A card landed on the pile that the camera could not read: which card?")
    shot(host, "nasty7-host-landed-unread")
    _keep("nasty7-host-landed-unread")
    assert too_wide(host) == []
    host.get_by_role("button", name="Which card did Ben play at 0:00?").click()
    host.get_by_role("button", name="Gun", exact=True).click()
    expect(host.locator("#unread-h")).to_have_count(0)
    expect(host.locator("body")).to_contain_text("Gun, booked to Ben")
    shot(host, "nasty7-host-landed-named")
    _keep("nasty7-host-landed-named")
    state = table.session.state if table.session is not None else None
    assert state is not None and state.pile == ("racketeer", "gun") and state.unread == ()


def test_the_host_says_no_card_landed(table: Table, live_url: str,  # noqa: F811
                                      phone: Any, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    assert act(table, {"do": "play", "card": "racketeer", "serial": 5}, TABLE).accepted
    assert table.submit(CardLanded(table.clock(), "pile")).result(300).accepted
    host = phone()
    join_links(host, live_url, state_dir)
    host.wait_for_selector("#conn.live")
    host.get_by_role("button", name="Nothing landed at 0:00").click()
    expect(host.locator("#unread-h")).to_have_count(0)
    state = table.session.state if table.session is not None else None
    assert state is not None and state.pile == ("racketeer",) and state.unread == ()
