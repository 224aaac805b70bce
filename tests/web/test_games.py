"""Every installed game renders on the table page and on a seat page."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion import games
from companion.inputs import TABLE
from companion.table import Table
from tests.web.conftest import act, as_host, join, start_game
from tests.web.yourmove import card_moves

GAMES = [g for g in ("nasty7", "casablanca", "illegal", "crime_lords") if g in games.available()]


@pytest.mark.parametrize("game", GAMES)
def test_game_pages_render(app: Flask, table: Table, state_dir: Path, game: str) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game=game)
    anon = app.test_client()
    page = anon.get("/")
    assert page.status_code == 200 and games.get(game).title in page.get_data(as_text=True)
    phone = join(app, as_host(app, state_dir), 0)
    seat = phone.get("/seat/0")
    assert seat.status_code == 200 and "only you see this page" in seat.get_data(as_text=True)


@pytest.mark.skipif("nasty7" not in GAMES, reason="The Nasty 7 engine is not installed")
def test_nasty7_table_shows_stacks_and_turn_but_not_the_count(app: Flask, table: Table) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="nasty7")
    for card in ("racketeer", "racketeer", "racketeer"):
        assert act(table, {"do": "play", "card": card}, TABLE).accepted  # the camera's
    html = app.test_client().get("/").get_data(as_text=True)
    assert 'aria-label="35 cards in the stack"' in html
    assert '<li class="turn">' in html and 'class="timer"' in html
    assert "count" not in html.lower()  # the running count (3) is never shown in play


@pytest.mark.skipif("casablanca" not in GAMES, reason="Casablanca engine not installed")
def test_casablanca_phone_announces_a_move_with_its_form(
    app: Flask, table: Table, state_dir: Path
) -> None:
    from tests.web.conftest import as_host, join, post_json, start_game

    start_game(table, ["Ann", "Ben"], game="casablanca")
    host = as_host(app, state_dir)
    ann, ben = join(app, host, 0), join(app, host, 1)
    page = ann.get("/seat/0").get_data(as_text=True)
    mine = [m for m in card_moves(page) if m["do"] == "move" and m["allowed"]]
    assert mine and all("suitcase" in m["fixed"] or "suitcase" in [p["name"] for p in m["params"]]
                        for m in mine)
    assert 'data-do="move"' in page  # without JavaScript: a plain form per move
    theirs = card_moves(ben.get("/seat/1").get_data(as_text=True))
    assert not [m for m in theirs if m["do"] == "move" and m["allowed"]]  # not his turn
    # what the form posts (agent, to, suitcase) is an action the table accepts
    resp = post_json(ann, "/api/seat/0/action",
                     {"action": {"do": "move", "agent": "red", "to": "gate", "suitcase": False}})
    assert resp.status_code == 200 and resp.get_json()["accepted"], resp.get_json()
    assert table.hub.latest().public["pending"] is not None


@pytest.mark.skipif("illegal" not in GAMES, reason="Illegal engine not installed")
def test_illegal_phone_has_forms_for_every_choice(
    app: Flask, table: Table, state_dir: Path
) -> None:
    from tests.web.conftest import as_host, join, post_json, start_game

    start_game(table, ["Ann", "Ben", "Cy"], game="illegal")
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    page = ann.get("/seat/0").get_data(as_text=True)
    moves = card_moves(page)
    allowed = {m["do"] for m in moves if m["allowed"]}
    assert {"play", "discard", "trade"} <= allowed, allowed
    three = [m for m in moves if m["label"] == "Discard three identical cards"]
    assert three and len(three[0]["params"][0]["choices"][0]["value"]) == 3
    for form in ('data-do="play"', 'data-do="discard"'):  # without JavaScript, too
        assert form in page, form
    # the one-card discard form posts a list of one card: the table accepts it
    resp = post_json(ann, "/api/seat/0/action",
                     {"action": {"do": "discard", "cards": ["market_open"]}})
    assert resp.get_json()["accepted"], resp.get_json()
