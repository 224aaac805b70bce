"""The host's pages: the panel (``/host``), game setup, join codes and game records.

``/host?token=<host token>`` signs the host's browser in (a cookie) and shows the panel;
without the cookie or the token every host page answers 403.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, abort, g, render_template, request
from markupsafe import Markup

from companion import games
from companion.records import export_lines
from companion.store import StoreError
from companion.table import Snapshot
from web import render
from web.auth import HOST_COOKIE, public_host
from web.context import state
from web.guards import HOST_ONLY, host_required, is_host, set_cookie

bp = Blueprint("host", __name__, url_prefix="/host")

LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def base_url() -> str:
    """The dashboard's address as phones should use it (never localhost)."""
    parts = urlsplit(request.host_url)
    if parts.hostname in LOOPBACK:
        cfg = state().web_config
        return f"http://{public_host(cfg.host)}:{parts.port or cfg.port}/"
    return request.host_url


def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG (dark on white, with its quiet zone)."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True,
                                  title=url))


def _joins(snap_game: str | None, players: list[str]) -> list[dict[str, Any]]:
    if snap_game is None:
        return []
    joins = state().guard.joins
    out = []
    for seat, name in enumerate(players):
        url = f"{base_url()}join/{joins.for_seat(snap_game, seat)}"
        out.append({"seat": seat, "name": name, "url": url, "qr": qr_svg(url)})
    return out


@bp.get("")
def panel() -> Response:
    """The host panel; signs the browser in when ``?token=`` is the host token."""
    st = state()
    token = request.args.get("token")
    signing_in = token is not None and st.guard.host_token_ok(token)
    if not signing_in and not is_host():
        abort(403, description=HOST_ONLY)
    g.host_signed_in = signing_in
    snap = st.table.hub.latest()
    payload = render.public_payload(snap)
    body = render_template(
        "host.html", s=payload, joins=_joins(snap.game_id, list(snap.players)),
        dashboard=base_url(), dashboard_qr=qr_svg(base_url()), records=_records(snap),
        refusal=_last_refusal(snap), fragment=render.fragment("table", payload),
        controls=render.fragment("host", payload) if snap.game else "",
        camera=st.camera)
    resp = Response(body, mimetype="text/html")
    if signing_in:
        set_cookie(resp, HOST_COOKIE, st.guard.host_cookie())
    return resp


@bp.get("/setup")
@host_required
def setup() -> str:
    """Choose a game, seat the players, set the options."""
    engines = []
    for name, engine in sorted(games.available().items()):
        engines.append({"name": name, "title": engine.title, "min": engine.min_seats,
                        "max": engine.max_seats, "options": dict(engine.default_options)})
    current = state().table.hub.latest()
    players = list(current.players) or ["", "", ""]
    return render_template("setup.html", engines=engines, players=players,
                           current=current.game)


def _last_refusal(snap: Snapshot) -> dict[str, Any] | None:
    """The last refusal, whoever made it: the host's panel shows seats' refusals too."""
    return snap.refusal.to_json() if snap.refusal is not None else None


def _records(snap: Snapshot) -> list[dict[str, Any]]:
    """Games whose record may be downloaded: the current one once over, ended ones."""
    out = []
    if snap.game_id is not None and snap.outcome is not None:
        out.append({"game_id": snap.game_id, "game": snap.game, "label": "this game (over)"})
    try:
        stored = state().table.store.games()
    except StoreError:
        stored = []
    for info in reversed(stored[-10:]):
        if info.closed:
            out.append({"game_id": info.game_id, "game": info.game,
                        "label": ", ".join(info.seats)})
    return out


@bp.get("/record/<game_id>.jsonl")
@host_required
def record(game_id: str) -> Response:
    """The game record (JSON Lines) of a game that is over or ended: it holds secrets."""
    st = state()
    snap = st.table.hub.latest()
    if game_id == snap.game_id:
        if snap.outcome is None:
            abort(409, description="The game is still running: its record holds secrets. "
                                   "Download it once the game is over or ended.")
        lines = st.table.record_lines()
    else:
        try:
            if not st.table.store.game(game_id).closed:
                abort(409, description="That game is still open.")
            lines = export_lines(st.table.store, game_id)
        except (StoreError, LookupError):
            abort(404, description="No such game.")
    return Response("\n".join(lines) + "\n", mimetype="application/jsonl", headers={
        "Content-Disposition": f'attachment; filename="{game_id}.jsonl"'})
