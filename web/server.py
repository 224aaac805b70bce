"""The production server: Tornado's event loop in front, Flask for pages and the API.

OctoPrint's model. One asyncio event loop (Tornado's HTTP/1.1 server) owns every
connection: it reads request heads and bodies under limits and deadlines, hands each
request to the Flask app on a small thread pool, and writes live streams itself. A live
stream (``/api/stream`` and friends) holds no thread: Flask checks who may see it and
says what to send (``web.stream.Push``); the loop waits for snapshots and writes them.

Why Tornado (measured with ``companion bench web``): with cheroot every open stream held
one worker thread, so 80 phones (or 80 idle sockets of one guest) stopped every answer,
and cheroot has no limit on the size of a request head. Here a stream costs a socket and
a small object, written by one broadcaster per snapshot; Tornado's HTTP/1.1 server bounds
the head and gives it a deadline.

Limits, so that no guest can starve the table:

- request head at most ``MAX_HEADER`` bytes, read within ``HEADER_TIMEOUT_S`` (a slow
  sender is cut off), body at most ``MAX_BODY_SERVER`` bytes within ``BODY_TIMEOUT_S``
  (Flask refuses more than 64 KB with a 413);
- a connection budget for the whole process (``web.budget``): at most
  ``MAX_CONNECTIONS_PER_ADDRESS`` unproven connections per client address, a total below
  the open-file limit, and ``RESERVED`` of it kept for the host and joined seats (a flood
  of guests' connections gives way to new ones, oldest first);
- at most ``MAX_BUSY_PER_ADDRESS`` requests of one address in Flask at once (more wait
  on the loop, holding no thread, so one guest cannot fill the pool); the host's requests
  run on a pool of their own, so the host is served whatever the guests do;
- a stream whose client stops reading for ``WRITE_TIMEOUT_S`` is closed;
- lines of the log about the same fault are rate-limited (``web.limits.limit_logs``).

Times (throttle, keep-alives, write timeouts) come from the injected ``clock``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.cookies import CookieError, SimpleCookie
from types import SimpleNamespace
from typing import Any, cast

from flask import Flask
from tornado import httputil
from tornado.httpserver import HTTPServer
from tornado.iostream import StreamClosedError
from tornado.netutil import bind_sockets

import web.stream as live
from web.auth import HOST_COOKIE, SEAT_COOKIE
from web.budget import (
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_PER_ADDRESS,
    RESERVED,
    Budget,
    budget_for,
    open_file_limit,
)
from web.context import WebState, state_of
from web.limits import limit_logs
from web.live import Live, chunk
from web.stream import PUSH_KEY, Push
from web.wsgi import call_wsgi, environ_of, plain, reason

log = logging.getLogger(__name__)

MAX_HEADER = 16 * 1024
HEADER_TIMEOUT_S = 10.0
MAX_BODY_SERVER = 256 * 1024
BODY_TIMEOUT_S = 10.0
MAX_BUSY_PER_ADDRESS = 8
HOST_THREADS = 4
WRITE_TIMEOUT_S = 20.0
#: bytes read from a socket at once (Tornado's 64 KB per read, for request heads of a
#: few hundred bytes, only left the allocator with holes)
READ_CHUNK = 4096
TICK_S = 0.25  # how often keep-alives and the throttle's late sends are looked at

Clock = Callable[[], float]

__all__ = ["MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_ADDRESS", "RESERVED", "Server",
           "make_server", "serve", "stop"]


class _Limited(HTTPServer):
    """Tornado's HTTP server, whose connections are counted in a ``Budget``."""

    budget: Budget

    def handle_stream(self, stream: Any, address: Any) -> None:
        ip = str(address[0]) if isinstance(address, tuple) and address else "unix"
        if not self.budget.admit(stream, ip):
            stream.close()
            return
        super().handle_stream(stream, address)

    def on_close(self, server_conn: object) -> None:
        self.budget.forget(getattr(server_conn, "stream", None))
        super().on_close(server_conn)


class Server:
    """The dashboard server: ``prepare()`` binds, ``serve()`` runs, ``stop()`` ends it.

    ``threads`` is the size of the Flask pool for everyone but the host (who has
    ``HOST_THREADS`` of their own); live streams take no thread at all. ``clock`` times
    the streams (throttle, keep-alives, a phone that stopped reading).
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int,
                 clock: Clock = time.monotonic) -> None:
        self.app = app
        self.host = host
        self.port = port
        self.clock = clock
        self.pool = ThreadPoolExecutor(max(2, threads), thread_name_prefix="web")
        self.host_pool = ThreadPoolExecutor(HOST_THREADS, thread_name_prefix="web-host")
        self.bind_addr: tuple[str, int] = (host, port)
        self._sockets: list[socket.socket] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._stop_asked = threading.Event()
        self._live: dict[Push, Live] = {}
        self._later: asyncio.TimerHandle | None = None
        self._st: WebState | None = None
        self._busy: dict[str, tuple[asyncio.Semaphore, int]] = {}
        total, reserve = budget_for(open_file_limit(), MAX_CONNECTIONS, RESERVED)
        self.budget = Budget(total, reserve, MAX_CONNECTIONS_PER_ADDRESS)
        self._tasks: set[asyncio.Task[None]] = set()

    # --- life cycle -------------------------------------------------------------------

    def prepare(self) -> None:
        """Bind the listening socket (``OSError`` when the port is taken)."""
        if not self._sockets:
            self._sockets = bind_sockets(self.port, address=self.host or None, backlog=1024)
            name = self._sockets[0].getsockname()
            self.bind_addr = (str(name[0]), int(name[1]))

    def serve(self, on_ready: Callable[[], None] | None = None,
              signals: bool = False) -> None:
        """Run until ``stop()`` (or SIGTERM/SIGINT with ``signals``); blocks this thread."""
        self.prepare()
        asyncio.run(self._main(on_ready, signals))

    def stop(self) -> None:
        """End the server (safe twice, from any thread)."""
        self._stop_asked.set()
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopped.set)

    async def _main(self, on_ready: Callable[[], None] | None, signals: bool) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        if signals:
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._loop.add_signal_handler(sig, self._stopped.set)
        limit_logs()
        st = self._st = state_of(self.app)
        if st is not None:
            st.table.subscribe(self._on_snapshot)
        ticker = asyncio.ensure_future(self._tick())
        http = self._listen()
        if self._stop_asked.is_set():
            self._stopped.set()
        try:
            if on_ready is not None:
                on_ready()
            await self._stopped.wait()
        finally:
            await self._shut(http, ticker)

    def _listen(self) -> _Limited:
        self.budget = Budget(self.budget.total, self.budget.reserve,
                             MAX_CONNECTIONS_PER_ADDRESS)  # the limits in force now
        http = _Limited(self._handle, max_header_size=MAX_HEADER,
                        idle_connection_timeout=HEADER_TIMEOUT_S, body_timeout=BODY_TIMEOUT_S,
                        max_body_size=MAX_BODY_SERVER, decompress_request=False,
                        chunk_size=READ_CHUNK)
        http.budget = self.budget
        http.add_sockets(self._sockets)
        return http

    async def _shut(self, http: _Limited, ticker: asyncio.Future[None]) -> None:
        if self._st is not None:
            self._st.closing.set()
        http.stop()
        ticker.cancel()
        self._end_all()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=3)
        # every socket is closed now, even one whose request never finished:
        # tornado's close_all_connections waits on each in turn and may time out
        for stream in self.budget.streams():
            stream.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(http.close_all_connections(), 3)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.host_pool.shutdown(wait=False, cancel_futures=True)

    # --- live streams: one broadcaster, no thread and no task per phone -----------------

    def _on_snapshot(self, snap: object, signals: object) -> None:
        """Called on the table's thread after each change: write to the streams."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._broadcast)

    async def _tick(self) -> None:
        """Keep-alives, the throttle's late sends, and the end when the app closes."""
        while True:
            await asyncio.sleep(min(live.POLL_S, TICK_S))
            if self._st is not None and self._st.closing.is_set():
                self._end_all()
            else:
                self._broadcast()

    def _broadcast(self) -> None:
        if self._st is None or not self._live:
            return
        snap = self._st.table.hub.latest()
        now = self.clock()
        soonest: float | None = None
        framed: dict[int, bytes] = {}  # one chunk per distinct event, shared by every phone
        for push, stream in list(self._live.items()):
            if stream.backed_up(now):  # latest wins: the tick sends it once the phone reads
                if stream.dead:
                    self._end(push)
                continue
            data = push.poll(snap, now)
            if data is not None:
                framed_data = framed.get(id(data))
                if framed_data is None:
                    framed_data = framed[id(data)] = chunk(data)
                stream.send(framed_data, now)
            if push.done or stream.dead:
                self._end(push)
                continue
            wait = push.waiting(snap, now)
            if wait is not None:
                soonest = wait if soonest is None else min(soonest, wait)
        if soonest is not None and self._later is None and self._loop is not None:
            self._later = self._loop.call_later(soonest, self._late)

    def _late(self) -> None:
        self._later = None
        self._broadcast()

    def _end(self, push: Push) -> None:
        stream = self._live.pop(push, None)
        push.close()
        if stream is not None:
            stream.finish()

    def _end_all(self) -> None:
        for push in list(self._live):
            self._end(push)

    # --- one request --------------------------------------------------------------------

    def _handle(self, request: httputil.HTTPServerRequest) -> None:
        task = asyncio.ensure_future(self._answer(request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, request: httputil.HTTPServerRequest) -> None:
        conn = request.connection
        stream = getattr(conn, "stream", None)
        self.budget.busy(stream, +1)
        try:
            await self._respond(request)
        except Exception:
            log.exception("answering %s %s failed", request.method, request.path)
            with contextlib.suppress(Exception):
                request.connection.stream.close()  # type: ignore[union-attr]
        finally:
            self.budget.busy(stream, -1)

    async def _respond(self, request: httputil.HTTPServerRequest) -> None:
        conn = request.connection
        assert conn is not None
        host = self._is_host(request)
        if host or self._has_seat(request):
            self.budget.prove(getattr(conn, "stream", None))
        try:
            status, headers, body, environ = await self._call(request, host)
        except Exception:
            log.exception("request %s %s failed", request.method, request.path)
            plain(conn, 500, "Something went wrong on the table's side; try again.")
            return
        push = environ.get(PUSH_KEY)
        if isinstance(push, Push):
            self._stream(conn, status, headers, push)
            return
        head = httputil.HTTPHeaders()
        for k, v in headers:
            head.add(k, v)
        with contextlib.suppress(StreamClosedError):
            conn.write_headers(httputil.ResponseStartLine("HTTP/1.1", status, reason(status)),
                               head, b"" if request.method == "HEAD" else body)
            conn.finish()

    async def _call(self, request: httputil.HTTPServerRequest,
                    host: bool) -> tuple[int, list[tuple[str, str]], bytes, dict[str, Any]]:
        """Run the Flask app for ``request`` on a pool thread (the host's pool for the host);
        one address never holds more than ``MAX_BUSY_PER_ADDRESS`` of the pool."""
        ip = request.remote_ip or "?"
        gate, users = self._busy.get(ip) or (asyncio.Semaphore(MAX_BUSY_PER_ADDRESS), 0)
        self._busy[ip] = (gate, users + 1)
        try:
            async with gate:
                environ = environ_of(request, self.bind_addr)
                assert self._loop is not None
                status, headers, body = await self._loop.run_in_executor(
                    self.host_pool if host else self.pool, call_wsgi, self.app, environ)
                return status, headers, body, environ
        finally:
            gate, users = self._busy[ip]
            if users > 1:
                self._busy[ip] = (gate, users - 1)
            else:
                del self._busy[ip]

    def _stream(self, conn: Any, status: int, headers: list[tuple[str, str]],
                push: Push) -> None:
        """Start a live stream; the broadcaster writes the rest."""
        head = httputil.HTTPHeaders()
        for k, v in headers:
            if k.lower() != "content-length":
                head.add(k, v)
        stream = Live(conn, WRITE_TIMEOUT_S)
        try:
            conn.write_headers(httputil.ResponseStartLine("HTTP/1.1", status, reason(status)),
                               head)
        except StreamClosedError:
            push.close()
            return
        closing = self._st is not None and self._st.closing.is_set()
        if not closing:
            now = self.clock()
            stream.write(push.start(now), now)
        if closing or push.done or stream.dead:
            push.close()
            stream.finish()
            return
        self._live[push] = stream
        conn.set_close_callback(lambda: self._gone(push))

    def _gone(self, push: Push) -> None:
        if push in self._live:
            self._live.pop(push)
            push.close()

    # --- who asks: checked in memory, before any file is read ---------------------------

    def _cookie(self, request: httputil.HTTPServerRequest, prefix: str) -> dict[str, str]:
        """The request's cookies whose names start with ``prefix``."""
        raw = request.headers.get("Cookie", "")
        if prefix not in raw:
            return {}
        try:
            jar = SimpleCookie(raw)
        except CookieError:
            return {}
        return {name: m.value for name, m in jar.items() if name.startswith(prefix)}

    def _is_host(self, request: httputil.HTTPServerRequest) -> bool:
        """Whether the request carries a valid host cookie: it runs on the host's pool.

        The signature is checked here, so a guest cannot queue on the host's pool by
        sending a cookie of that name (Flask checks it again for access).
        """
        cookies = self._cookie(request, HOST_COOKIE)
        if self._st is None or HOST_COOKIE not in cookies:
            return False
        holder = SimpleNamespace(cookies={HOST_COOKIE: cookies[HOST_COOKIE]})
        try:
            return bool(self._st.guard.is_host(cast(Any, holder)))
        except Exception:
            return False

    def _has_seat(self, request: httputil.HTTPServerRequest) -> bool:
        """Whether the request holds a seat joined in the running game (it is then
        served from the reserved share of the connection budget)."""
        st = self._st
        prefix = SEAT_COOKIE.format("")
        cookies = self._cookie(request, prefix)
        if st is None or not cookies:
            return False
        game_id = st.table.hub.latest().game_id
        holder = cast(Any, SimpleNamespace(cookies=cookies))
        for name in cookies:
            number = name[len(prefix):]
            if number.isdigit() and st.guard.has_seat(holder, int(number), game_id):
                return True
        return False

    def connections_of(self, address: str) -> int:
        """How many unproven connections ``address`` holds now (tests, the benchmark)."""
        return self.budget.of_address(address)

    def queued_bytes(self) -> int:
        """The most bytes any one live stream has queued, unsent (tests, the benchmark)."""
        return max((len(getattr(live.conn.stream, "_write_buffer", b""))
                    for live in list(self._live.values())), default=0)

    @property
    def streams_open(self) -> int:
        """How many live streams this server writes now."""
        return len(self._live)


def make_server(app: Flask, host: str, port: int, threads: int,
                clock: Clock = time.monotonic) -> Server:
    """A server for ``app`` (not yet listening; ``prepare()`` binds it)."""
    app.debug = False  # never the debugger on a network-facing table
    app.config["DEBUG"] = False
    return Server(app, host, port, threads, clock)


def stop(app: Flask, server: Server) -> None:
    """End every live stream, then stop the server (safe twice)."""
    st = state_of(app)
    if st is not None:
        st.closing.set()
    server.stop()


def serve(app: Flask, host: str, port: int, threads: int,
          on_ready: Callable[[], None] | None = None) -> None:
    """Serve ``app`` until SIGTERM or Ctrl-C; ``on_ready()`` once it is listening.

    Raises ``OSError`` when the port cannot be bound (in use, not allowed).
    """
    server = make_server(app, host, port, threads)
    server.prepare()
    main = threading.current_thread() is threading.main_thread()
    try:
        server.serve(on_ready=on_ready, signals=main)
    except KeyboardInterrupt:
        pass
    finally:
        log.info("stopping the dashboard")
        stop(app, server)
