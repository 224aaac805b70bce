"""The production server in a real process: on_ready, SSE, SIGTERM; `companion host`; bench."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest

from bench import web as bench
from companion.cli import main as cli_main
from tests.wait import until
from tests.web.conftest import FakeClock, wait_for
from tests.web.http import SAFETY_S

ROOT = Path(__file__).resolve().parents[2]

SERVE = """
import sys
from pathlib import Path
from companion.config import WebConfig
from companion.store import MemoryStore
from companion.table import Table
from web import create_app
from web.server import serve
table = Table(MemoryStore()); table.start()
app = create_app(table, web_config=WebConfig(), state_dir=Path(sys.argv[1]))
serve(app, "127.0.0.1", int(sys.argv[2]), 8, on_ready=lambda: print("READY", flush=True))
table.stop()
print("STOPPED", flush=True)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_streams_and_stops_on_sigterm(state_dir: Path) -> None:
    port = _free_port()
    with subprocess.Popen([sys.executable, "-c", SERVE, str(state_dir), str(port)],
                          stdout=subprocess.PIPE, text=True, cwd=ROOT) as proc:
        assert proc.stdout is not None
        try:
            assert proc.stdout.readline().strip() == "READY"
            with urlopen(f"http://127.0.0.1:{port}/api/state", timeout=SAFETY_S) as resp:
                assert json.load(resp)["seq"] >= 1
            stream = urlopen(f"http://127.0.0.1:{port}/api/stream", timeout=SAFETY_S)
            with stream:
                assert stream.headers["Content-Type"].startswith("text/event-stream")
                assert stream.readline().startswith(b"retry:")
                proc.send_signal(signal.SIGTERM)  # an open stream does not hold it up
                assert proc.stdout.readline().strip() == "STOPPED"
                assert proc.wait(SAFETY_S) == 0
        finally:
            if proc.poll() is None:
                proc.kill()


def test_companion_host_prints_the_host_line(state_dir: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 8199\n", encoding="utf-8")
    monkeypatch.setenv("TABLE_COMPANION_CONFIG", str(config))
    assert cli_main(["host"]) == 0
    out = capsys.readouterr().out.strip()
    token = (state_dir / "host_token").read_text().strip()
    assert re.fullmatch(r"Host: http://\S+:8199/host\?token=" + re.escape(token), out)
    assert oct(os.stat(state_dir / "host_token").st_mode & 0o777) == "0o600"


@pytest.mark.slow
def test_bench_delivers_every_snapshot_to_every_client() -> None:
    figures = bench.run(clients=5, events=5, interval=0.05, hostile=10)
    assert figures.clients == 5 and figures.events == 5
    # every phone ends on the last snapshot; on a slow machine some in between may be
    # replaced by a newer one first (latest wins), so only the total is bounded
    assert figures.missing == 0 and 5 <= figures.deliveries <= 25
    assert figures.deliveries + figures.skipped == 25
    assert 0 < figures.median_ms <= figures.p95_ms <= figures.max_ms
    assert figures.camera and 10 < figures.idle_mb <= figures.rss_mb  # with the camera on
    assert 10 < figures.busy_mb <= figures.rss_mb
    assert figures.answers > 0 and figures.answers_failed == 0
    assert 0 < figures.hostile_held_max <= 64  # the guest held no more than its share


# --- limits: no guest can starve the table ---------------------------------------------------


@pytest.fixture
def served(app: Any, monkeypatch: pytest.MonkeyPatch,
           clock: FakeClock) -> Iterator[tuple[Any, int]]:
    """The app on the real server with small limits, on a free loopback port; its
    streams are timed by ``clock``."""
    from web import server as srv

    monkeypatch.setattr(srv, "HEADER_TIMEOUT_S", 0.5)
    monkeypatch.setattr(srv, "MAX_CONNECTIONS_PER_ADDRESS", 5)
    server = srv.make_server(app, "127.0.0.1", 0, 4, clock=clock)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server, server.bind_addr[1]
    srv.stop(app, server)
    thread.join(300)


def _get(port: int, path: str, address: str = "127.0.0.1", cookie: str = "",
         timeout: float = SAFETY_S) -> int:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(address, 0))
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        resp = conn.getresponse()
        resp.read(1024)
        return resp.status
    finally:
        conn.close()


def _closed_by_server(sock: socket.socket, within: float = SAFETY_S) -> bool:
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def _closed_count(socks: list[socket.socket], want: int, within: float = SAFETY_S) -> int:
    """How many of ``socks`` the server closed, waiting until ``want`` are (``within``:
    a safety limit only)."""
    import selectors

    closed: set[int] = set()
    sel = selectors.DefaultSelector()
    for i, s in enumerate(socks):
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, i)

    def read() -> bool:
        if len(closed) >= want:
            return True
        for key, _ in sel.select(timeout=0.2):  # wakes on data: no sleep needed
            try:
                data = socks[key.data].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                closed.add(key.data)
                sel.unregister(socks[key.data])
        return False

    try:
        until(read, f"the server to close {want} connections", safety=within, poll=0)
    finally:
        sel.close()
    return len(closed)


def test_a_huge_request_head_is_refused_and_costs_nothing(served: tuple[Any, int]) -> None:
    _, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1024 * 1024) + b"\r\n\r\n")
        answer = b""
        with contextlib.suppress(OSError):
            answer = s.recv(100)
        assert not answer.startswith(b"HTTP/1.1 200")
    assert _get(port, "/api/state") == 200  # and the server goes on


def test_a_slow_request_head_is_cut_off(served: tuple[Any, int]) -> None:
    _, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # ... and never the end of the head
        assert _closed_by_server(s)  # its head timeout is 0.5 s; minutes are a safety


def test_one_address_cannot_hold_every_connection(served: tuple[Any, int], app: Any,
                                                  state_dir: Path) -> None:
    _, port = served
    hog = []
    for _ in range(12):
        s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                     source_address=("127.0.0.7", 0))
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
        hog.append(s)
    try:
        assert _closed_count(hog, want=12 - 5) >= 12 - 5  # at most 5 held
        # every other phone, and the host, are still served
        assert _get(port, "/api/state", address="127.0.0.8") == 200
        host = f"tc_host={app.extensions['table_companion'].guard.host_cookie()}"
        assert _get(port, "/api/whoami", address="127.0.0.9", cookie=host) == 200
    finally:
        for s in hog:
            s.close()


def test_streams_per_address_are_capped_but_not_the_hosts(
        served: tuple[Any, int], app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from web import stream

    _, port = served
    monkeypatch.setattr(stream, "MAX_STREAMS_PER_ADDRESS", 2)
    opened = []
    try:
        for _ in range(2):
            s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                         source_address=("127.0.0.11", 0))
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 200")
            opened.append(s)
        assert _get(port, "/api/stream", address="127.0.0.11") == 429
        host = f"tc_host={app.extensions['table_companion'].guard.host_cookie()}"
        for _ in range(3):  # the host is never capped
            s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                         source_address=("127.0.0.11", 0))
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\nCookie: "
                      + host.encode() + b"\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 200")
            opened.append(s)
    finally:
        for s in opened:
            s.close()


def test_a_phone_that_stops_reading_is_dropped(served: tuple[Any, int], table: Any,
                                               clock: FakeClock,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """On the server's clock: each snapshot a second after the one before; the phone's
    stream ends once its writes have waited ``WRITE_TIMEOUT_S`` (however long that took
    in real time: it once waited 20 s of wall clock and failed on a busy machine)."""
    from web import server as srv

    monkeypatch.setattr(srv, "WRITE_TIMEOUT_S", 50.0)
    server, port = served
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/stream?html=1 HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        from tests.web.conftest import act, start_game

        wait_for(lambda: server.streams_open == 1)
        start_game(table, ["A", "B"], options={"target": 10**6})
        queued = 0
        for _ in range(100_000):  # a bound on work, not on time: buffers fill long before
            if not server.streams_open:
                break
            queued = max(queued, server.queued_bytes())
            clock.advance(1.0)
            act(table, {"do": "add", "n": 1})  # snapshots pile up unread
        assert server.streams_open == 0
        assert 0 < queued < 8 * 1024  # one event waits for it, not 50 snapshots
    finally:
        s.close()


def test_a_hundred_live_phones_hold_no_thread(served: tuple[Any, int], app: Any) -> None:
    """With one thread per stream, 80 open streams stopped every answer (the host's too)."""
    server, port = served
    phones = []
    try:
        for i in range(100):
            s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                         source_address=(f"127.3.0.{i + 1}", 0))
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            phones.append(s)
        for s in phones:
            assert s.recv(64).startswith(b"HTTP/1.1 200")
        wait_for(lambda: server.streams_open == 100)  # registered just after its head  # a pool of 4 threads serves them all ...
        host = f"tc_host={app.extensions['table_companion'].guard.host_cookie()}"
        assert _get(port, "/api/whoami", address="127.4.0.1", cookie=host) == 200
        assert _get(port, "/api/state", address="127.4.0.2") == 200  # ... and everyone else
    finally:
        for s in phones:
            s.close()


def test_the_host_is_served_while_guests_hold_every_worker(app: Any, table: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Guests' requests that hold all the Flask workers do not keep the host waiting."""
    from web import server as srv

    release, inside = threading.Event(), threading.Semaphore(0)

    def hold() -> str:
        inside.release()
        release.wait(SAFETY_S)
        return "held"

    app.add_url_rule("/test-hold", "test_hold", hold)
    server = srv.make_server(app, "127.0.0.1", 0, 2)  # two workers for the guests
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    port = server.bind_addr[1]
    guests = [threading.Thread(target=_get, args=(port, "/test-hold", f"127.5.0.{i + 1}"),
                               kwargs={"timeout": SAFETY_S}) for i in range(6)]
    try:
        for g in guests:
            g.start()
        assert inside.acquire(timeout=SAFETY_S) and inside.acquire(timeout=SAFETY_S)
        host = f"tc_host={app.extensions['table_companion'].guard.host_cookie()}"
        assert _get(port, "/api/whoami", address="127.5.1.1", cookie=host) == 200
        assert not release.is_set() and all(g.is_alive() for g in guests)
    finally:
        release.set()
        for g in guests:
            g.join(SAFETY_S)
        srv.stop(app, server)
        thread.join(SAFETY_S)
