"""One phone's open live stream on the server's event loop: written without waiting.

``Live.send`` writes a framed chunk straight to the socket when nothing is queued (no
future, no callback: 500 phones per snapshot), else behind what is queued. Nothing more
is queued behind a phone that has not taken the last write (``backed_up``): it gets the
latest snapshot once it reads again, so a slow or hostile reader costs one event of
memory, not every snapshot of ``write_timeout`` seconds. A phone whose queue has not moved
for ``write_timeout`` seconds stopped reading and its stream ends. Times are the server's
clock (injected, so tests drive them).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from tornado.iostream import StreamClosedError


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body (streams have no length)."""
    return b"%x\r\n" % len(data) + data + b"\r\n"


class Live:
    """One phone's open stream: writes without waiting, ends it when the phone stops
    reading for ``write_timeout`` seconds."""

    def __init__(self, conn: Any, write_timeout: float) -> None:
        self.conn = conn
        self.write_timeout = write_timeout
        self.pending: Any = None
        self.since = 0.0
        self.dead = False

    def backed_up(self, now: float) -> bool:
        """Whether the last write still waits for the phone (then nothing more is sent);
        past ``write_timeout`` the phone stopped reading: ``dead``."""
        stream = self.conn.stream
        if self.dead or stream.closed():
            self.dead = True
            return True
        if not stream.writing() and (self.pending is None or self.pending.done()):
            return False
        if now - self.since > self.write_timeout:
            self.dead = True
        return True

    def send(self, chunk: bytes, now: float) -> None:
        """Write one framed chunk: straight to the socket when nothing is queued (no
        future, no callback: 500 phones per snapshot), else behind what is queued."""
        stream = self.conn.stream
        if self.dead or stream.closed():
            self.dead = True
            return
        if not stream.writing() and (self.pending is None or self.pending.done()):
            try:
                sent = stream.socket.send(chunk)
            except BlockingIOError:
                sent = 0
            except OSError:
                self.dead = True
                return
            if sent == len(chunk):
                return
            chunk = chunk[sent:]
        self._queue(stream.write, chunk, now)

    def write(self, data: bytes, now: float) -> None:
        """Write through the connection (the response head and the first event)."""
        if not self.dead:
            self._queue(self.conn.write, data, now)

    def _queue(self, write: Callable[[bytes], Any], data: bytes, now: float) -> None:
        """``write(data)`` behind what is queued; a phone whose queue has not moved for
        ``write_timeout`` seconds stopped reading: its stream ends."""
        if self.pending is not None and not self.pending.done():
            if now - self.since > self.write_timeout:
                self.dead = True
                return
        else:
            self.since = now
        try:
            self.pending = write(data)
        except StreamClosedError:
            self.dead = True
            return
        self.pending.add_done_callback(_quiet)

    def finish(self) -> None:
        with contextlib.suppress(Exception):
            if not self.dead:
                self.conn.finish()
        with contextlib.suppress(Exception):
            self.conn.stream.close()


def _quiet(fut: Any) -> None:
    """Read a write's outcome so a closed phone is not logged as an unread error."""
    if not fut.cancelled():
        fut.exception()


__all__ = ["Live", "chunk"]
