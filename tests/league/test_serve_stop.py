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

from tests.league.conftest import SAFETY_S, Served


def test_a_keep_alive_connection_is_closed_when_the_league_stops(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as client:
        client.settimeout(SAFETY_S)  # only a failure waits this long
        client.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: league\r\n\r\n")
        first = client.recv(65536)
        assert first.startswith(b"HTTP/1.1 "), first[:80]
        assert served.stop(), "the league did not stop"
        rest = b""
        while chunk := client.recv(65536):  # the rest of the answer, then the end
            rest += chunk
        assert chunk == b""
