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
- at most ``MAX_CONNECTIONS_PER_ADDRESS`` open connections per client address (more are
  closed at once) and ``MAX_CONNECTIONS`` in all;
- at most ``MAX_BUSY_PER_ADDRESS`` requests of one address in Flask at once (more wait
  on the loop, holding no thread, so one guest cannot fill the pool); the host's requests
  run on a pool of their own, so the host is served whatever the guests do;
- a stream whose client stops reading for ``WRITE_TIMEOUT_S`` is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from io import BytesIO
from types import SimpleNamespace
from typing import Any, cast
from urllib.parse import unquote_to_bytes

from flask import Flask
from tornado import httputil
from tornado.httpserver import HTTPServer
from tornado.iostream import StreamClosedError
from tornado.netutil import bind_sockets

import web.stream as live
from web.auth import HOST_COOKIE
from web.context import WebState, state_of
from web.stream import PUSH_KEY, Push

log = logging.getLogger(__name__)

MAX_HEADER = 16 * 1024
HEADER_TIMEOUT_S = 10.0
MAX_BODY_SERVER = 256 * 1024
BODY_TIMEOUT_S = 10.0
MAX_CONNECTIONS_PER_ADDRESS = 64
MAX_CONNECTIONS = 4096
MAX_BUSY_PER_ADDRESS = 8
HOST_THREADS = 4
WRITE_TIMEOUT_S = 20.0
TICK_S = 0.25  # how often keep-alives and the throttle's late sends are looked at

Environ = dict[str, Any]


class _Limited(HTTPServer):
    """Tornado's HTTP server with a cap on open connections per client address."""

    open_by_address: dict[str, int]
    total_open: int

    def handle_stream(self, stream: Any, address: Any) -> None:
        ip = str(address[0]) if isinstance(address, tuple) and address else "unix"
        if self.open_by_address.get(ip, 0) >= MAX_CONNECTIONS_PER_ADDRESS \
                or self.total_open >= MAX_CONNECTIONS:
            stream.close()
            return
        self.open_by_address[ip] = self.open_by_address.get(ip, 0) + 1
        self.total_open += 1
        stream._companion_ip = ip
        super().handle_stream(stream, address)

    def on_close(self, server_conn: object) -> None:
        ip = getattr(getattr(server_conn, "stream", None), "_companion_ip", None)
        if ip is not None:
            self.total_open -= 1
            left = self.open_by_address.get(ip, 1) - 1
            if left > 0:
                self.open_by_address[ip] = left
            else:
                self.open_by_address.pop(ip, None)
        super().on_close(server_conn)


class Server:
    """The dashboard server: ``prepare()`` binds, ``serve()`` runs, ``stop()`` ends it.

    ``threads`` is the size of the Flask pool for everyone but the host (who has
    ``HOST_THREADS`` of their own); live streams take no thread at all.
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self.pool = ThreadPoolExecutor(max(2, threads), thread_name_prefix="web")
        self.host_pool = ThreadPoolExecutor(HOST_THREADS, thread_name_prefix="web-host")
        self.bind_addr: tuple[str, int] = (host, port)
        self._sockets: list[socket.socket] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._stop_asked = threading.Event()
        self._live: dict[Push, _Live] = {}
        self._later: asyncio.TimerHandle | None = None
        self._st: WebState | None = None
        self._busy: dict[str, tuple[asyncio.Semaphore, int]] = {}
        self._http: _Limited | None = None
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
        st = self._st = state_of(self.app)
        if st is not None:
            st.table.subscribe(self._on_snapshot)
        ticker = asyncio.ensure_future(self._tick())
        http = _Limited(self._handle, max_header_size=MAX_HEADER,
                        idle_connection_timeout=HEADER_TIMEOUT_S, body_timeout=BODY_TIMEOUT_S,
                        max_body_size=MAX_BODY_SERVER, decompress_request=False)
        http.open_by_address, http.total_open = {}, 0
        self._http = http
        http.add_sockets(self._sockets)
        if self._stop_asked.is_set():
            self._stopped.set()
        try:
            if on_ready is not None:
                on_ready()
            await self._stopped.wait()
        finally:
            if st is not None:
                st.closing.set()
            http.stop()
            ticker.cancel()
            self._end_all()
            if self._tasks:
                await asyncio.wait(self._tasks, timeout=3)
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
        now, loop_now = time.monotonic(), self._loop_time()
        soonest: float | None = None
        framed: dict[int, bytes] = {}  # one chunk per distinct event, shared by every phone
        for push, stream in list(self._live.items()):
            data = push.poll(snap, now)
            if data is not None:
                chunk = framed.get(id(data))
                if chunk is None:
                    chunk = framed[id(data)] = _chunk(data)
                stream.send(chunk, loop_now)
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

    def _loop_time(self) -> float:
        assert self._loop is not None
        return self._loop.time()

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
        try:
            await self._respond(request)
        except Exception:
            log.exception("answering %s %s failed", request.method, request.path)
            with contextlib.suppress(Exception):
                request.connection.stream.close()  # type: ignore[union-attr]

    async def _respond(self, request: httputil.HTTPServerRequest) -> None:
        conn = request.connection
        assert conn is not None
        ip = request.remote_ip or "?"
        host = self._is_host(request)
        gate, users = self._busy.get(ip) or (asyncio.Semaphore(MAX_BUSY_PER_ADDRESS), 0)
        self._busy[ip] = (gate, users + 1)
        try:
            async with gate:  # one address never holds more than its share of the pool
                environ = _environ(request, self.bind_addr)
                pool = self.host_pool if host else self.pool
                assert self._loop is not None
                status, headers, body = await self._loop.run_in_executor(
                    pool, _call_wsgi, self.app, environ)
        except Exception:
            log.exception("request %s %s failed", request.method, request.path)
            _plain(conn, 500, "Something went wrong on the table's side; try again.")
            return
        finally:
            gate, users = self._busy[ip]
            if users > 1:
                self._busy[ip] = (gate, users - 1)
            else:
                del self._busy[ip]
        push = environ.get(PUSH_KEY)
        if isinstance(push, Push):
            await self._stream(conn, status, headers, push)
            return
        start = httputil.ResponseStartLine("HTTP/1.1", status, _reason(status))
        head = httputil.HTTPHeaders()
        for k, v in headers:
            head.add(k, v)
        if request.method == "HEAD":
            body = b""
        with contextlib.suppress(StreamClosedError):
            conn.write_headers(start, head, body)
            conn.finish()

    async def _stream(self, conn: Any, status: int, headers: list[tuple[str, str]],
                      push: Push) -> None:
        """Start a live stream; the broadcaster writes the rest."""
        start = httputil.ResponseStartLine("HTTP/1.1", status, _reason(status))
        head = httputil.HTTPHeaders()
        for k, v in headers:
            if k.lower() != "content-length":
                head.add(k, v)
        stream = _Live(conn)
        try:
            conn.write_headers(start, head)
        except StreamClosedError:
            push.close()
            return
        if self._st is not None and self._st.closing.is_set():
            push.close()
            stream.finish()
            return
        stream.write(push.start(time.monotonic()), self._loop_time())
        if push.done or stream.dead:
            push.close()
            stream.finish()
            return
        self._live[push] = stream
        conn.set_close_callback(lambda: self._gone(push))

    def _gone(self, push: Push) -> None:
        if push in self._live:
            self._live.pop(push)
            push.close()

    def _is_host(self, request: httputil.HTTPServerRequest) -> bool:
        """Whether the request carries a valid host cookie: it runs on the host's pool.

        The signature is checked here, so a guest cannot queue on the host's pool by
        sending a cookie of that name (Flask checks it again for access).
        """
        raw = request.headers.get("Cookie", "")
        if HOST_COOKIE not in raw or self._st is None:
            return False
        try:
            jar = SimpleCookie(raw)
        except CookieError:
            return False
        morsel = jar.get(HOST_COOKIE)
        if morsel is None:
            return False
        holder = SimpleNamespace(cookies={HOST_COOKIE: morsel.value})
        try:
            return bool(self._st.guard.is_host(cast(Any, holder)))
        except Exception:
            return False

    def connections_of(self, address: str) -> int:
        """How many connections ``address`` holds open now (for tests and the benchmark)."""
        http = self._http
        return 0 if http is None else http.open_by_address.get(address, 0)

    @property
    def streams_open(self) -> int:
        """How many live streams this server writes now."""
        return len(self._live)


def _chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body (streams have no length)."""
    return b"%x\r\n" % len(data) + data + b"\r\n"


class _Live:
    """One phone's open stream: writes without waiting, ends it when the phone stops
    reading for ``WRITE_TIMEOUT_S``."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.pending: Any = None
        self.since = 0.0
        self.dead = False

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
        ``WRITE_TIMEOUT_S`` stopped reading: its stream ends."""
        if self.pending is not None and not self.pending.done():
            if now - self.since > WRITE_TIMEOUT_S:
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


def _environ(request: httputil.HTTPServerRequest, bind: tuple[str, int]) -> Environ:
    """The WSGI environment of a Tornado request (PEP 3333)."""
    path = request.path or "/"
    environ: Environ = {
        "REQUEST_METHOD": request.method or "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": request.query or "",
        "REMOTE_ADDR": request.remote_ip or "",
        "SERVER_NAME": bind[0],
        "SERVER_PORT": str(bind[1]),
        "SERVER_PROTOCOL": request.version or "HTTP/1.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": request.protocol or "http",
        "wsgi.input": BytesIO(request.body or b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        PUSH_KEY: None,
    }
    for key, value in request.headers.get_all():
        if key.lower() == "content-type":
            environ["CONTENT_TYPE"] = value
        elif key.lower() == "content-length":
            environ["CONTENT_LENGTH"] = value
        else:
            name = "HTTP_" + key.replace("-", "_").upper()
            environ[name] = f"{environ[name]},{value}" if name in environ else value
    return environ


def _call_wsgi(app: Flask, environ: Environ) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run the Flask app for one request on a pool thread; the whole body as bytes."""
    found: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Callable[[bytes], None]:
        found["status"], found["headers"] = status, headers
        return lambda data: None

    result: Iterable[bytes] = app(environ, start_response)
    try:
        body = b"" if isinstance(environ.get(PUSH_KEY), Push) else b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return int(str(found["status"]).split()[0]), list(found["headers"]), body


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _plain(conn: Any, status: int, text: str) -> None:
    head = httputil.HTTPHeaders({"Content-Type": "text/plain; charset=utf-8",
                                 "Connection": "close", "Retry-After": "1"})
    with contextlib.suppress(StreamClosedError):
        conn.write_headers(httputil.ResponseStartLine("HTTP/1.1", status, _reason(status)),
                           head, text.encode())
        conn.finish()


def make_server(app: Flask, host: str, port: int, threads: int) -> Server:
    """A server for ``app`` (not yet listening; ``prepare()`` binds it)."""
    app.debug = False  # never the debugger on a network-facing table
    app.config["DEBUG"] = False
    return Server(app, host, port, threads)


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
