"""Host token, join codes, seat cookies, CSRF and cookie flags."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.table import Table
from tests.web.conftest import as_host, csrf_of, join, join_url, post_json, seat_links, start_game
from web.auth import host_line, host_token


def test_host_pages_need_the_host_token(app: Flask, client: FlaskClient, state_dir: Path) -> None:
    for path in ("/host", "/host/setup", "/host/camera", "/host/record/x.jsonl"):
        assert client.get(path).status_code == 403, path
    assert client.get("/host?token=wrong").status_code == 403
    host = as_host(app, state_dir)
    assert host.get("/host/setup").status_code == 200
    assert "Join codes" not in host.get("/host").get_data(as_text=True)  # no game yet


def test_host_token_file_is_private_and_stable(state_dir: Path) -> None:
    token = host_token(state_dir)
    mode = stat.S_IMODE(os.stat(state_dir / "host_token").st_mode)
    assert mode == 0o600
    assert host_token(state_dir) == token
    line = host_line(state_dir, "0.0.0.0", 8123)
    assert re.fullmatch(r"Host: http://[^/\s:]+:8123/host\?token=" + re.escape(token), line)
    assert host_line(state_dir, "10.1.2.3", 80).startswith("Host: http://10.1.2.3:80/host?token=")


def test_join_code_is_one_time_and_sets_a_strict_cookie(app: Flask, table: Table,
                                                        state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    url = join_url(host, 1)
    phone = app.test_client()
    page = phone.get(url).get_data(as_text=True)
    assert "Join as Ben" in page
    assert phone.post(url).status_code == 403  # no CSRF token
    resp = phone.post(url, data={"csrf_token": csrf_of(phone)})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/seat/1")
    cookie = next(h for h in resp.headers.getlist("Set-Cookie") if h.startswith("tc_seat1="))
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    assert phone.get("/seat/1").status_code == 200
    assert phone.get("/seat/0").status_code == 403
    other = app.test_client()
    assert other.post(url, data={"csrf_token": csrf_of(other)}).status_code == 410
    panel = host.get("/host").get_data(as_text=True)
    assert 1 not in seat_links(panel)  # a joined seat's code only after asking
    assert 'href="/host/seat/1/code"' in panel


def test_cookies_are_secure_over_https(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    c = app.test_client()
    resp = c.get(f"https://table.local/host?token={host_token(state_dir)}")
    cookies = resp.headers.getlist("Set-Cookie")
    assert cookies and all("Secure" in h and "HttpOnly" in h for h in cookies)


def test_seat_cookie_is_bound_to_its_game(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    phone = join(app, host, 0)
    assert phone.get("/api/seat/0").status_code == 200
    start_game(table, ["Dee", "Eve"])
    assert phone.get("/api/seat/0").status_code == 403


def test_every_post_needs_the_csrf_token(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    assert host.post("/api/host/undo", json={}).status_code == 403
    bad = host.post("/api/host/end", json={}, headers={"X-CSRF-Token": "0" * 64})
    assert bad.status_code == 403
    foreign = host.post("/api/host/end", json={}, headers={
        "X-CSRF-Token": csrf_of(host), "Origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert table.hub.latest().game == "tally"  # nothing was ended
    assert post_json(host, "/api/host/end", {}).status_code == 200
    assert table.hub.latest().game is None


def test_debug_can_never_be_switched_on(table: Table, state_dir: Path,
                                        monkeypatch: object) -> None:
    from companion.config import WebConfig
    from web import create_app

    os.environ["FLASK_DEBUG"] = "1"
    try:
        app = create_app(table, web_config=WebConfig(), state_dir=state_dir)
    finally:
        del os.environ["FLASK_DEBUG"]
    assert app.debug is False and app.config["DEBUG"] is False
