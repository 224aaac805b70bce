"""The JSON API: state in, commands out.

``GET /api/state`` (public snapshot with ``seq`` and ``game``), ``GET /api/seat/<n>``
(seat n only), ``GET /api/history``; ``POST /api/seat/<n>/action`` with
``{"action": {...}}`` (seat n only) and ``POST /api/host/<start|undo|end|action>``
(host only). Every POST needs the CSRF token; the answer is
``{"accepted": bool, "reason": str|null, "seq": int|null, "already_done": bool}`` (409
when refused). Bodies are bounded JSON (``companion.inputs.parse_json``); a key the
endpoint does not take is a 400 that names it. A POST may carry a client request id
(body key ``request_id`` or header ``X-Request-Id``): a retry of a request that was
stored is answered ``already_done`` and never stored twice.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from companion.inputs import HOST, Result, Source, parse_json, request_id_problem
from web import render
from web.board import with_saved_board
from web.context import state
from web.guards import host_required, is_host, seat_required
from web.limits import TOO_FAST

bp = Blueprint("api", __name__, url_prefix="/api")


def _answer(result: Result) -> tuple[Response, int]:
    body = {"accepted": result.accepted, "reason": result.reason, "seq": result.seq,
            "ignored": result.ignored, "already_done": result.already}
    return jsonify(body), 200 if result.accepted else 409


def _json_body() -> dict[str, Any]:
    """The request's JSON object (bounded: ``companion.inputs.parse_json``), or 400."""
    try:
        data = parse_json(request.get_data(cache=True))
    except ValueError as exc:
        abort(400, description=f'{str(exc).capitalize()}. Send a JSON object, e.g. '
                               '{"action": {"do": "..."}}.')
    if not isinstance(data, dict):
        abort(400, description='Send a JSON object, e.g. {"action": {"do": "..."}}.')
    return data


def request_id(body: dict[str, Any]) -> str | None:
    """The client's request id: body key ``request_id`` or header ``X-Request-Id``."""
    rid = body.get("request_id", request.headers.get("X-Request-Id"))
    problem = request_id_problem(rid)
    if problem:
        abort(400, description=problem.capitalize() + ".")
    return rid if isinstance(rid, str) else None


def _known(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """400 naming the first key the endpoint does not know (nothing unknown is stored)."""
    unknown = sorted(set(body) - set(allowed) - {"request_id", "csrf_token"})
    if unknown:
        abort(400, description=f'Unknown key "{unknown[0][:40]}": this request takes '
                               + ", ".join(f'"{k}"' for k in allowed) + ".")


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
    """A game action from seat ``n``'s phone (the table refuses acting for another);
    429 when the phone posts too fast (``web.limits``): the table never sees it."""
    body = _json_body()
    if not state().seat_may_post(n):
        return jsonify({"accepted": False, "reason": TOO_FAST, "seq": None, "ignored": False,
                        "already_done": False}), 429
    _known(body, ("action",))
    return _answer(state().submit("action", {"action": body.get("action")},
                                  source=Source.of_seat(n), request_id=request_id(body)))


@bp.post("/host/<command>")
@host_required
def host_command(command: str) -> tuple[Response, int]:
    """``start`` (game, players, options[, seed]), ``undo``, ``end`` or any ``action``."""
    if command not in ("start", "undo", "end", "action"):
        abort(404)
    body = _json_body() if request.get_data(cache=True) else {}
    args: dict[str, Any] = {}
    if command == "start":
        _known(body, ("game", "players", "options", "seed"))
        args = {k: body[k] for k in ("game", "players", "options", "seed") if k in body}
        if isinstance(args.get("options", {}), dict):  # else the start command says why
            args["options"] = with_saved_board(str(args.get("game", "")),
                                               dict(args.get("options") or {}),
                                               state().state_dir)
    elif command == "action":
        _known(body, ("action",))
        args = {"action": body.get("action")}
    else:
        _known(body, ())
    return _answer(state().submit(command, args, source=HOST, request_id=request_id(body)))


@bp.get("/whoami")
def whoami() -> Response:
    """Which roles this browser holds: ``host`` and the joined ``seats``."""
    st = state()
    snap = st.table.hub.latest()
    return jsonify({"host": is_host(),
                    "seats": st.guard.seats_of(request, snap.game_id, len(snap.players))})
