"""The league's Flask app: ``create_app(pool, folder)``; one blueprint per concern.

- ``league.api``: what tables call (join, push results), JSON, table tokens;
- ``league.pages``: standings, players, head-to-head, charts, exports (anyone may read);
- ``league.admin``: join codes, tables, merging players (the admin's cookie).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, g, jsonify, render_template, request
from psycopg_pool import ConnectionPool
from werkzeug.exceptions import HTTPException, InternalServerError

from league import admin, api, context, pages
from league.auth import COOKIE_MAX_AGE, CSRF_COOKIE

log = logging.getLogger(__name__)

#: the largest request body: a result is under 2 KB even with twelve seats
MAX_BODY = 16 * 1024
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(pool: ConnectionPool, folder: Path, *, public_url: str = "",
               clock: Callable[[], float] = time.monotonic, testing: bool = False,
               wall: Callable[[], float] = time.time) -> Flask:
    """The league app on ``pool``; its secrets in ``folder``; ``clock`` times the rate
    limits, ``wall`` is the league's date and time (a test passes its own)."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(TESTING=testing, DEBUG=False, PROPAGATE_EXCEPTIONS=testing,
                      MAX_CONTENT_LENGTH=MAX_BODY, MAX_FORM_MEMORY_SIZE=MAX_BODY,
                      MAX_FORM_PARTS=50, TEMPLATES_AUTO_RELOAD=False)
    app.debug = False
    app.secret_key = secrets.token_hex(16)
    app.extensions[context.EXTENSION] = context.make_state(pool, folder, clock, public_url,
                                                                   wall)
    for bp in (pages.bp, api.bp, admin.bp):
        app.register_blueprint(bp)
    app.before_request(_check_csrf)
    app.after_request(_finish)
    app.register_error_handler(HTTPException, _error)
    if not testing:
        app.register_error_handler(Exception, _unexpected)
    app.jinja_env.globals.update(csrf_token=csrf_token)
    app.jinja_env.filters.update(pct=lambda x: f"{100 * x:.0f}\u00a0%",
                                 num=lambda x: f"{x:.1f}", when=when)
    return app


def when(t: float) -> str:
    """A time for people: "25 Nov 2026 14:05" (UTC)."""
    return datetime.fromtimestamp(t, UTC).strftime("%d %b %Y %H:%M")


def csrf_token() -> str:
    cookie = request.cookies.get(CSRF_COOKIE) or getattr(g, "new_csrf", None)
    if not cookie:
        cookie = secrets.token_urlsafe(18)
        g.new_csrf = cookie
    return context.state().guard.csrf_for(cookie)


def _check_csrf() -> None:
    g.started = time.perf_counter()
    if request.method in ("GET", "HEAD", "OPTIONS") or request.path.startswith("/api/"):
        return
    origin = request.headers.get("Origin")
    cross = request.headers.get("Sec-Fetch-Site") == "cross-site" or (
        origin not in (None, "null") and origin.rstrip("/") != request.host_url.rstrip("/"))
    if cross or not context.state().guard.csrf_ok(request):
        abort(403, description="This form is missing its security token: reload the page "
                               "and send it again.")


def _finish(resp: Response) -> Response:
    new = getattr(g, "new_csrf", None)
    if new:
        resp.set_cookie(CSRF_COOKIE, new, max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="Strict", secure=request.is_secure)
    resp.headers.setdefault("Content-Security-Policy", CSP)
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    started = getattr(g, "started", None)
    if started is not None:  # the time spent in the app (the bench reads it)
        resp.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
    if request.path.startswith(("/api/", "/admin")):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def _error(exc: HTTPException) -> tuple[Any, int]:
    code = exc.code or 500
    description = exc.description
    if code == 413:
        description = (f"This request is larger than the league accepts ({MAX_BODY // 1024} "
                       "KB); nothing was stored.")
    if request.path.startswith("/api/"):
        return jsonify({"accepted": False, "reason": description, "error": exc.name}), code
    return render_template("error.html", code=code, name=exc.name,
                           description=description), code


def _unexpected(exc: Exception) -> tuple[Any, int]:
    log.exception("unexpected failure on %s %s", request.method, request.path)
    return _error(InternalServerError(
        description="Something went wrong on the league's side; nothing changed. Try again."))


__all__ = ["MAX_BODY", "create_app"]
