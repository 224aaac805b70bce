"""The live stream: full snapshot on connect, resume by Last-Event-ID, throttle, keep-alive.

Times are the server's injected clock where they matter (``clocked_url``); every wait is
on a condition, so a slow or busy machine passes the same way.
"""

from __future__ import annotations

import threading

from flask import Flask

from companion.table import Table
from tests.web.conftest import FakeClock, act, start_game, wait_for
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


def _when_streaming(app: Flask, n: int, then: object) -> threading.Thread:
    """A thread that runs ``then()`` once ``n`` streams are open."""
    st = app.extensions["table_companion"]

    def run() -> None:
        wait_for(lambda: st.streams >= n)
        then()  # type: ignore[operator]

    t = threading.Thread(target=run)
    t.start()
    return t


def test_resume_sends_only_newer_snapshots(app: Flask, table: Table, live_url: str) -> None:
    start_game(table)
    snap = table.hub.latest()
    adder = _when_streaming(app, 1, lambda: act(table, {"do": "add", "n": 5}))
    status, events, _ = Browser(live_url).stream(
        "/api/stream", lambda ev: len(ev) >= 1, last=f"{snap.epoch}-{snap.seq}")
    adder.join()
    assert status == 200
    assert events[0]["seq"] > snap.seq and events[0]["view"]["total"] == 5
    # a stale id from another run of the table gets the full snapshot at once
    _, events, _ = Browser(live_url).stream("/api/stream", lambda ev: len(ev) >= 1,
                                            last=f"other-{snap.seq}")
    assert events and events[0]["seq"] == table.hub.latest().seq


def _after_first_bytes(then: object) -> tuple[threading.Thread, object]:
    """A thread that runs ``then()`` once the stream has sent its first bytes, and the
    ``until_raw`` that tells it (the stream's start is on the server's clock too)."""
    started = threading.Event()

    def run() -> None:
        assert started.wait(300)
        then()  # type: ignore[operator]

    def seen(raw: str) -> bool:
        if "retry:" in raw:
            started.set()
        return False

    t = threading.Thread(target=run)
    t.start()
    return t, seen


def test_a_burst_is_throttled_to_the_latest(table: Table, clocked_url: str,
                                           clock: FakeClock) -> None:
    start_game(table, ["A", "B"], options={"target": 1000})
    final = {"seq": -1}

    def burst() -> None:  # thirty snapshots while the clock stands still, then it moves on
        for _ in range(30):
            act(table, {"do": "add", "n": 1})
        final["seq"] = table.hub.latest().seq
        clock.advance(2 * stream.MIN_GAP_S)

    burster, seen = _after_first_bytes(burst)
    _, events, _ = Browser(clocked_url).stream(
        "/api/stream", lambda ev: bool(ev) and ev[-1]["seq"] == final["seq"], until_raw=seen)
    burster.join()
    assert events[-1]["seq"] == final["seq"] and events[-1]["view"]["total"] == 30
    assert len(events) == 2  # the first snapshot, then only the latest of the burst


def test_keep_alive_comments(table: Table, clocked_url: str, clock: FakeClock) -> None:
    ticker, seen = _after_first_bytes(lambda: clock.advance(stream.KEEPALIVE_S + 1))
    _, _, raw = Browser(clocked_url).stream(
        "/api/stream", lambda ev: False,
        until_raw=lambda raw: bool(seen(raw)) or ": keep-alive" in raw)
    ticker.join()
    assert raw.count(": keep-alive") == 1


def test_a_keep_alive_every_interval_and_none_between(app: Flask, table: Table) -> None:
    st = app.extensions["table_companion"]
    with app.test_request_context("/api/stream"):
        encode = stream._encoder(st, "public:False", stream.render.public_payload, None)
    push = stream.Push(st, encode, None, "127.0.0.1")
    push.start(0.0)
    snap = table.hub.latest()
    k = stream.KEEPALIVE_S
    sent = [push.poll(snap, t) for t in (k / 2, k, k * 1.5, k * 2, k * 2 + 0.01)]
    assert sent == [None, b": keep-alive\n\n", None, b": keep-alive\n\n", None]


def test_html_fragment_travels_with_the_snapshot(table: Table, live_url: str) -> None:
    start_game(table)
    act(table, {"do": "add", "n": 4})
    _, events, _ = Browser(live_url).stream("/api/stream?html=1", lambda ev: len(ev) >= 1)
    assert 'class="view"' in events[0]["html"] and "Seat 2 to play" in events[0]["html"]


def test_streams_end_when_the_server_closes(app: Flask, table: Table, live_url: str) -> None:
    holder: dict[str, object] = {}

    def listen() -> None:
        holder["result"] = Browser(live_url).stream("/api/stream", lambda ev: False)

    t = threading.Thread(target=listen)
    t.start()
    st = app.extensions["table_companion"]
    wait_for(lambda: st.streams == 1)
    st.closing.set()
    t.join(300)
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
