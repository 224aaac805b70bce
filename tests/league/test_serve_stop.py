"""The league's server closes every connection when it stops, keep-alive ones included.

A browser keeps its connection open between pages. ``HTTPServer.stop()`` alone closes
only the listening socket, so such a connection outlived the server and was left to
the garbage collector (pytest then reported an unclosed socket in whatever test ran
next). Here a client holds a keep-alive connection open while the server stops: once
``serve`` has returned, the server's end must already be closed, which the client sees
as the end of the stream.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from tests.league.conftest import Clock


def test_a_keep_alive_connection_is_closed_when_the_league_stops(
        league_dsn: str, tmp_path: Path) -> None:
    from league.app import create_app
    from league.db import open_pool
    from league.server import serve

    pool = open_pool(league_dsn, size=2)
    app = create_app(pool, tmp_path / "league", clock=Clock(), testing=True)
    ports: list[int] = []
    ready, done = threading.Event(), threading.Event()

    def on_ready(port: int) -> None:
        ports.append(port)
        ready.set()

    thread = threading.Thread(target=serve, args=(app, "127.0.0.1", 0, 2),
                              kwargs={"on_ready": on_ready, "stop": done}, daemon=True)
    thread.start()
    try:
        assert ready.wait(120), "the league never started listening"
        with socket.create_connection(("127.0.0.1", ports[0])) as client:
            client.settimeout(120)  # only a failure waits this long
            client.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: league\r\n\r\n")
            first = client.recv(65536)
            assert first.startswith(b"HTTP/1.1 "), first[:80]
            done.set()
            thread.join(120)
            assert not thread.is_alive(), "the league did not stop"
            rest = b""
            while chunk := client.recv(65536):  # the rest of the answer, then the end
                rest += chunk
            assert chunk == b""
    finally:
        done.set()
        thread.join(120)
        pool.close()
