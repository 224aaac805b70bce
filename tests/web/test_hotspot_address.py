"""The address the join codes carry: on the table's own Wi-Fi its IP address, never
``table.local`` (many Android browsers do not resolve ``.local``); on a home network
the address the screen itself was opened at, as before."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from companion.network import HOTSPOT_ADDRESS
from companion.table import Table
from hardware.fake_network import FakeAP, FakeNetworkManager
from web.network import PHONES_ON_HOTSPOT

from .conftest import as_host, start_game, wire_network

HOME = FakeAP("Flat 3", signal=71, password="correct horse")




def idle_address(html: str) -> str:
    found = re.search(r'<span class="idle-address">([^<]+)</span>', html)
    assert found, html
    return found.group(1)


def test_on_the_hotspot_the_codes_carry_the_tables_address(
        app: Flask, table: Table, state_dir: Path, tmp_path: Path) -> None:
    wire_network(app, tmp_path, FakeNetworkManager([HOME], active=None))
    host = as_host(app, state_dir)
    for name, expected in (("table.local", f"http://{HOTSPOT_ADDRESS}/"),
                           ("table.local:8080", f"http://{HOTSPOT_ADDRESS}:8080/"),
                           ("localhost", f"http://{HOTSPOT_ADDRESS}:8080/")):
        tv = host.get("/?tv=1", headers={"Host": name}).get_data(as_text=True)
        assert idle_address(tv) == expected, name
        typed = expected.removeprefix("http://").rstrip("/")
        assert PHONES_ON_HOTSPOT in tv and f"then open {typed}</p>" in tv
    start_game(table)
    panel = host.get("/tv/joins").get_data(as_text=True)  # the host signed in on localhost
    assert PHONES_ON_HOTSPOT in panel
    assert f"http://{HOTSPOT_ADDRESS}:8080/join/" in panel


def test_on_a_home_network_the_codes_keep_the_screens_address(
        app: Flask, state_dir: Path, tmp_path: Path) -> None:
    wire_network(app, tmp_path, FakeNetworkManager([HOME], profiles=["Flat 3"],
                                                      active="Flat 3"))
    host = as_host(app, state_dir)
    tv = host.get("/?tv=1", headers={"Host": "table.local:8080"}).get_data(as_text=True)
    assert idle_address(tv) == "http://table.local:8080/"
    assert PHONES_ON_HOTSPOT not in tv  # with Internet, nothing to say
