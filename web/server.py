"""The production server: cheroot, threaded, writes each SSE event as it is yielded.

cheroot flushes every chunk a WSGI app yields straight to the socket (measured with
``companion bench web``), unlike servers that buffer until enough bytes accumulate.
Each open stream holds one worker thread, so ``threads`` bounds the live phones.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType

from cheroot import wsgi
from flask import Flask

from web.context import state_of

log = logging.getLogger(__name__)


def make_server(app: Flask, host: str, port: int, threads: int) -> wsgi.Server:
    """A cheroot server for ``app`` (not yet listening; ``prepare()`` binds it)."""
    app.debug = False  # never the debugger on a network-facing table
    app.config["DEBUG"] = False
    server = wsgi.Server((host, port), app, numthreads=threads, max=threads,
                         server_name="table-companion", shutdown_timeout=3,
                         request_queue_size=max(64, threads))
    return server


def _closing(app: Flask) -> threading.Event | None:
    st = state_of(app)
    return None if st is None else st.closing


def stop(app: Flask, server: wsgi.Server) -> None:
    """End every live stream, then stop the server (safe twice)."""
    closing = _closing(app)
    if closing is not None:
        closing.set()
    server.stop()


def serve(app: Flask, host: str, port: int, threads: int,
          on_ready: Callable[[], None] | None = None) -> None:
    """Serve ``app`` until SIGTERM or Ctrl-C; ``on_ready()`` once it is listening.

    Raises ``OSError`` when the port cannot be bound (in use, not allowed).
    """
    server = make_server(app, host, port, threads)
    server.prepare()
    previous = None
    if threading.current_thread() is threading.main_thread():
        def _term(signum: int, frame: FrameType | None) -> None:
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGTERM, _term)
    try:
        if on_ready is not None:
            on_ready()
        server.serve()
    except KeyboardInterrupt:
        log.info("stopping the dashboard")
    finally:
        stop(app, server)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
