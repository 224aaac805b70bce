"""Bad input gets a clean 4xx, never a 500; unknown keys are refused; retries are once.

Each test reproduces a defect of issue 18 (the app runs with ``testing=True``, so an
unhandled exception fails the test instead of becoming a 500).
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask

from companion.table import Table
from tests.web.conftest import as_host, csrf_of, join, post_json, start_game


def test_a_non_ascii_host_token_is_a_403(app: Flask) -> None:
    c = app.test_client()
    resp = c.get("/host?token=%C3%A9")
    assert resp.status_code == 403


def test_a_non_ascii_csrf_token_is_a_403(app: Flask, table: Table, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    csrf_of(host)
    resp = host.post("/api/host/end", data=b"{}", content_type="application/json",
                     headers={"X-CSRF-Token": "\u00e9t\u00e9"})
    assert resp.status_code == 403


def test_thirty_thousand_brackets_are_a_400(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    resp = host.post("/api/host/action", data="[" * 30000, content_type="application/json",
                     headers={"X-CSRF-Token": csrf_of(host)})
    assert resp.status_code == 400
    assert "nested too deeply" in resp.get_json()["reason"]


def test_nan_and_huge_numbers_are_a_400(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    for body in ('{"action": {"do": "add", "n": NaN}}', '{"action": {"do": "add", "n": 1e999}}',
                 '{"action": {"do": "add", "n": 1e300}}'):
        resp = host.post("/api/host/action", data=body, content_type="application/json",
                         headers={"X-CSRF-Token": csrf_of(host)})
        assert resp.status_code == 400, body
    assert table.history() == []
    history = host.get("/api/history")
    json.loads(history.get_data(as_text=True))  # strict JSON: no NaN anywhere


def test_unknown_top_level_keys_are_refused(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    resp = post_json(host, "/api/host/action", {"action": {"do": "add", "n": 1},
                                                "junk": "x" * 1000})
    assert resp.status_code == 400 and '"junk"' in resp.get_json()["reason"]
    ann = join(app, host, 0)
    resp = post_json(ann, "/api/seat/0/action", {"action": {"do": "add", "n": 1}, "x": 1})
    assert resp.status_code == 400
    assert table.history() == []


def test_a_huge_seed_is_refused_and_the_loop_lives(app: Flask, table: Table,
                                                   state_dir: Path) -> None:
    host = as_host(app, state_dir)
    for seed in ("1e30", "1e300"):
        resp = host.post("/api/host/start", data=f'{{"game": "tally", "seed": {seed}}}',
                         content_type="application/json",
                         headers={"X-CSRF-Token": csrf_of(host)})
        assert resp.status_code in (400, 409)
    assert table.loop_alive()
    ok = post_json(host, "/api/host/start", {"game": "tally", "players": ["A", "B"], "seed": 3})
    assert ok.status_code == 200


def test_a_retried_request_is_already_done(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table)
    host = as_host(app, state_dir)
    body = {"action": {"do": "add", "n": 2}, "request_id": "tap-1"}
    first = post_json(host, "/api/host/action", body)
    again = post_json(host, "/api/host/action", body)
    assert first.status_code == 200 and not first.get_json()["already_done"]
    assert again.status_code == 200 and again.get_json()["already_done"]
    assert table.hub.latest().public["total"] == 2
    by_header = host.post("/api/host/action", json={"action": {"do": "add", "n": 1}},
                          headers={"X-CSRF-Token": csrf_of(host), "X-Request-Id": "tap-2"})
    retried = host.post("/api/host/action", json={"action": {"do": "add", "n": 1}},
                        headers={"X-CSRF-Token": csrf_of(host), "X-Request-Id": "tap-2"})
    assert by_header.get_json()["accepted"] and retried.get_json()["already_done"]
    assert table.hub.latest().public["total"] == 3
    bad = post_json(host, "/api/host/action", {"action": {"do": "add", "n": 1},
                                               "request_id": "no spaces allowed"})
    assert bad.status_code == 400 and "request id" in bad.get_json()["reason"]
