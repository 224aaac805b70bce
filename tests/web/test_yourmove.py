"""The "your move" card as the server renders it: on top, this seat's moves only, the
host's own, and a plain form per move for a phone without JavaScript."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion import games
from companion.table import Table
from tests.web.conftest import as_host, csrf_of, join, start_game

CARD = re.compile(r"<section class=\"yourmove([^\"]*)\"[^>]*data-moves='([^']*)'")


def card_of(page: str, box: str = "live") -> tuple[str, list[dict[str, Any]]]:
    """The card's classes and moves; the card is the first thing of the live ``box``."""
    found = CARD.search(page)
    assert found, "no card on the page"
    live = page.index(f'id="{box}"')
    assert found.start() > live and "<section" not in page[live:found.start()], \
        "the card is not the first thing of the page's live part"
    moves: list[dict[str, Any]] = json.loads(html.unescape(found.group(2)))
    return found.group(1), moves


needs = pytest.mark.skipif(not {"casablanca", "illegal"} <= set(games.available()),
                           reason="needs the Casablanca and Illegal engines")


@needs
def test_each_phone_holds_its_own_moves_and_the_host_its_own(
        app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="casablanca")
    host = as_host(app, state_dir)
    for seat in range(3):
        page = join(app, host, seat).get(f"/seat/{seat}").get_data(as_text=True)
        classes, moves = card_of(page)
        assert moves and all(m["fixed"].get("seat") == seat for m in moves)
        assert ("act" in classes.split()) == (seat == 0)  # Ann's turn: her card is lit
        assert "Your move" in page if seat == 0 else "Your move" not in page
    _, mine = card_of(host.get("/host").get_data(as_text=True), "host-live")
    assert [m["do"] for m in mine] == ["resolve"] and not mine[0]["allowed"]
    assert "Nothing is announced: there is nothing to confirm." in mine[0]["why"]


@needs
def test_without_javascript_a_move_of_the_card_posts(app: Flask, table: Table,
                                                      state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"], game="illegal")
    ann = join(app, as_host(app, state_dir), 0)
    page = ann.get("/seat/0").get_data(as_text=True)
    form = re.search(r'<form class="act ym-plain" data-do="play"[^>]*>(.*?)</form>', page, re.S)
    assert form and "Play Market Open" in form.group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                             form.group(1)))
    fields = {k: html.unescape(v) for k, v in fields.items()}
    assert json.loads(fields["__extra"]) == {"seat": 0, "card": "market_open"}
    fields["csrf_token"] = csrf_of(ann)
    resp = ann.post("/seat/0/act", data=fields)
    assert resp.status_code == 303
    session = table.session
    assert session is not None and session.batches[-1].action.to_json()["card"] == "market_open"
