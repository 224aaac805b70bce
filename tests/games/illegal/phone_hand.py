"""What Illegal's whole-hand browser tests share: a two-seat table with a camera rig (Ben
deals), and the taps on a phone's "your move" card (one post, accepted, drawn)."""

from __future__ import annotations

import shutil
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser import SHOTS, shot
from tests.camera_rig import Rig, camera_rig


def dealt_table(state_dir: Path) -> AbstractContextManager[Rig]:
    """Ann and Ben at an Illegal table, Ben the dealer, no camera script, no zones."""
    return camera_rig(state_dir, "illegal", ["Ann", "Ben"], {"dealer": 1}, [], {})


def look(page: Any, name: str, folder: Path) -> None:
    """A screenshot ``name`` (artifacts/screenshots), copied to ``folder`` to look at."""
    shot(page, name)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", folder / f"{name}.png")


def card_of(page: Any) -> Any:
    return page.locator("#live .yourmove")


def seen(rig: Rig, page: Any) -> None:
    """The page has drawn the table's latest snapshot (or a later one)."""
    page.wait_for_function("(seq) => Number(document.querySelector('#live').dataset.seen) >= seq",
                           arg=rig.table.hub.latest().seq)


def send(rig: Rig, page: Any, name: str) -> None:
    """Tap the card's button ``name``: one post, accepted, drawn."""
    button = card_of(page).get_by_role("button", name=name, exact=True)
    expect(button).to_be_enabled()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        button.click()
    assert answer.value.json()["accepted"], (name, answer.value.json())
    seen(rig, page)


def hand(rig: Rig, seat: int) -> int:
    """How many cards ``seat`` holds."""
    session = rig.table.session
    assert session is not None
    return int(session.state.seats[seat].hand)
