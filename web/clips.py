"""Dispute clips on the dashboard: a player page, the clip's frames, and a link helper.

Clips are written by ``vision.clips.ClipKeeper`` (wired in ``companion serve``) to
``<state dir>/clips/<game id>/<n>/`` as ``meta.json`` plus numbered JPEGs (the format is
documented there). They show the table as the camera saw it, which everyone at the table
saw too, so the pages are public like the table page.

- ``/clips/<game id>/<n>``: the player (play, pause, frame by frame, the running clock);
- ``/clips/<game id>/<n>/meta.json`` and ``/clips/<game id>/<n>/<file>.jpg``;
- the template global ``clip_link(game_id, n)``: the player's address, or ``None`` when
  that clip does not exist (no camera, or not written yet).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, render_template

from web.context import state

#: the folder under the state dir (``vision.clips.ClipKeeper`` writes there)
CLIPS = "clips"
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_FILE = re.compile(r"^\d{4}\.jpg$")

bp = Blueprint("clips", __name__, url_prefix="/clips")


def clip_dir(game_id: str, n: int) -> Path | None:
    """The folder of clip ``n`` of ``game_id`` when it exists (ids checked), else None."""
    if not _ID.match(game_id) or n < 1:
        return None
    folder = state().state_dir / CLIPS / game_id / str(n)
    return folder if (folder / "meta.json").is_file() else None


@bp.app_template_global()
def clip_link(game_id: Any, n: Any) -> str | None:
    """The clip player's address, or None when there is no such clip.

    With a camera running, a clip that is still being written gets its link at once (the
    player waits for it); without a camera there is never a clip.
    """
    if not isinstance(game_id, str) or not isinstance(n, int) or isinstance(n, bool):
        return None
    if not _ID.match(game_id) or n < 1:
        return None
    exists = clip_dir(game_id, n) is not None
    return f"/clips/{game_id}/{n}" if exists or state().camera is not None else None


def _meta(game_id: str, n: int) -> dict[str, Any]:
    folder = clip_dir(game_id, n)
    if folder is None:
        abort(404, description="No such clip: it was recorded without a camera, or its game "
                               "is over and was replaced.")
    try:
        meta: dict[str, Any] = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        abort(404, description="That clip could not be read.")
    return meta


@bp.get("/<game_id>/<int:n>")
def player(game_id: str, n: int) -> str:
    """The clip player page (it loads ``meta.json``, waiting while the clip is written)."""
    if clip_link(game_id, n) is None:
        abort(404, description="No such clip: it was recorded without a camera, or its game "
                               "is over and was replaced.")
    snap = state().table.hub.latest()
    s = {"game": snap.game if snap.game_id == game_id else None, "game_id": game_id}
    return render_template("clip.html", s=s, n=n, game_id=game_id)


@bp.get("/<game_id>/<int:n>/meta.json")
def meta_json(game_id: str, n: int) -> Response:
    return Response(json.dumps(_meta(game_id, n)), mimetype="application/json")


@bp.get("/<game_id>/<int:n>/<name>")
def frame(game_id: str, n: int, name: str) -> Response:
    folder = clip_dir(game_id, n)
    if folder is None or not _FILE.match(name) or not (folder / name).is_file():
        abort(404, description="No such frame.")
    resp = Response((folder / name).read_bytes(), mimetype="image/jpeg")
    resp.cache_control.max_age = 3600
    return resp
