"""What tables call: ``POST /api/v1/join`` (a join code) and ``POST /api/v1/results``.

A push carries one ``GameResult`` (``companion.results``) and the table's token in
``Authorization: Bearer``. It is checked whole before anything is stored; a refused push
gets ``{"accepted": false, "reason": ...}`` (a sentence: ``league.validate`` says what is
checked) and stores nothing. The same (table, game,
seq) pushed again is "already stored" (200), never counted twice.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request

from league import queries, store
from league.auth import bearer
from league.context import state
from league.validate import RefusedError, check

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="Send one JSON object (Content-Type: application/json). "
                             "Nothing was stored.")
    return data


def _address() -> str:
    return request.remote_addr or "?"


@bp.post("/join")
def join() -> Any:
    st = state()
    if not st.joins.allow(_address()):
        abort(429, description="Too many join attempts from this address: wait a minute.")
    code = _body().get("code")
    if not isinstance(code, str) or not 4 <= len(code) <= 40:
        abort(400, description="Type the league's join code (8 letters and digits).")
    try:
        table, token = store.join(st.pool, code)
    except store.JoinError as exc:
        abort(400, description=str(exc))
    return jsonify({"accepted": True, "table": table.key, "name": table.name,
                    "token": token}), 201


@bp.post("/results")
def results() -> Any:
    st = state()
    table = st.table(bearer(request))
    if table is None:
        if not st.joins.allow(_address()):
            abort(429, description="Too many wrong tokens from this address: wait a minute.")
        abort(401, description="This table is not part of the league (unknown token): join "
                               "it again from the host page.")
    if not st.pushes.allow(table.key):
        abort(429, description="This table sends too many results at once: it will retry.")
    try:
        result, offset = check(_body(), st.wall())
    except RefusedError as exc:
        abort(400, description=f"The league refused this game: {exc}. Nothing was stored.")
    try:
        outcome = store.push(st.pool, table, result, offset)
    except ValueError as exc:
        abort(400, description=f"The league refused this game: {exc}. Nothing was stored.")
    st.wake.set()
    code = 200 if outcome == "already stored" else 201
    return jsonify({"accepted": True, "outcome": outcome, "game_id": result.game_id,
                    "seq": result.seq}), code


@bp.get("/players")
def players() -> Any:
    """The league's players for a table to pick from (its token): name and card code."""
    st = state()
    table = st.table(bearer(request))
    if table is None:
        abort(401, description="This table is not part of the league (unknown token): join "
                               "it again from the host page.")
    if not st.pushes.allow(table.key):
        abort(429, description="This table asks too often: it will retry.")
    return jsonify({"players": [{"name": n, "card": c}
                                for n, c in queries.player_cards(st.pool)]})


@bp.get("/health")
def health() -> Any:
    with state().pool.connection() as conn:
        conn.execute("SELECT 1")
    return jsonify({"ok": True})


__all__ = ["bp"]
