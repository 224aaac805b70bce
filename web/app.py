"""The Flask app factory: one blueprint per concern, per-app state in ``app.extensions``.

``create_app(table, web_config=..., state_dir=...)`` builds the dashboard around a
running ``companion.table.Table``; the app only submits ``Command``s and reads
``Snapshot``s. Debug mode is forced off: the dashboard is reachable by every phone on
the network.

The factory imports its parts; no part imports the factory:

- ``web.context``: ``WebState`` (table, guard, camera, render cache) and ``state()``;
- ``web.guards``: CSRF, host and seat checks, cookies and security headers;
- ``web.render``: snapshots into payloads and HTML, and the template helpers;
- the blueprints ``web.public``, ``web.seat``, ``web.host``, ``web.api``, ``web.stream``
  and ``web.camera``.
"""

from __future__ import annotations

import logging
import secrets
import threading
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.exceptions import HTTPException, InternalServerError

from companion.config import WebConfig
from companion.inputs import parse_json
from companion.table import Table
from web import (
    api,
    clips,
    context,
    guards,
    host,
    league_link,
    public,
    render,
    saving,
    seat,
    stats,
    stream,
)
from web import board as board_pages
from web import camera as camera_pages
from web import cards as card_pages
from web import handover as handover_pages
from web import joins as join_pages
from web import network as network_pages
from web.auth import Guard, host_token
from web.context import Camera

log = logging.getLogger(__name__)

#: the largest request body (JSON actions are a few hundred bytes)
MAX_BODY = 64 * 1024


class BoundedJSON(DefaultJSONProvider):
    """JSON in: bounded depth, finite numbers, short fields (``parse_json``); out: no NaN."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_json(s)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


class CompiledTemplates(BytecodeCache):
    """Every template compiled once per process, whatever app loads it.

    Jinja compiles a template for each new environment, and each ``create_app`` makes one:
    every app the test suite makes compiled every template again (under yappi, Jinja's
    compiler was the largest share of the Python time of the TV and dashboard browser
    tests, about a third). The code is kept by template name and file
    and used only while its source is unchanged (Jinja checks the checksum). Every app
    here is built by ``create_app`` with the same filters and options, so one template
    compiles to the same code in each.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            self._code[bucket.key] = code


COMPILED = CompiledTemplates()

#: in registration order
BLUEPRINTS = (public.bp, seat.bp, host.bp, api.bp, stream.bp, camera_pages.bp, clips.bp,
              board_pages.bp, card_pages.bp, network_pages.bp, handover_pages.bp, league_link.bp,
              stats.bp, join_pages.bp)


def create_app(
    table: Table,
    *,
    web_config: WebConfig,
    state_dir: Path,
    camera: Camera | None = None,
    testing: bool = False,
    game: str = "",
    players: tuple[str, ...] = (),
    demo: bool = False,
) -> Flask:
    """The dashboard app for ``table``; serve it with ``web.server.serve``."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.jinja_options = {**app.jinja_options, "bytecode_cache": COMPILED}
    app.config.update(
        TESTING=testing,
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=testing,
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        MAX_FORM_PARTS=100,
        SEND_FILE_MAX_AGE_DEFAULT=300,
        TEMPLATES_AUTO_RELOAD=False,
    )
    app.debug = False
    app.json = BoundedJSON(app)
    guard = Guard(state_dir)
    host_token(state_dir)  # made once now: concurrent first requests would race to create it
    app.secret_key = secrets.token_hex(16)  # Flask's session is unused; cookies are ours
    context.install(app, context.WebState(table, web_config, state_dir, guard, camera,
                                         default_game=game, default_players=tuple(players),
                                         demo=demo))
    for bp in BLUEPRINTS:
        app.register_blueprint(bp)
    app.before_request(guards.check_csrf)
    app.after_request(guards.finish_response)
    app.register_error_handler(HTTPException, _error)
    saving.install(app)  # a refused save (disk full, read-only) in words, never a 500
    if not testing:
        app.register_error_handler(Exception, _unexpected)
    render.install(app, csrf_token=guards.csrf_token, is_host=guards.is_host,
                   my_seats=guards.my_seats)
    return app


def _error(exc: HTTPException) -> tuple[Any, int]:
    """Errors as JSON for the API, as a readable dark page for people."""
    code = exc.code or 500
    if request.path.startswith("/api/"):
        return jsonify({"accepted": False, "reason": exc.description, "error": exc.name}), code
    page = render_template("error.html", code=code, name=exc.name, description=exc.description)
    return page, code


def _unexpected(exc: Exception) -> tuple[Any, int]:
    """A failure nobody foresaw: logged in full, a plain 500 for the person."""
    log.exception("unexpected failure on %s %s", request.method, request.path)
    return _error(InternalServerError(
        description="Something went wrong on the table's side; nothing changed. Try again."))


__all__ = ["COMPILED", "BoundedJSON", "CompiledTemplates", "MAX_BODY", "create_app"]
