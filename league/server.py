"""Serving the league: Tornado's HTTP server in front of the Flask app, and the rater.

Flask runs on a pool of ``threads`` threads (``WSGIContainer`` with an executor); the
rater thread folds new results into the ratings whenever a push wakes it (and every
few seconds anyway), so no request waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from flask import Flask
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.wsgi import WSGIContainer

from league.context import EXTENSION, LeagueState

log = logging.getLogger(__name__)
RATER_PERIOD_S = 5.0


def rater_loop(st: LeagueState, stop: threading.Event) -> None:
    """Rate new results until ``stop``; a failure is logged and retried next time."""
    while not stop.is_set():
        st.wake.wait(RATER_PERIOD_S)
        st.wake.clear()
        try:
            st.rate_now()
        except Exception:  # a database hiccup must not end the rater
            log.exception("rating the new results failed; trying again")


def serve(app: Flask, host: str, port: int, threads: int = 16,
          on_ready: Callable[[int], None] | None = None,
          stop: threading.Event | None = None) -> None:
    """Serve ``app`` on ``host:port`` until ``stop`` is set (or for ever)."""
    st: LeagueState = app.extensions[EXTENSION]
    stop = stop or threading.Event()
    rater = threading.Thread(target=rater_loop, args=(st, stop), name="league-rater",
                             daemon=True)
    rater.start()
    sockets = bind_sockets(port, address=host or None, backlog=1024)

    async def main() -> None:
        container = WSGIContainer(app, executor=ThreadPoolExecutor(threads))
        server = HTTPServer(container, xheaders=False, max_body_size=64 * 1024)
        server.add_sockets(sockets)
        if on_ready is not None:
            on_ready(int(sockets[0].getsockname()[1]))
        while not stop.is_set():
            await asyncio.sleep(0.2)
        server.stop()

    try:
        asyncio.run(main())
    finally:
        stop.set()
        st.wake.set()
        rater.join(timeout=10)


__all__ = ["rater_loop", "serve"]
