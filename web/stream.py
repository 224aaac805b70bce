"""Live updates over Server-Sent Events: ``/api/stream`` and ``/api/seat/<n>/stream``.

On connect a client gets the latest snapshot (unless its ``Last-Event-ID`` or ``?last=``
already names it), then every newer one. Event ids are ``<epoch>-<seq>``, so a phone that
reconnects resumes without a page reload and a restarted table sends a full snapshot.
Bursts are throttled: a client gets at most one snapshot per ``MIN_GAP_S``, always the
latest. A comment every ``KEEPALIVE_S`` keeps proxies and phones from dropping the line.
``/api/host/stream`` (host only) always carries the host's controls as ``html``.
``?html=1`` adds the rendered fragment of the page (``html``) to each event.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, request

from companion.table import Snapshot
from web import render
from web.context import WebState, state
from web.guards import is_host, seat_allowed

bp = Blueprint("stream", __name__)

MIN_GAP_S = 0.05
KEEPALIVE_S = 15.0
POLL_S = 1.0  # how soon a stream notices that the server is closing
RETRY_MS = 1500

Encode = Callable[[Snapshot], str | None]


def _event(snap: Snapshot, data: str) -> str:
    return f"id: {snap.epoch}-{snap.seq}\nevent: snapshot\ndata: {data}\n\n"


def events(st: WebState, encode: Encode, last_id: str | None) -> Iterator[str]:
    """The SSE text of one client; ``encode`` returns None to end the stream (403)."""
    hub = st.table.hub
    yield f"retry: {RETRY_MS}\n\n"
    snap = hub.latest()
    seq, sent_at, wrote_at = snap.seq, 0.0, time.monotonic()
    if last_id != f"{snap.epoch}-{snap.seq}":
        data = encode(snap)
        if data is None:
            yield "event: denied\ndata: {}\n\n"
            return
        yield _event(snap, data)
        sent_at = wrote_at = time.monotonic()
    while not st.closing.is_set():
        pause = MIN_GAP_S - (time.monotonic() - sent_at)
        if pause > 0:
            time.sleep(pause)  # throttle: whatever arrives meanwhile, the latest wins
        newer = hub.wait_newer(seq, POLL_S)
        if newer is None:
            if time.monotonic() - wrote_at >= KEEPALIVE_S:
                wrote_at = time.monotonic()
                yield ": keep-alive\n\n"
            continue
        seq = newer.seq
        data = encode(newer)
        if data is None:
            yield "event: denied\ndata: {}\n\n"
            return
        sent_at = wrote_at = time.monotonic()
        yield _event(newer, data)


def _counted(st: WebState, inner: Iterator[str]) -> Iterator[str]:
    st.stream_opened()
    try:
        yield from inner
    finally:
        st.stream_closed()


def _response(st: WebState, encode: Encode) -> Response:
    last_id = request.headers.get("Last-Event-ID") or request.args.get("last")
    gen = _counted(st, events(st, encode, last_id))
    return Response(gen, mimetype="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive"})


@bp.get("/api/stream")
def public_stream() -> Response:
    """Every public snapshot, for the table page and anyone on the network."""
    st = state()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with_html = request.args.get("html") == "1"

    def encode(snap: Snapshot) -> str:
        def make() -> str:
            payload = render.public_payload(snap)
            if with_html:
                with app.app_context():
                    payload["html"] = render.fragment("table", payload)
            return render.event_json(payload)

        return st.cache.get(snap, f"public:{with_html}", make)

    return _response(st, encode)


@bp.get("/api/host/stream")
def host_stream() -> Response:
    """The host's controls for the running game (``games/<game>/host.html``), host only."""
    st = state()
    if not is_host():
        return Response("Host only.\n", status=403, mimetype="text/plain")
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def encode(snap: Snapshot) -> str:
        def make() -> str:
            payload = render.public_payload(snap)
            with app.app_context():
                payload["html"] = render.fragment("host", payload)
            return render.event_json(payload)

        return st.cache.get(snap, "host:html", make)

    return _response(st, encode)


@bp.get("/api/seat/<int:n>/stream")
def seat_stream(n: int) -> Response:
    """Seat ``n``'s snapshots; 403 without its cookie; ends when the game changes."""
    st = state()
    if not seat_allowed(n):
        return Response("This is another player's seat.\n", status=403, mimetype="text/plain")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    game_id = st.table.hub.latest().game_id
    with_html = request.args.get("html") == "1"

    def encode(snap: Snapshot) -> str | None:
        if snap.game_id != game_id:
            return None  # a new game: this cookie is no longer a seat of it

        def make() -> str:
            payload = render.seat_payload(snap, n)
            if with_html:
                with app.app_context():
                    payload["html"] = render.fragment("seat", payload, seat=n)
            return render.event_json(payload)

        return st.cache.get(snap, f"seat{n}:{with_html}", make)

    return _response(st, encode)
