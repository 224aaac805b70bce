"""The board page (host only): a board game's spaces, their names, the streets, camera zones.

It serves the game that brings the ``board_editor`` feature (``Engine.features``).

The host draws each space as a zone over the camera picture (or, without a camera, only
names it), names it, and taps pairs of spaces to connect them by a street. The board is
saved with the table (``<state dir>/board.json``) and offered to every new game as
option ``board`` (``saved_board``); the camera zones of the spaces are saved through the
camera like any zones. The board is checked by the game's own engine (``new_game``), so
the rules and the page never disagree about what a board is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion import games
from companion.atomic import remove, write_atomic
from companion.games.base import Setup, SetupError
from web.context import state
from web.guards import host_required

bp = Blueprint("board", __name__)

FEATURE = "board_editor"
FILE = "board.json"
#: a zone drawn for a space: normalised polygon
Zone = list[tuple[float, float]]


def _engine() -> Any:
    return games.first_with(FEATURE)


def default_board() -> dict[str, Any]:
    """The engine's built-in board, as ``{"spaces": [...], "streets": [...]}``."""
    engine = _engine()
    view = engine.public_view(engine.new_game(Setup(seats=("A", "B"))))["board"]
    spaces = [{k: s[k] for k in ("id", "name", "kind", "x", "y")} for s in view["spaces"]]
    return {"spaces": spaces, "streets": view["streets"]}


def saved_board(state_dir: Path) -> dict[str, Any] | None:
    """The board the host saved for this table, or ``None``."""
    path = state_dir / FILE
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    board = data.get("board") if isinstance(data, dict) else None
    return board if isinstance(board, dict) else None


def check_board(board: Any) -> dict[str, Any]:
    """``board`` as the engine will use it; ``ValueError`` says what to fix."""
    engine = _engine()
    try:
        state = engine.new_game(Setup(seats=("A", "B"), options={"board": board}))
    except SetupError as exc:
        raise ValueError(str(exc).removeprefix(f"{engine.name}: ")) from None
    view = engine.public_view(state)["board"]
    spaces = [{k: s[k] for k in ("id", "name", "kind", "x", "y")} for s in view["spaces"]]
    return {"spaces": spaces, "streets": view["streets"]}


def with_saved_board(game: str, options: dict[str, Any], state_dir: Path) -> dict[str, Any]:
    """``options`` for a new game, with the table's saved board when it has none."""
    try:
        name = games.get(game).name
    except LookupError:
        return options  # the start command says which game is unknown
    if not games.get(name).has(FEATURE) or options.get("board") is not None:
        return options
    board = saved_board(state_dir)
    return options if board is None else {**options, "board": board}


@bp.get("/host/board")
@host_required
def page() -> str:
    st = state()
    board = saved_board(st.state_dir) or default_board()
    return render_template("board.html", board=board, has_camera=st.camera is not None,
                           saved=saved_board(st.state_dir) is not None)


@bp.get("/api/board")
@host_required
def get_board() -> Response:
    st = state()
    saved = saved_board(st.state_dir)
    return jsonify({"board": saved or default_board(), "saved": saved is not None})


@bp.post("/api/board")
@host_required
def save_board() -> tuple[Response, int]:
    """Check and save ``{"board": {...}, "zones": {space name: polygon}}`` (zones optional)."""
    st = state()
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify({"accepted": False, "reason": 'Send {"board": {...}}.'}), 400
    if body.get("reset"):
        remove(st.state_dir / FILE, what="the board")
        return jsonify({"accepted": True, "reason": None, "board": default_board()}), 200
    try:
        board = check_board(body.get("board"))
        zones = _zones(body.get("zones"), board)
    except ValueError as exc:
        return jsonify({"accepted": False, "reason": str(exc)}), 400
    path = st.state_dir / FILE
    write_atomic(path, json.dumps({"board": board}, ensure_ascii=False, indent=1), what="the board")
    if zones and st.camera is not None:
        merged = {**st.zones, **zones}
        st.camera.set_zones(merged)
        st.zones = merged
    return jsonify({"accepted": True, "reason": None, "board": board,
                    "zones": sorted(zones)}), 200


def _zones(raw: Any, board: dict[str, Any]) -> dict[str, Zone]:
    """Space zones ``{space name: [[x, y], ...]}``, each naming a space of ``board``."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ValueError('"zones" must map a space name to its corners.')
    names = {s["name"] for s in board["spaces"]}
    out: dict[str, Zone] = {}
    for name, points in raw.items():
        if name not in names:
            raise ValueError(f"The zone {str(name)[:40]!r} is not a space of the board.")
        if not isinstance(points, list) or len(points) < 3 or not all(
            isinstance(p, list) and len(p) == 2
            and all(isinstance(c, int | float) and 0 <= c <= 1 for c in p)
            for p in points
        ):
            raise ValueError(f"The zone of {name!r} needs 3 or more corners inside the picture.")
        out[name] = [(float(p[0]), float(p[1])) for p in points]
    return out
