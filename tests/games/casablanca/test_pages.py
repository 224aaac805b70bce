"""Casablanca's fragments on the dashboard: board, phone controls, host controls, end screen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask

from companion.inputs import HOST, Source
from companion.table import Table
from tests.web.conftest import act, as_host, join, post_json, start_game
from tests.web.yourmove import card_moves

GAME: list[tuple[int | None, dict[str, Any]]] = [
    (0, {"do": "bribe", "amounts": [{"agent": "red", "amount": 3700},
                                    {"agent": "green", "amount": 600}]}),
    (1, {"do": "bribe", "amounts": [{"agent": "red", "amount": 2900},
                                    {"agent": "green", "amount": 2400}]}),
    (2, {"do": "bribe", "amounts": [{"agent": "blue", "amount": 4400}]}),
    (0, {"do": "move", "agent": "red", "to": "gate", "suitcase": False}),
    (1, {"do": "protest"}),
]


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_phones_offer_labelled_controls_and_keep_amounts_private(
    app: Flask, table: Table, state_dir: Path
) -> None:
    start_game(table, ["Ann", "Ben", "Cy"], game="casablanca")
    host = as_host(app, state_dir)
    phones = [join(app, host, s) for s in range(3)]
    for seat, action in GAME:
        res = act(table, action, Source.of_seat(seat) if seat is not None else HOST)
        assert res.accepted, res.reason
    pages = [phones[s].get(f"/seat/{s}").get_data(as_text=True) for s in range(3)]
    ann, ben, cy = pages
    # Ben protests Ann's move: both may concede or compare; Cy sees what is going on
    for page in (ann, ben):
        assert 'data-do="concede"' in page and 'data-do="compare"' in page
    assert 'data-do="concede"' not in cy and "Ben protests" in text(cy)
    # the move form offers the neighbours of each agent, by name, never free text
    assert '<input id="move-to"' not in ann
    # amounts of other seats never reach a phone
    assert "3,700" in ann and "3,700" not in ben and "3,700" not in cy
    assert "4,400" in cy and "4,400" not in ann
    # the host page has the game controls: compare the open protest
    hostpage = host.get("/host").get_data(as_text=True)
    assert "Compare the bribes now" in hostpage
    # ids are never shown as words
    for page in pages:
        assert "white_hotel" not in text(page) and "ricks_cafe" not in text(page)


def test_the_move_form_and_the_end_screen(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"], game="casablanca")
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    page = ann.get("/seat/0").get_data(as_text=True)
    (red,) = [m for m in card_moves(page) if m["do"] == "move" and m["fixed"].get("agent") == "red"]
    assert red["params"][0]["label"] == "Where does Agent Red go?"
    assert "Gate" in [c["label"] for c in red["params"][0]["choices"]]  # next to the Airport
    assert "<svg" in page and "Basar" in page  # the board is drawn
    refused = post_json(ann, "/api/seat/0/action",
                        {"action": {"do": "move", "agent": "red", "to": "basar"}}).get_json()
    assert not refused["accepted"]
    assert refused["reason"].startswith("Basar is not next to Airport")
    moves: list[tuple[int | None, dict[str, Any]]] = [
        (0, {"do": "bribe", "amounts": [{"agent": "red", "amount": 800}]}),
        (1, {"do": "move", "agent": "red", "to": "gate"}),
        (0, {"do": "move", "agent": "red", "to": "basar"}),
        (1, {"do": "move", "agent": "red", "to": "gate", "suitcase": True}),
        (0, {"do": "move", "agent": "red", "to": "home", "suitcase": True}),
        (None, {"do": "resolve"}),
    ]
    for seat, action in moves:
        res = act(table, action, Source.of_seat(seat) if seat is not None else HOST)
        assert res.accepted, res.reason
    end = app.test_client().get("/").get_data(as_text=True)
    assert "Every bribe sheet, side by side" in end
    assert "<mark><span class=\"amt\">$800</span></mark>" in end  # Ann's deciding amount
    assert "<polyline" in end and "Money bribed over" in end
