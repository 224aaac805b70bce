"""The Flask app factory: one blueprint per concern, per-app state in ``app.extensions``.

``create_app(table, web_config=..., state_dir=...)`` builds the dashboard around a
running ``companion.table.Table``; the app only submits ``Command``s and reads
``Snapshot``s. Debug mode is forced off: the dashboard is reachable by every phone on
the network.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from flask import Flask, Response, abort, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from companion.config import WebConfig
from companion.inputs import Command, Result
from companion.table import Table
from web import render
from web.auth import CSRF_COOKIE, HOST_COOKIE, SEAT_COOKIE, SEAT_MAX_AGE, Guard, same_origin

F = TypeVar("F", bound=Callable[..., Any])

EXTENSION = "table_companion"
SUBMIT_TIMEOUT_S = 10.0


class Camera(Protocol):
    """The vision pipeline as the dashboard sees it."""

    def live_jpeg(self) -> bytes | None: ...

    def status(self) -> dict[str, Any]: ...

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None: ...


@dataclass
class WebState:
    """Everything one dashboard app holds (``app.extensions["table_companion"]``)."""

    table: Table
    web_config: WebConfig
    state_dir: Path
    guard: Guard
    camera: Camera | None = None
    closing: threading.Event = field(default_factory=threading.Event)
    cache: render.RenderCache = field(default_factory=render.RenderCache)
    zones: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    _streams: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def stream_opened(self) -> None:
        with self._lock:
            self._streams += 1

    def stream_closed(self) -> None:
        with self._lock:
            self._streams -= 1

    @property
    def streams(self) -> int:
        """How many live streams are open now."""
        with self._lock:
            return self._streams

    def submit(self, name: str, args: dict[str, Any] | None = None, source: str = "host") -> Result:
        """Send a command to the table and wait for its answer (committed or refused)."""
        future = self.table.submit(Command(name, args or {}, source=source))
        try:
            return future.result(timeout=SUBMIT_TIMEOUT_S)
        except FutureTimeout:
            return Result(False, reason="The table did not answer in time; try again.")


def state() -> WebState:
    """The ``WebState`` of the current app."""
    return cast(WebState, current_app.extensions[EXTENSION])


def create_app(
    table: Table,
    *,
    web_config: WebConfig,
    state_dir: Path,
    camera: Camera | None = None,
    testing: bool = False,
) -> Flask:
    """The dashboard app for ``table``; serve it with ``web.server.serve``."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        TESTING=testing,
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=testing,
        MAX_CONTENT_LENGTH=64 * 1024,
        SEND_FILE_MAX_AGE_DEFAULT=300,
        TEMPLATES_AUTO_RELOAD=False,
    )
    app.debug = False
    guard = Guard(state_dir)
    app.secret_key = secrets.token_hex(16)  # Flask's session is unused; cookies are ours
    app.extensions[EXTENSION] = WebState(table, web_config, state_dir, guard, camera)
    _register(app)
    app.before_request(_check_csrf)
    app.after_request(_finish_response)
    app.register_error_handler(HTTPException, _error)
    render.install(app)
    return app


def _register(app: Flask) -> None:
    from web import api, camera, host, public, seat, stream

    for module in (public, seat, host, api, stream, camera):
        app.register_blueprint(module.bp)


# --- request guards ---------------------------------------------------------------------

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _check_csrf() -> None:
    """Refuse a state-changing request without its CSRF token or from another site."""
    if request.method in SAFE_METHODS:
        return
    st = state()
    if not same_origin(request) or not st.guard.csrf_ok(request):
        abort(403, description="This request is missing its security token: reload the page.")


def _error(exc: HTTPException) -> tuple[Any, int]:
    """Errors as JSON for the API, as a readable dark page for people."""
    code = exc.code or 500
    if request.path.startswith("/api/"):
        return jsonify({"accepted": False, "reason": exc.description, "error": exc.name}), code
    page = render_template("error.html", code=code, name=exc.name, description=exc.description)
    return page, code


def csrf_token() -> str:
    """The CSRF token for this browser (sets its cookie on the response if new)."""
    cookie = request.cookies.get(CSRF_COOKIE) or getattr(g, "new_csrf", None)
    if not cookie:
        cookie = secrets.token_urlsafe(18)
        g.new_csrf = cookie
    return state().guard.csrf_for(cookie)


def set_cookie(resp: BaseResponse, name: str, value: str, max_age: int = SEAT_MAX_AGE) -> None:
    """Set a cookie HttpOnly, SameSite=Strict, and Secure when served over https."""
    resp.set_cookie(name, value, max_age=max_age, httponly=True, samesite="Strict",
                    secure=request.is_secure, path="/")


def _finish_response(resp: Response) -> Response:
    new = getattr(g, "new_csrf", None)
    if new:
        set_cookie(resp, CSRF_COOKIE, new)
    resp.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'",
    )
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "same-origin")  # the host token is in a URL
    resp.headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith(("/api/", "/host", "/seat", "/join")):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def is_host() -> bool:
    """Whether this request comes from the host's browser."""
    return bool(getattr(g, "host_signed_in", False)) or state().guard.is_host(request)


def host_required(view: F) -> F:
    """403 unless the request carries the host cookie."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_host():
            abort(403, description="Host only: open the 'Host:' URL that companion serve "
                                   "printed (or run 'companion host').")
        return view(*args, **kwargs)

    return cast(F, wrapper)


def seat_allowed(seat: int) -> bool:
    """Whether this request holds ``seat``'s cookie for the running game."""
    st = state()
    return st.guard.has_seat(request, seat, st.table.hub.latest().game_id)


def seat_required(view: F) -> F:
    """403 unless the request holds the cookie of the seat in the URL (``n``)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not seat_allowed(int(kwargs["n"])):
            abort(403, description="This is another player's seat. Scan your own join code "
                                   "on the host's screen to join your seat.")
        return view(*args, **kwargs)

    return cast(F, wrapper)


def seat_cookie_name(seat: int) -> str:
    return SEAT_COOKIE.format(seat)


__all__ = ["create_app", "state", "WebState", "HOST_COOKIE", "csrf_token", "set_cookie"]
