"""Many phones on raw sockets, each from its own loopback address, read on one selector.

Waits are on conditions (bytes that arrived), with a safety limit of minutes that only
ends a hung test: nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import selectors
import socket
from collections.abc import Callable

from tests.wait import until

SAFETY_S = 300.0


def address(prefix: str, i: int) -> str:
    """Loopback address ``i`` under ``prefix`` ("127.6"): Linux routes all of 127/8 to lo."""
    return f"{prefix}.{i // 250}.{i % 250 + 1}"


def request(path: str, cookie: str = "") -> bytes:
    head = f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    return (head + "\r\n").encode()


class Phones:
    """``n`` connections that each sent ``path``; ``data[i]`` is what phone ``i`` got."""

    def __init__(self, port: int, n: int, path: str = "/api/stream?html=1",
                 prefix: str = "127.6", cookie: str = "") -> None:
        self.socks: list[socket.socket] = []
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                         source_address=(address(prefix, i), 0))
            s.sendall(request(path, cookie))
            s.setblocking(False)
            self.socks.append(s)
        self.data = [bytearray() for _ in self.socks]
        self.closed = [False] * len(self.socks)

    def read_until(self, done: Callable[[Phones], bool], safety: float = SAFETY_S) -> None:
        """Read what arrives until ``done(self)``; AssertionError after ``safety`` s."""
        sel = selectors.DefaultSelector()
        for i, s in enumerate(self.socks):
            if not self.closed[i]:
                sel.register(s, selectors.EVENT_READ, i)

        def read() -> bool:
            if done(self):
                return True
            for key, _ in sel.select(timeout=1.0):  # wakes on data: no sleep needed
                self._read(key.data, sel)
            return False

        try:
            until(read, "the phones to read what they wait for", safety=safety, poll=0)
        finally:
            sel.close()

    def _read(self, i: int, sel: selectors.BaseSelector) -> None:
        try:
            got = self.socks[i].recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            got = b""
        if got:
            self.data[i] += got
        else:
            self.closed[i] = True
            sel.unregister(self.socks[i])

    def events(self, i: int) -> int:
        """How many snapshot events phone ``i`` got."""
        return self.data[i].count(b"event: snapshot\n")

    def has(self, i: int, needle: bytes) -> bool:
        return needle in self.data[i]

    def close(self) -> None:
        for s in self.socks:
            s.close()
