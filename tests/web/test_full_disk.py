"""Every kind of save on the dashboard, on a full disk and a read-only card: the person
is told so in words (status 507, never a 500), nothing is claimed as saved, the old file
stays whole and no temporary file is left (issue 28, B4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.atomic import SaveError
from companion.commands.serve import ZONES_FILE, ZoneSaver
from companion.config import WebConfig, ZonesConfig
from companion.decks import Deck
from companion.table import Table
from tests.full_disk import Disk, disk
from tests.web.conftest import as_host, csrf_of, join, post_json, start_game
from web import create_app
from web.board import saved_board

ZONE = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.8]]


class FakePipeline:
    """What ZoneSaver drives: the zones the camera uses now."""

    def __init__(self) -> None:
        self.zones = ZonesConfig(polygons={})

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        self.zones = ZonesConfig(polygons=polygons)

    def status(self) -> dict[str, Any]:
        return {"state": "running"}


@pytest.fixture
def on_disk(state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Disk]:
    with disk(state_dir, monkeypatch) as d:
        yield d


def _board(first: str) -> dict[str, Any]:
    """A small Casablanca board whose centre is called ``first``."""
    names = [first, "Airport", "Hotel", "Police", "Rick's Café"]
    ids = ["basar", "airport", "hotel", "police", "ricks_cafe"]
    spaces = [{"id": i, "name": n, "kind": "centre" if i == "basar" else "homebase",
               "x": 0.1 * (k + 1), "y": 0.5} for k, (i, n) in enumerate(zip(ids, names, strict=True))]
    return {"spaces": spaces, "streets": [["basar", i] for i in ids[1:]]}


def test_a_board_on_a_full_disk_is_not_saved_and_says_why(
        table: Table, state_dir: Path, on_disk: Disk) -> None:
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    host = as_host(app, state_dir)
    assert post_json(host, "/api/board", {"board": _board("Basar")}).get_json()["accepted"]
    on_disk.fill()
    answer = post_json(host, "/api/board", {"board": _board("Bazaar")})
    assert answer.status_code == 507
    body = answer.get_json()
    assert body["accepted"] is False and body["reason"].startswith(
        "The disk is full, so the board could not be saved")
    board = saved_board(state_dir)
    assert board is not None and board["spaces"][0]["name"] == "Basar"
    assert on_disk.leftovers() == []


def test_a_board_reset_on_a_read_only_card_says_so(
        table: Table, state_dir: Path, on_disk: Disk) -> None:
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    host = as_host(app, state_dir)
    assert post_json(host, "/api/board", {"board": _board("Basar")}).get_json()["accepted"]
    on_disk.read_only()
    answer = post_json(host, "/api/board", {"reset": True})
    assert answer.status_code == 507 and "read-only" in answer.get_json()["reason"]
    assert saved_board(state_dir) is not None


def test_camera_zones_on_a_full_disk_change_nothing(
        table: Table, state_dir: Path, on_disk: Disk) -> None:
    pipeline = FakePipeline()
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir,
                     camera=ZoneSaver(pipeline), testing=True)
    host = as_host(app, state_dir)
    assert post_json(host, "/api/camera/zones", {"zones": {"pile": ZONE}}).status_code == 200
    saved = (state_dir / ZONES_FILE).read_text(encoding="utf-8")
    on_disk.fill()
    answer = post_json(host, "/api/camera/zones", {"zones": {"discard": ZONE}})
    assert answer.status_code == 507
    assert "disk is full, so the camera zones could not be saved" in answer.get_json()["reason"]
    assert set(pipeline.zones.polygons) == {"pile"}  # the camera keeps what is on disk
    assert (state_dir / ZONES_FILE).read_text(encoding="utf-8") == saved
    assert on_disk.leftovers() == []


def test_a_seat_code_reissued_on_a_full_disk_is_not_claimed_done(
        table: Table, state_dir: Path, on_disk: Disk) -> None:
    """It said "done" while seats.json was not written, and after a restart the replaced
    phone had its seat back. Now the host is told, and the seat stays with its phone."""
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    start_game(table, ["Ann", "Ben", "Cy"])
    host = as_host(app, state_dir)
    ben = join(app, host, 1)
    on_disk.fill()
    answer = host.post("/host/seat/1/reissue", data={"csrf_token": csrf_of(host)})
    assert answer.status_code == 507
    page = answer.get_data(as_text=True)
    assert "Not saved" in page and "The disk is full, so the seats could not be saved" in page
    assert ben.get("/seat/1").status_code == 200  # nothing changed, as the host was told
    restarted = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    ben.application = restarted
    assert ben.get("/seat/1").status_code == 200  # and the same after a restart
    assert on_disk.leftovers() == []


def test_card_stats_on_a_full_disk_are_not_claimed_saved(
        table: Table, state_dir: Path, on_disk: Disk) -> None:
    Deck.new("crime_lords", "home", state_dir)
    before = (state_dir / "decks" / "home.json").read_bytes()
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    host: FlaskClient = as_host(app, state_dir)
    on_disk.fill()
    answer = host.post("/cards/home/15", data={
        "csrf_token": csrf_of(host), "name": "Bro", "power": "4", "resistance": "2"})
    assert answer.status_code == 507
    assert "disk is full, so the deck home could not be saved" in answer.get_data(as_text=True)
    assert (state_dir / "decks" / "home.json").read_bytes() == before
    assert on_disk.leftovers() == []



def test_first_start_on_a_full_disk_says_so(table: Table, state_dir: Path,
                                             on_disk: Disk) -> None:
    """The host token and the cookie secret are made at the first start: on a full card
    that is a sentence (``companion serve`` prints it), not a half-written token."""
    on_disk.fill()
    with pytest.raises(SaveError, match="The disk is full, so the file could not be saved"):
        create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    assert on_disk.leftovers() == []
    assert not (state_dir / "host_token").exists()
