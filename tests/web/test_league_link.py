"""The host page's league link and the table's own statistics (no league running)."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from tests.web.conftest import as_host


def _csrf(client: object, path: str) -> str:
    html = client.get(path).get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert found
    return found.group(1)


def test_only_the_host_joins_a_league(app: Flask, state_dir: Path) -> None:
    guest = app.test_client()
    r = guest.get("/host/league")
    assert r.status_code == 403
    host = as_host(app, state_dir)
    page = host.get("/host").get_data(as_text=True)
    assert "Join a league" in page and "This table's statistics" in page
    assert "Join the league" in host.get("/host/league").get_data(as_text=True)
    no_token = host.post("/host/league/join", data={"url": "http://x", "code": "ABCD2345"})
    assert no_token.status_code == 403


def test_a_league_that_cannot_be_reached_says_so(app: Flask, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    token = _csrf(host, "/host/league")
    r = host.post("/host/league/join", data={"url": "127.0.0.1:1", "code": "ABCD2345",
                                             "csrf_token": token})
    text = r.get_data(as_text=True)
    assert r.status_code == 400 and "cannot be reached" in text
    missing = host.post("/host/league/join", data={"url": "", "code": "",
                                                   "csrf_token": token})
    assert missing.status_code == 400
    assert "address and the join code" in missing.get_data(as_text=True)


def test_statistics_without_games(app: Flask) -> None:
    page = app.test_client().get("/stats").get_data(as_text=True)
    assert "No finished game yet" in page
    r = app.test_client().get("/stats/player?name=Nobody")
    assert r.status_code == 404 and "Nobody of that name" in r.get_data(as_text=True)
