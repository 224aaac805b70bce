"""Serving the league: Tornado's HTTP server in front of the Flask app, and the rater.

Three ways a request is answered, so a reader never queues behind a push:

- **the standings pages** (``/`` and ``/?game=...``) straight from memory on the event
  loop: the rater renders them (through the Flask app, headers and all) after each pass
  that changed something, at most once every ``REFRESH_S``;
- **other reads** (``GET``/``HEAD``: players, charts, exports) on their own pool of
  threads;
- **writes** (pushes, joins, admin forms) on another pool of ``threads`` threads.

The rater thread counts and rates new results whenever a push wakes it (and every few
seconds anyway), so no request waits for it (``league.rater``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask
from tornado import httputil
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.netutil import bind_sockets
from tornado.wsgi import WSGIContainer

from companion.wsgi_call import run_wsgi
from league.context import EXTENSION, LeagueState

log = logging.getLogger(__name__)
RATER_PERIOD_S = 5.0
#: the standings pages are rendered again at most this often (seconds)
REFRESH_S = 1.0
READ_THREADS = 4


def standings_urls(st: LeagueState) -> list[str]:
    """The standings pages kept in memory: overall and each game with results."""
    from league import queries

    return ["/"] + [f"/?game={g}" for g in queries.games_played(st.pool)]


def render_pages(app: Flask) -> dict[str, tuple[int, list[tuple[str, str]], bytes]]:
    """Each standings page as Flask answers it: status, headers, body."""
    st: LeagueState = app.extensions[EXTENSION]
    st.pages.clear()
    out = {}
    client = app.test_client()
    for url in standings_urls(st):
        resp = client.get(url)
        if resp.status_code != 200 or "Set-Cookie" in resp.headers:
            continue
        headers = [(k, v) for k, v in resp.headers.items()
                   if k not in ("Server-Timing", "Content-Length")]
        out[url] = (200, headers, resp.get_data())
    return out


def rater_loop(app: Flask, stop: threading.Event, settle_s: float | None = None) -> None:
    """Rate new results and render the standings until ``stop``; a failure is logged
    and retried next time."""
    from league.rater import SETTLE_S

    st: LeagueState = app.extensions[EXTENSION]
    settle = SETTLE_S if settle_s is None else settle_s
    pushed = True  # render the pages once at start
    while not stop.is_set():
        if st.wake.wait(RATER_PERIOD_S):
            st.wake.clear()
            pushed = True  # its game may be new in the standings or playing now
        try:
            changed = st.rate_now(settle, from_rater=True) > 0
            if changed or pushed or st.pages_stale:
                st.pages_stale = pushed = False
                st.fast = render_pages(app)
        except Exception:  # a database hiccup must not end the rater
            log.exception("rating the new results failed; trying again")
        # at most one pass a second: the pushes of that second wait for the next one
        stop.wait(REFRESH_S)


class OneHop(WSGIContainer):
    """Tornado's ``WSGIContainer``, but each request is one task on the executor: the
    app's call and its body together. (Tornado's reads the body in further tasks, which
    queue behind every request that came in meanwhile: in a burst of pushes none was
    answered until all had run.)"""

    async def handle_request(self, request: httputil.HTTPServerRequest) -> None:
        environ = self.environ(request)
        status, headers, body = await IOLoop.current().run_in_executor(
            self.executor, run_wsgi, self.wsgi_application, environ)
        code_text, reason = status.split(" ", 1)
        code = int(code_text)
        out = httputil.HTTPHeaders()
        for key, value in headers:
            out.add(key, value)
        if code != 304 and "Content-Length" not in out:
            out["Content-Length"] = str(len(body))
        assert request.connection is not None
        request.connection.write_headers(httputil.ResponseStartLine("HTTP/1.1", code, reason),
                                         out, chunk=body)
        request.connection.finish()
        self._log(code, request)


class _Closing(HTTPServer):
    """Tornado's HTTP server that knows its open connections, to close them at the end.

    ``HTTPServer.stop()`` closes only the listening socket: a phone's or a browser's
    keep-alive connection would outlive the event loop and be left to the garbage
    collector (an unclosed socket).
    """

    def initialize(self, *args: Any, **kwargs: Any) -> None:
        super().initialize(*args, **kwargs)
        self.streams: weakref.WeakSet[Any] = weakref.WeakSet()

    def handle_stream(self, stream: Any, address: Any) -> None:
        self.streams.add(stream)
        super().handle_stream(stream, address)

    async def close_everything(self) -> None:
        """Stop listening, then close every connection, finished or not."""
        self.stop()
        for stream in list(self.streams):
            stream.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.close_all_connections(), 3)


class Router:
    """Sends each request to the memory, the readers' threads or the writers'."""

    def __init__(self, app: Flask, threads: int) -> None:
        self.st: LeagueState = app.extensions[EXTENSION]
        self.reads = OneHop(app, executor=ThreadPoolExecutor(
            READ_THREADS, thread_name_prefix="league-read"))
        self.writes = OneHop(app, executor=ThreadPoolExecutor(
            threads, thread_name_prefix="league-write"))

    def __call__(self, request: httputil.HTTPServerRequest) -> None:
        if request.method in ("GET", "HEAD"):
            hit = self.st.fast.get(request.uri or "")
            if hit is not None:
                self._answer(request, hit)
            else:
                self.reads(request)
        else:
            self.writes(request)

    @staticmethod
    def _answer(request: httputil.HTTPServerRequest,
                page: tuple[int, list[tuple[str, str]], bytes]) -> None:
        started = time.perf_counter()
        status, headers, body = page
        out = httputil.HTTPHeaders()
        for k, v in headers:
            out.add(k, v)
        out["Content-Length"] = str(len(body))
        out["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        assert request.connection is not None
        request.connection.write_headers(
            httputil.ResponseStartLine("HTTP/1.1", status, "OK"), out,
            chunk=body if request.method == "GET" else None)
        request.connection.finish()


def serve(app: Flask, host: str, port: int, threads: int = 16,
          on_ready: Callable[[int], None] | None = None,
          stop: threading.Event | None = None) -> None:
    """Serve ``app`` on ``host:port`` until ``stop`` is set (or for ever)."""
    st: LeagueState = app.extensions[EXTENSION]
    stop = stop or threading.Event()
    # the event loop answers the standings from memory: it gets the interpreter back
    # from a busy request thread within 1 ms instead of 5
    sys.setswitchinterval(0.001)
    rater = threading.Thread(target=rater_loop, args=(app, stop), name="league-rater",
                             daemon=True)
    rater.start()
    sockets = bind_sockets(port, address=host or None, backlog=1024)

    async def main() -> None:
        server = _Closing(Router(app, threads), xheaders=False, max_body_size=64 * 1024)
        server.add_sockets(sockets)
        if on_ready is not None:
            on_ready(int(sockets[0].getsockname()[1]))
        while not stop.is_set():
            await asyncio.sleep(0.2)
        await server.close_everything()

    try:
        asyncio.run(main())
    finally:
        stop.set()
        st.wake.set()
        rater.join(timeout=10)


__all__ = ["REFRESH_S", "OneHop", "Router", "rater_loop", "render_pages", "serve"]
