"""The demo says it is one (host page and TV); the setup page starts from the config's
player names, never from its placeholders ("Seat 1")."""

from __future__ import annotations

from pathlib import Path

from companion.config import WebConfig
from companion.table import Table
from tests.web.conftest import as_host
from web.app import create_app

BANNER = "no camera is connected, so a"


def test_the_demo_says_so_on_the_host_page_and_the_tv(table: Table, state_dir: Path) -> None:
    demo = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                      testing=True, demo=True)
    host = as_host(demo, state_dir)
    assert BANNER in host.get("/host").get_data(as_text=True)
    assert BANNER in host.get("/?tv=1").get_data(as_text=True)
    real = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                      testing=True)
    assert BANNER not in as_host(real, state_dir).get("/host").get_data(as_text=True)


def test_the_setup_page_starts_from_the_configs_names(table: Table, state_dir: Path) -> None:
    named = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                       testing=True, players=("Ann", "Ben", "Cy"))
    page = as_host(named, state_dir).get("/host/setup").get_data(as_text=True)
    for name in ("Ann", "Ben", "Cy"):
        assert f'value="{name}"' in page, name
    placeholders = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                              testing=True, players=("Seat 1", "Seat 2", "Seat 3"))
    page = as_host(placeholders, state_dir).get("/host/setup").get_data(as_text=True)
    assert 'value="Seat 1"' not in page
