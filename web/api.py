"""The JSON API: state in, commands out.

``GET /api/state`` (public snapshot with ``seq`` and ``game``), ``GET /api/seat/<n>``
(seat n only), ``GET /api/history``; ``POST /api/seat/<n>/action`` with
``{"action": {...}}`` (seat n only) and ``POST /api/host/<start|undo|end|action>``
(host only). Every POST needs the CSRF token; the answer is
``{"accepted": bool, "reason": str|null, "seq": int|null}`` (409 when refused).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from companion.inputs import HOST, Result, Source
from web import render
from web.context import state
from web.guards import host_required, is_host, seat_required

bp = Blueprint("api", __name__, url_prefix="/api")


def _answer(result: Result) -> tuple[Response, int]:
    body = {"accepted": result.accepted, "reason": result.reason, "seq": result.seq,
            "ignored": result.ignored}
    return jsonify(body), 200 if result.accepted else 409


def _json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description='Send a JSON object, e.g. {"action": {"do": "..."}}.')
    return data


@bp.get("/state")
def public_state() -> Response:
    """The public snapshot."""
    return jsonify(render.public_payload(state().table.hub.latest()))


@bp.get("/seat/<int:n>")
@seat_required
def seat_state(n: int) -> Response:
    """Seat ``n``'s snapshot with its ``private`` view."""
    return jsonify(render.seat_payload(state().table.hub.latest(), n))


@bp.get("/history")
def history() -> Response:
    """The current game's inputs (public keys only), oldest first, with ``undone``."""
    st = state()
    snap = st.table.hub.latest()
    return jsonify({"game_id": snap.game_id, "players": list(snap.players),
                    "can_undo": snap.can_undo, "entries": st.table.history()})


@bp.post("/seat/<int:n>/action")
@seat_required
def seat_action(n: int) -> tuple[Response, int]:
    """A game action from seat ``n``'s phone (the table refuses acting for another)."""
    action = _json_body().get("action")
    return _answer(state().submit("action", {"action": action}, source=Source.of_seat(n)))


@bp.post("/host/<command>")
@host_required
def host_command(command: str) -> tuple[Response, int]:
    """``start`` (game, players, options[, seed]), ``undo``, ``end`` or any ``action``."""
    if command not in ("start", "undo", "end", "action"):
        abort(404)
    body = _json_body() if request.data else {}
    args: dict[str, Any] = {}
    if command == "start":
        args = {k: body[k] for k in ("game", "players", "options", "seed") if k in body}
    elif command == "action":
        args = {"action": body.get("action")}
    return _answer(state().submit(command, args, source=HOST))


@bp.get("/whoami")
def whoami() -> Response:
    """Which roles this browser holds: ``host`` and the joined ``seats``."""
    st = state()
    snap = st.table.hub.latest()
    return jsonify({"host": is_host(),
                    "seats": st.guard.seats_of(request, snap.game_id, len(snap.players))})
