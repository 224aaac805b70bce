"""The TV page and the setup page without a browser: who sees join codes, which game the
setup page offers first."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from companion.config import WebConfig
from companion.table import Table
from tests.web.conftest import as_host, start_game
from web import create_app


def test_the_tv_shows_join_codes_to_the_host_only(app: Flask, table: Table,
                                                  state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"])
    host = as_host(app, state_dir)
    page = host.get("/?tv=1").get_data(as_text=True)
    assert page.count("<figcaption>") == 2 and "Join the game" in page
    assert host.get("/tv/joins").status_code == 200
    guest = app.test_client()
    assert "Join the game" not in guest.get("/?tv=1").get_data(as_text=True)
    assert "/join/" not in guest.get("/?tv=1").get_data(as_text=True)
    assert guest.get("/tv/joins").status_code == 403


def test_setup_opens_on_the_configured_game(table: Table, state_dir: Path) -> None:
    for game in ("nasty7", "illegal"):
        app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                         testing=True, game=game)
        page = as_host(app, state_dir).get("/host/setup").get_data(as_text=True)
        chosen = re.findall(r'<option value="(\w+)"[^>]*\bselected\b', page)
        assert chosen == [game], chosen
