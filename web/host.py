"""The host's pages: the panel (``/host``), game setup, join codes and game records.

``/host?token=<host token>`` signs the host's browser in (a cookie) and shows the panel;
without the cookie or the token every host page answers 403.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from companion import games
from companion.games.engine import AnyEngine
from companion.inputs import HOST
from companion.records import export_lines
from companion.snapshot import Snapshot
from companion.store import StoreError
from web import render
from web.auth import HOST_COOKIE, HOST_COOKIE_SAMESITE
from web.context import EXTENSION, state
from web.guards import HOST_ONLY, csrf_token, host_required, is_host, set_cookie
from web.joins import base_url as base_url  # web.network draws codes through the host
from web.joins import qr_svg as qr_svg
from web.public import undo_target

bp = Blueprint("host", __name__, url_prefix="/host")


@bp.app_context_processor
def _demo_table() -> dict[str, Any]:
    """``demo_table`` in templates: the table runs the demo (``serve --demo``)."""
    st = current_app.extensions.get(EXTENSION)
    return {"demo_table": bool(getattr(st, "demo", False))}


#: the names the config gives when nobody wrote any (``Seat 1``, ``Seat 2``, ...)
PLACEHOLDER = re.compile(r"Seat \d+")


@bp.app_template_global()
def idle_tv() -> dict[str, Any] | None:
    """What the TV shows while no game runs (``tv.html``), or None during a game.

    ``{address, address_qr}``: the table's address for every phone; ``host_url`` and
    ``host_qr`` only on the host's own screen: the host's page, where the host's phone
    (signed in once, with the link ``./run`` prints) starts a game. The code carries no
    sign-in token: a TV is seen by the whole room, and whoever scanned a token from it
    would be the host.
    """
    st = state()
    if st.table.hub.latest().game_id is not None:
        return None
    address = base_url()
    out: dict[str, Any] = {"address": address, "address_qr": qr_svg(address)}
    if is_host():
        link = f"{address}host"
        out.update(host_url=link, host_qr=qr_svg(link))
    return out


def _joins(snap_game: str | None, players: list[str]) -> list[dict[str, Any]]:
    if snap_game is None:
        return []
    joins = state().guard.joins
    out = []
    for seat, name in enumerate(players):
        if joins.joined(snap_game, seat):  # its code only after asking (web/handover.py)
            out.append({"seat": seat, "name": name, "url": None, "qr": None, "joined": True})
            continue
        url = f"{base_url()}join/{joins.for_seat(snap_game, seat)}"
        out.append({"seat": seat, "name": name, "url": url, "qr": qr_svg(url),
                    "joined": False})
    return out


@bp.post("/seat/<int:n>/reissue")
@host_required
def reissue(n: int) -> Any:
    """A new join code for seat ``n``: the phone that had joined it is told it was replaced."""
    snap = state().table.hub.latest()
    if snap.game_id is None or not 0 <= n < len(snap.players):
        abort(404, description="No such seat in the running game.")
    state().guard.joins.reissue(snap.game_id, n)
    return redirect(url_for("host.panel") + "#join-h", code=303)


@bp.get("")
def panel() -> Any:
    """The host panel; ``?token=`` with the host token signs the browser in (a cookie) and
    redirects to ``/host``, so the token leaves the address bar and the history."""
    st = state()
    token = request.args.get("token")
    if token is not None and st.guard.host_token_ok(token):
        signed_in = redirect(url_for("host.panel"), code=303)
        set_cookie(signed_in, HOST_COOKIE, st.guard.host_cookie(), samesite=HOST_COOKIE_SAMESITE)
        return signed_in
    if not is_host():
        abort(403, description=HOST_ONLY)
    snap = st.table.hub.latest()
    payload = render.host_payload(snap)
    body = render_template(
        "host.html", s=payload, joins=_joins(snap.game_id, list(snap.players)),
        dashboard=base_url(), dashboard_qr=qr_svg(base_url()), records=_records(snap),
        refusal=_last_refusal(snap), fragment=render.fragment("table", payload),
        controls=render.plain_posts(render.fragment("host", payload), url_for("host.host_act"),
                                    csrf_token()) if snap.game else "",
        camera=st.camera, undo_what=undo_target() if snap.game else "")
    return Response(body, mimetype="text/html")


#: options whose value is a seat: offered as the players' names, counted from 1
SEAT_OPTIONS = ("starter", "dealer", "first", "first_player", "first_seat")


def option_controls(engine: AnyEngine, players: list[str]) -> list[dict[str, Any]]:
    """How the setup page offers each option of ``engine``: never as JSON.

    A control is ``{key, label, help, kind, value, choices, min, max, step}``; ``kind`` is
    ``radio`` (the spec's choices, or the players for a seat option), ``check``,
    ``number`` or ``text``. Options that are neither (maps, lists, ``None`` without a
    spec) are not offered: the game uses their default.
    """
    out: list[dict[str, Any]] = []
    for key, default in engine.default_options.items():
        spec = engine.option_specs.get(key)
        c: dict[str, Any] = {"key": key, "label": spec.label if spec else render.humanise(key),
                             "help": spec.help if spec else "", "value": default,
                             "min": spec.minimum if spec else None,
                             "max": spec.maximum if spec else None}
        if key in SEAT_OPTIONS and (default is None or type(default) is int):
            # the players by name, whatever seat numbers a spec lists; its label for "none"
            none = dict(spec.choices).get(None) if spec else None
            choices = [] if default is not None else [("null", none or "Let the game choose",
                                                       True)]
            choices += [(str(i), f"{name or f'Player {i + 1}'} (seat {i + 1})", i == default)
                        for i, name in enumerate(players)]
            c.update(kind="radio", seat=True, choices=choices)
        elif spec is not None and spec.choices:
            c.update(kind="radio", choices=[(json.dumps(v), label, v == default)
                                            for v, label in spec.choices])
        elif isinstance(default, bool):
            c.update(kind="check")
        elif isinstance(default, int | float):
            c.update(kind="number", step=1 if isinstance(default, int) else "any",
                     type="int" if isinstance(default, int) else "float")
        elif isinstance(default, str):
            c.update(kind="text")
        else:
            continue  # a map, a list or None without a spec: the default applies
        out.append(c)
    return out


def _setup_page(players: list[str], current: str | None, error: str | None = None,
                status: int = 200) -> tuple[str, int]:
    available = sorted(games.available().items())
    engines = [{"name": name, "title": engine.title, "min": engine.min_seats,
                "max": engine.max_seats, "options": option_controls(engine, players)}
               for name, engine in available]
    if current not in [name for name, _ in available]:
        current = available[0][0] if available else None
    return render_template("setup.html", engines=engines, players=players, current=current,
                           error=error), status


@bp.post("/act")
@host_required
def host_act() -> Any:
    """A host control posted without JavaScript: do it, then back to the panel."""
    try:
        action = render.action_from_form(request.form)
    except ValueError as exc:
        abort(400, description=f"{exc}. Go back and correct it.")
    state().submit("action", {"action": action}, source=HOST)
    return redirect(url_for("host.panel"), code=303)


@bp.get("/setup")
@host_required
def setup() -> tuple[str, int]:
    """Choose a game, seat the players, set the options (labelled controls, no JSON).

    ``?game=`` and ``?player=`` pre-fill the form (the page without JavaScript shows
    the options of the chosen game only, and reloads to switch games).
    """
    current = state().table.hub.latest()
    players = [p.strip() for p in request.args.getlist("player")] or list(current.players)
    # the config's names ([table] players) until a game has seated others; the config's
    # own placeholders ("Seat 1", ...) are not names: the fields stay empty then
    configured = [n for n in state().default_players if not PLACEHOLDER.fullmatch(n)]
    return _setup_page(players or configured or ["", "", ""],
                       request.args.get("game") or current.game or state().default_game)


def _form_options(engine: AnyEngine, form: Any, players: list[str]) -> dict[str, Any]:
    """The options a plain form post chose (the page without JavaScript)."""
    options: dict[str, Any] = {}
    for c in option_controls(engine, players):
        field = c["key"]
        raw = form.get(field)
        if c["kind"] == "check":
            options[c["key"]] = field in form
        elif raw is None or raw.strip() == "":
            continue
        elif c["kind"] == "radio":
            options[c["key"]] = json.loads(raw)
        elif c["kind"] == "number":
            options[c["key"]] = int(raw) if c["type"] == "int" else float(raw)
        else:
            options[c["key"]] = raw.strip()
    return options


@bp.post("/setup")
@host_required
def start_from_form() -> Any:
    """Start a game from the setup form posted without JavaScript; back to the panel."""
    form = request.form
    players = [p.strip() or f"Player {i + 1}" for i, p in enumerate(form.getlist("player"))]
    name = form.get("game", "")
    try:
        engine = games.get(name)
        options = _form_options(engine, form, players)
    except (LookupError, ValueError) as exc:
        return _setup_page(players, name, f"Check the options: {exc}", 422)
    result = state().submit("start", {"game": engine.name, "players": players,
                                      "options": options})
    if not result.accepted:
        return _setup_page(players, engine.name, result.reason, 409)
    return redirect(url_for("host.panel"), code=303)


def _last_refusal(snap: Snapshot) -> dict[str, Any] | None:
    """The last refusal, whoever made it: the host's panel shows seats' refusals too."""
    if snap.refusal is None:
        return None
    out = snap.refusal.to_json()
    src = snap.refusal.source
    out["who"] = (render.seat_name(list(snap.players), src.seat) if src.seat is not None
                  else f"the {src.kind}")
    return out


def _title(game: str | None) -> str:
    """A game's name as the box prints it ("The Nasty 7", "Crime Lords")."""
    try:
        return games.get(game or "").title
    except LookupError:
        return render.humanise(game)


def _records(snap: Snapshot) -> list[dict[str, Any]]:
    """Games whose record may be downloaded: the current one once over, ended ones."""
    out = []
    if snap.game_id is not None and snap.outcome is not None:
        out.append({"game_id": snap.game_id, "game": _title(snap.game),
                    "label": "this game (over)"})
    try:
        stored = state().table.store.games()
    except StoreError:
        stored = []
    for info in reversed(stored[-10:]):
        if info.closed:
            out.append({"game_id": info.game_id, "game": _title(info.game),
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
