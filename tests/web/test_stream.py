"""The live stream: full snapshot on connect, resume by Last-Event-ID, throttle, keep-alive."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask

from companion.table import Table
from tests.web.conftest import act, start_game
from tests.web.http import Browser
from web import stream


def test_first_event_is_the_full_snapshot(table: Table, live_url: str) -> None:
    start_game(table)
    act(table, {"do": "add", "n": 3})
    status, events, raw = Browser(live_url).stream("/api/stream", lambda ev: len(ev) >= 1)
    assert status == 200 and raw.startswith("retry: ")
    snap = table.hub.latest()
    assert events[0]["seq"] == snap.seq and events[0]["game"] == "tally"
    assert events[0]["view"]["total"] == 3
    assert f"id: {snap.epoch}-{snap.seq}" in raw


def test_resume_sends_only_newer_snapshots(table: Table, live_url: str) -> None:
    start_game(table)
    snap = table.hub.latest()
    timer = threading.Timer(0.4, lambda: act(table, {"do": "add", "n": 5}))
    timer.start()
    status, events, _ = Browser(live_url).stream(
        "/api/stream", lambda ev: len(ev) >= 1, last=f"{snap.epoch}-{snap.seq}")
    timer.join()
    assert status == 200
    assert events[0]["seq"] > snap.seq and events[0]["view"]["total"] == 5
    # a stale id from another run of the table gets the full snapshot at once
    _, events, _ = Browser(live_url).stream("/api/stream", lambda ev: len(ev) >= 1,
                                            last=f"other-{snap.seq}", timeout=1)
    assert events and events[0]["seq"] == table.hub.latest().seq


def test_a_burst_is_throttled_to_the_latest(table: Table, live_url: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "MIN_GAP_S", 0.3)
    start_game(table, ["A", "B"], options={"target": 1000})
    final = {"seq": -1}

    def burst() -> None:
        time.sleep(0.2)
        for _ in range(30):
            act(table, {"do": "add", "n": 1})
        final["seq"] = table.hub.latest().seq

    t = threading.Thread(target=burst)
    t.start()
    _, events, _ = Browser(live_url).stream(
        "/api/stream", lambda ev: bool(ev) and ev[-1]["seq"] == final["seq"], timeout=6)
    t.join()
    assert events[-1]["seq"] == final["seq"] and events[-1]["view"]["total"] == 30
    assert len(events) < 15  # 31 snapshots in a burst, far fewer events


def test_keep_alive_comments(table: Table, live_url: str,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "KEEPALIVE_S", 0.2)
    monkeypatch.setattr(stream, "POLL_S", 0.1)
    _, _, raw = Browser(live_url).stream("/api/stream", lambda ev: False, timeout=1)
    assert raw.count(": keep-alive") >= 2


def test_html_fragment_travels_with_the_snapshot(table: Table, live_url: str) -> None:
    start_game(table)
    act(table, {"do": "add", "n": 4})
    _, events, _ = Browser(live_url).stream("/api/stream?html=1", lambda ev: len(ev) >= 1)
    assert 'class="view"' in events[0]["html"] and "Seat 2 to play" in events[0]["html"]


def test_streams_end_when_the_server_closes(app: Flask, table: Table, live_url: str) -> None:
    holder: dict[str, object] = {}

    def listen() -> None:
        holder["result"] = Browser(live_url).stream("/api/stream", lambda ev: False, timeout=8)

    t = threading.Thread(target=listen)
    t.start()
    time.sleep(0.3)
    st = app.extensions["table_companion"]
    assert st.streams == 1
    st.closing.set()
    t.join(5)
    assert not t.is_alive() and st.streams == 0


def test_any_wsgi_server_gets_the_same_stream(app: Flask, table: Table) -> None:
    """Without web.server's event loop (here Werkzeug's test client) a thread runs it."""
    start_game(table)
    resp = app.test_client().get("/api/stream?html=1", buffered=False)
    try:
        assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
        first = next(iter(resp.response))
        assert first.startswith(b"retry:") and b"event: snapshot" in first
        assert app.extensions["table_companion"].streams == 1
    finally:
        resp.close()
    assert app.extensions["table_companion"].streams == 0
