"""The clients of ``bench.web`` (the parent process): phones on one selector thread, the
hostile guest, and the host and seats asking all along."""

from __future__ import annotations

import http.client
import re
import selectors
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

ID_RE = re.compile(rb"id: [0-9a-f]+-(\d+)\n")


def address(i: int) -> str:
    """The loopback address of phone ``i`` (Linux routes all of 127/8 to lo)."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


def connect(port: int, n: int) -> list[socket.socket]:
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                     source_address=(address(i), 0))
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Accept: text/event-stream\r\n\r\n")
        s.setblocking(False)
        socks.append(s)
    return socks


def listen(socks: list[socket.socket], stop: threading.Event,
            arrivals: list[dict[int, float]]) -> None:
    sel = selectors.DefaultSelector()
    tails = [b""] * len(socks)
    for i, s in enumerate(socks):
        sel.register(s, selectors.EVENT_READ, i)
    try:
        while not stop.is_set():
            for key, _ in sel.select(timeout=0.2):
                now = time.monotonic()
                i = key.data
                try:
                    data = socks[i].recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(socks[i])
                    continue
                buf = tails[i] + data
                for m in ID_RE.finditer(buf):
                    arrivals[i].setdefault(int(m.group(1)), now)
                tails[i] = buf[-64:]
    finally:
        sel.close()


class Hostile:
    """One guest on one address trying to hold ``n`` connections: unread streams and
    request heads sent one line a second; it reconnects whatever the server closes."""

    ADDRESS = "127.9.9.9"

    def __init__(self, port: int, n: int) -> None:
        self.port, self.n = port, n
        self.socks: list[tuple[socket.socket, bool]] = []
        self.held_max = 0
        self.stop = threading.Event()
        self.round_done = threading.Event()  # it has tried to hold all it wants once
        self.thread = threading.Thread(target=self._run, name="hostile", daemon=True)

    def _open(self, slow: bool) -> None:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                         source_address=(self.ADDRESS, 0))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" if slow else
                      b"GET /api/stream?html=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            s.setblocking(False)
            self.socks.append((s, slow))
        except OSError:
            pass

    def _alive(self, s: socket.socket) -> bool:
        try:
            return s.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    def _run(self) -> None:
        while not self.stop.is_set():
            kept = []
            for s, slow in self.socks:
                if not self._alive(s):
                    s.close()
                    continue
                if slow:
                    try:
                        s.send(b"X-Slow: 1\r\n")
                    except OSError:
                        s.close()
                        continue
                kept.append((s, slow))
            self.socks = kept
            self.held_max = max(self.held_max, len(kept))
            while len(self.socks) < self.n and not self.stop.is_set():
                before = len(self.socks)
                self._open(slow=len(self.socks) % 2 == 1)
                if len(self.socks) == before:
                    break
            self.round_done.set()
            self.stop.wait(1.0)
        for s, _ in self.socks:
            s.close()


class Probe:
    """The host and every seat asking the server all along: their answer times."""

    def __init__(self, port: int, cookies: Mapping[str, Any]) -> None:
        self.port = port
        self.asks = [("/api/whoami", str(cookies["host"]), "127.2.0.1")] + [
            (f"/api/seat/{n}", str(c), f"127.2.0.{n + 2}")
            for n, c in enumerate(cookies["seats"])]
        self.host_page = ("/host", str(cookies["host"]), "127.2.0.1")
        self.times: dict[str, list[float]] = {"host": [], "seats": [], "page": []}
        self.failed = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="probe", daemon=True)

    def _ask(self, path: str, cookie: str, address: str) -> float | None:
        began = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5,
                                          source_address=(address, 0))
        try:
            conn.request("GET", path, headers={"Cookie": cookie})
            resp = conn.getresponse()
            resp.read()
            ok = resp.status == 200
        except OSError:
            ok = False
        finally:
            conn.close()
        return (time.monotonic() - began) * 1000 if ok else None

    def _run(self) -> None:
        rounds = 0
        while not self.stop.is_set():
            asks = list(self.asks) + ([self.host_page] if rounds % 10 == 0 else [])
            for path, cookie, address in asks:
                ms = self._ask(path, cookie, address)
                if ms is None:
                    self.failed += 1
                else:
                    kind = {"/api/whoami": "host", "/host": "page"}.get(path, "seats")
                    self.times[kind].append(ms)
            rounds += 1
            self.stop.wait(0.1)


__all__ = ["Hostile", "Probe", "address", "connect", "listen"]
