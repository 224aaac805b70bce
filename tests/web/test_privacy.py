"""Over real HTTP: a seat's secret reaches that seat's phone and nobody else's."""

from __future__ import annotations

import json

from flask import Flask

from companion.table import Table
from tests.web.conftest import seat_links, start_game
from tests.web.http import Browser
from web.auth import host_token

SECRET = "4242"


def _join(base: str, host: Browser, seat: int) -> Browser:
    _, html = host.get("/host")
    paths = seat_links(html)
    phone = Browser(base)
    status, _ = phone.post(paths[seat], form={"csrf_token": phone.csrf()})
    assert status == 200  # followed the 303 to the seat page
    return phone


def _has_secret(events: list[dict[str, object]]) -> bool:
    return any(SECRET in json.dumps(e) for e in events)


def test_a_secret_reaches_its_seat_only(app: Flask, table: Table, live_url: str,
                                        state_dir: object) -> None:
    start_game(table, ["Ann", "Ben"])
    host = Browser(live_url)
    assert host.get(f"/host?token={host_token(state_dir)}")[0] == 200  # type: ignore[arg-type]
    seat0, seat1 = _join(live_url, host, 0), _join(live_url, host, 1)
    anon = Browser(live_url)

    status, body = seat0.post("/api/seat/0/action", {"action": {"do": "secret", "seat": 0,
                                                                  "value": int(SECRET)}})
    assert status == 200, body

    # seat 0 sees it everywhere: the checks below could fail
    assert SECRET in seat0.get("/seat/0")[1]
    assert SECRET in seat0.get("/api/seat/0")[1]
    st, events, _ = seat0.stream("/api/seat/0/stream?html=1", _has_secret)
    assert st == 200 and _has_secret(events)

    for who, phone, own in (("seat 1", seat1, 1), ("anonymous", anon, None)):
        for path in ("/", "/api/state", "/history", "/api/history", "/scores", "/seat/0",
                     "/api/seat/0", "/seat/1", "/api/seat/1", "/host", "/api/whoami"):
            status, text = phone.get(path)
            assert SECRET not in text, f"{who} got the secret from {path}"
            if path.startswith(("/seat/0", "/api/seat/0")) or (own is None and "seat/1" in path):
                assert status == 403, f"{who} got {status} for {path}"
        for path in ("/api/stream", "/api/stream?html=1", "/api/seat/0/stream",
                     "/api/seat/1/stream?html=1"):
            st, events, raw = phone.stream(path, lambda ev: len(ev) >= 1)
            assert SECRET not in raw, f"{who} got the secret from {path}"
            if "seat/0" in path or (own is None and "seat/" in path):
                assert st == 403
            else:
                assert st == 200 and events, f"{who}: no snapshot from {path}"


def test_a_seat_cannot_act_for_another(app: Flask, table: Table, live_url: str,
                                       state_dir: object) -> None:
    start_game(table, ["Ann", "Ben"])
    host = Browser(live_url)
    host.get(f"/host?token={host_token(state_dir)}")  # type: ignore[arg-type]
    seat1 = _join(live_url, host, 1)
    status, body = seat1.post("/api/seat/1/action",
                              {"action": {"do": "secret", "seat": 0, "value": 7}})
    assert status == 409 and "own seat" in json.loads(body)["reason"]
    status, _ = seat1.post("/api/seat/0/action", {"action": {"do": "secret", "value": 7}})
    assert status == 403
