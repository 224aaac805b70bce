"""The host's sign-in leaves no token in the address bar; a joined seat's code is shown
again only after asking, and the phone that held the seat is told at once (issue 28)."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from companion.table import Table
from tests.web.conftest import as_host, csrf_of, join, start_game
from web.auth import host_token


def test_signing_in_redirects_to_an_address_without_the_token(app: Flask,
                                                              state_dir: Path) -> None:
    c = app.test_client()
    token = host_token(state_dir)
    resp = c.get(f"/host?token={token}")
    assert resp.status_code == 303 and resp.location == "/host"
    assert token not in resp.location and resp.headers["Cache-Control"] == "no-store"
    assert "tc_host=" in resp.headers["Set-Cookie"]
    page = c.get(resp.location)
    assert page.status_code == 200 and token not in page.get_data(as_text=True)
    assert app.test_client().get("/host").status_code == 403  # the cookie is what signs in


def test_a_joined_seats_code_is_shown_again_only_after_asking(app: Flask, table: Table,
                                                              state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"])
    host = as_host(app, state_dir)
    ben = join(app, host, 1)
    panel = host.get("/host").get_data(as_text=True)
    assert len(re.findall(r'href="https?://[^"]+/join/', panel)) == 2  # Ann's and Cy's only
    assert 'href="/host/seat/1/code"' in panel
    ask = host.get("/host/seat/1/code").get_data(as_text=True)
    assert "seat to another phone?" in ask and "Ben" in ask and "/join/" not in ask
    assert ben.get("/seat/1").status_code == 200  # asking changed nothing
    stream = ben.get("/api/seat/1/stream", buffered=False)
    chunks = iter(stream.response)
    assert b"event: snapshot" in next(chunks)
    seq = table.hub.latest().seq
    handed = host.post("/host/seat/1/code", data={"csrf_token": csrf_of(host)})
    assert handed.status_code == 303 and handed.location == "/host/seat/1/code"
    shown = host.get(handed.location).get_data(as_text=True)
    assert "The next phone that scans this code becomes Ben" in shown
    assert re.search(r'href="https?://[^"]+/join/[^"]+"', shown)
    # the phone that held the seat is told at once, with no new snapshot to carry it
    assert next(chunks) == b"event: denied\ndata: {}\n\n"
    stream.close()
    assert table.hub.latest().seq == seq
    page = ben.get("/seat/1")
    assert page.status_code == 403
    assert "Your seat was handed to another phone" in page.get_data(as_text=True)
    ben2 = join(app, host, 1)  # the shown code takes the seat
    assert ben2.get("/seat/1").status_code == 200


def test_a_seat_nobody_joined_shows_its_code_without_asking(app: Flask, table: Table,
                                                            state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"])
    host = as_host(app, state_dir)
    page = host.get("/host/seat/0/code").get_data(as_text=True)
    assert "The next phone that scans this code becomes Ann" in page
    assert host.get("/host/seat/5/code").status_code == 404
    assert app.test_client().get("/host/seat/0/code").status_code == 403
    assert app.test_client().post("/host/seat/0/code").status_code == 403
