"""Live updates over Server-Sent Events: ``/api/stream`` and ``/api/seat/<n>/stream``.

On connect a client gets the latest snapshot (unless its ``Last-Event-ID`` or ``?last=``
already names it), then every newer one. Event ids are ``<epoch>-<seq>``, so a phone that
reconnects resumes without a page reload and a restarted table sends a full snapshot.
Bursts are throttled: a client gets at most one snapshot per ``MIN_GAP_S``, always the
latest. A comment every ``KEEPALIVE_S`` keeps proxies and phones from dropping the line.
``/api/host/stream`` (host only) always carries the host's controls as ``html``.
``?html=1`` adds the rendered fragment of the page (``html``) to each event.

Under ``web.server`` (Tornado) a stream holds no thread: the view returns at once with a
``Push`` in the WSGI environment (``PUSH_KEY``) and the server's event loop runs it. Any
other WSGI server (the test client) gets the same events from a generator. One address
may hold at most ``MAX_STREAMS_PER_ADDRESS`` streams (the host: any number).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from flask import Blueprint, Response, current_app, request

from companion.snapshot import Snapshot
from web import render
from web.context import WebState, state
from web.guards import is_host, seat_allowed

bp = Blueprint("stream", __name__)

#: the WSGI environ key through which ``web.server`` takes a stream over
PUSH_KEY = "companion.push"
MAX_STREAMS_PER_ADDRESS = 16
TOO_MANY = ("Too many live pages are open on this device: close some tabs and reload "
            "this page.\n")

DENIED = b"event: denied\ndata: {}\n\n"  # the phone reloads and is told why
MIN_GAP_S = 0.05
KEEPALIVE_S = 15.0
POLL_S = 1.0  # how soon a stream notices that the server is closing
RETRY_MS = 1500

#: a snapshot as one stream's event (``render.Rendered``), or None: the stream must end
Encode = Callable[[Snapshot], "render.Rendered | None"]


@dataclass(eq=False)
class Push:
    """One live stream: what to send when. ``web.server`` runs it on its event loop (no
    thread held); ``events`` runs it in a thread for any other WSGI server.

    The server calls ``start()`` once, then ``poll(latest, now)`` whenever the table
    publishes and every ``POLL_S``; each returns the bytes to write (or nothing yet: the
    throttle). ``done`` is set once the stream must end (``event: denied``); ``close()``
    gives the address its slot back.
    """

    st: WebState
    encode: Encode
    last_id: str | None
    address: str
    #: whose stream: a seat's, or None (the public and the host's): which changes it sees
    seat: int | None = None
    #: False once the stream is no longer this phone's (its seat handed to another phone):
    #: asked at every poll, so the phone is told at once, not at the next snapshot
    mine: Callable[[], bool] | None = None
    seq: int = -1
    sent_at: float = 0.0
    wrote_at: float = 0.0
    done: bool = False
    _shown: str | None = None
    _closed: bool = field(default=False)

    def start(self, now: float) -> bytes:
        snap = self.st.table.hub.latest()
        version = snap.version_for(self.seat)
        self.seq, self.wrote_at = version, now
        head = f"retry: {RETRY_MS}\n\n".encode()
        if self.last_id == f"{snap.epoch}-{version}":
            return head
        return head + (self._encoded(snap, now) or b"")

    def poll(self, snap: Snapshot, now: float) -> bytes | None:
        """What to write now: a newer snapshot (at most one per ``MIN_GAP_S``, and only
        when it shows something new), a keep-alive every ``KEEPALIVE_S``, or None."""
        if self.done:
            return None
        if self.mine is not None and not self.mine():
            self.done = True
            return DENIED
        if snap.version_for(self.seat) > self.seq and now - self.sent_at >= MIN_GAP_S:
            data = self._encoded(snap, now)
            if data is not None:
                return data
        if now - self.wrote_at >= KEEPALIVE_S:
            self.wrote_at = now
            return b": keep-alive\n\n"
        return None

    def waiting(self, snap: Snapshot, now: float) -> float | None:
        """Seconds until the throttle lets ``snap`` out, when it is held back."""
        if self.done or snap.version_for(self.seat) <= self.seq:
            return None
        return max(0.0, MIN_GAP_S - (now - self.sent_at))

    def _encoded(self, snap: Snapshot, now: float) -> bytes | None:
        """The event for ``snap``; None when it shows what this stream last sent."""
        rendered = self.encode(snap)
        version = snap.version_for(self.seat)
        if rendered is None:
            self.done = True
            return DENIED
        data, shown = rendered
        self.seq = version
        if shown == self._shown:
            return None
        self._shown, self.sent_at, self.wrote_at = shown, now, now
        return _event_bytes(snap.epoch, version, data)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.st.stream_closed(self.address)


@lru_cache(maxsize=64)
def _event_bytes(epoch: str, seq: int, data: str) -> bytes:
    """One event as bytes, made once for every phone that gets the same data."""
    return f"id: {epoch}-{seq}\nevent: snapshot\ndata: {data}\n\n".encode()


def events(push: Push) -> Iterator[bytes]:
    """The stream of ``push`` for a WSGI server that gives each response a thread."""
    hub = push.st.table.hub
    seen = -1  # the seq of the last snapshot looked at (a stream skips what it cannot see)
    try:
        yield push.start(time.monotonic())
        while not push.st.closing.is_set() and not push.done:
            snap = hub.latest()
            wait = push.waiting(snap, time.monotonic())
            if wait:
                time.sleep(wait)  # throttle: whatever arrives meanwhile, the latest wins
            elif wait is None and snap.seq == seen:
                hub.wait_newer(seen, POLL_S)
            snap = hub.latest()
            seen = snap.seq
            data = push.poll(snap, time.monotonic())
            if data is not None:
                yield data
    finally:
        push.close()


def _response(st: WebState, encode: Encode, seat: int | None = None,
              mine: Callable[[], bool] | None = None) -> Response:
    last_id = request.headers.get("Last-Event-ID") or request.args.get("last")
    address = request.remote_addr or "?"
    if not st.stream_opened(address, None if is_host() else MAX_STREAMS_PER_ADDRESS):
        return Response(TOO_MANY, status=429, mimetype="text/plain",
                        headers={"Retry-After": "5"})
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no",
               "Connection": "keep-alive"}
    push = Push(st, encode, last_id, address, seat, mine)
    if PUSH_KEY in request.environ:  # web.server: its event loop writes the stream
        request.environ[PUSH_KEY] = push
        return Response(b"", mimetype="text/event-stream", headers=headers)
    return Response(events(push), mimetype="text/event-stream", headers=headers)


def _encoder(st: WebState, key: str, payload_of: Callable[[Snapshot], render.Payload],
             fragment: Callable[[render.Payload], str] | None,
             seat: int | None = None) -> Callable[[Snapshot], render.Rendered]:
    """Each snapshot as one event (cached per change and audience): the payload, and the
    HTML ``fragment`` of it when asked for."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def encode(snap: Snapshot) -> render.Rendered:
        def make() -> render.Rendered:
            payload = payload_of(snap)
            shown = render.shown(payload, each_refusal=seat is not None)
            if fragment is not None:
                with app.app_context():
                    payload["html"] = fragment(payload)
            return render.event_json(payload), shown

        return st.cache.get(snap, key, make, seat)

    return encode


@bp.get("/api/stream")
def public_stream() -> Response:
    """Every public snapshot, for the table page and anyone on the network."""
    st = state()
    with_html = request.args.get("html") == "1"
    html = (lambda payload: render.fragment("table", payload)) if with_html else None
    return _response(st, _encoder(st, f"public:{with_html}", render.public_payload, html))


@bp.get("/api/host/stream")
def host_stream() -> Response:
    """The host's controls for the running game (``games/<game>/host.html``), host only."""
    st = state()
    if not is_host():
        return Response("Host only.\n", status=403, mimetype="text/plain")
    return _response(st, _encoder(st, "host:html", render.host_payload,
                                  lambda payload: render.fragment("host", payload)))


@bp.get("/api/seat/<int:n>/stream")
def seat_stream(n: int) -> Response:
    """Seat ``n``'s snapshots; 403 without its cookie; ends when the game changes."""
    st = state()
    if not seat_allowed(n):
        return Response("This is another player's seat.\n", status=403, mimetype="text/plain")
    game_id = st.table.hub.latest().game_id
    with_html = request.args.get("html") == "1"
    generation = st.guard.joins.generation(game_id or "", n)
    html = (lambda payload: render.fragment("seat", payload, seat=n)) if with_html else None
    rendered = _encoder(st, f"seat{n}:{with_html}", lambda snap: render.seat_payload(snap, n),
                        html, seat=n)

    def mine() -> bool:  # the host did not hand the seat to another phone
        return st.guard.joins.generation(game_id or "", n) == generation

    def encode(snap: Snapshot) -> render.Rendered | None:
        if snap.game_id != game_id or not mine():
            return None  # a new game, or the seat went to another phone: no longer this one's
        return rendered(snap)

    return _response(st, encode, seat=n, mine=mine)
