"""The camera live view (host only): the picture with tag outlines, and the zone editor.

Zones are named, normalised polygons (0..1 of the frame), saved through
``camera.set_zones``. The editor offers the names that mean something to the games as
labelled choices (``zone_choices``): ``play`` (cards played), ``discard`` (the discard
pile) and ``seat:N`` (in front of player N, counted from 0, shown with the player's name);
any other name may be typed (a game may give it a meaning, e.g. a board space). The
engine receives the name as ``TagInput.zone`` (docs/vision.md, "Zones").
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request

from web.context import Polygons, state
from web.guards import host_required

bp = Blueprint("camera", __name__)


def _zones() -> Polygons:
    st = state()
    status = st.camera.status() if st.camera is not None else {}
    found = status.get("zones")
    return dict(found) if isinstance(found, dict) else dict(st.zones)


def grown_zones(status: dict[str, Any] | None) -> Polygons:
    """The zones that grew as cards landed, as the camera uses them now: the status's
    ``grown_zones`` (every one), else its ``grown`` (the last one); empty if none grew."""
    status = status or {}
    found = status.get("grown_zones")
    if isinstance(found, dict):
        return {str(n): [(float(x), float(y)) for x, y in pts] for n, pts in found.items()}
    last = status.get("grown")
    if isinstance(last, dict) and last.get("zone") and last.get("polygon"):
        return {str(last["zone"]): [(float(x), float(y)) for x, y in last["polygon"]]}
    return {}


def moved_sentence(status: dict[str, Any] | None) -> str | None:
    """What the host must do when the camera was knocked and the zones could not follow
    the table (``status["table"]["sentence"]``), else None."""
    table = (status or {}).get("table")
    sentence = table.get("sentence") if isinstance(table, dict) else None
    return str(sentence) if sentence else None


def zone_choices(players: list[str]) -> list[dict[str, str]]:
    """The zones the editor offers by meaning: ``name`` (what the engine gets), ``label``
    (the choice and the list) and ``short`` (written on the picture)."""
    out = [{"name": "play", "label": "Play zone (cards played)", "short": "Play"},
           {"name": "discard", "label": "Discard pile", "short": "Discard"}]
    out += [{"name": f"seat:{i}", "label": f"In front of {name}", "short": name}
            for i, name in enumerate(players)]
    return out


@bp.get("/host/camera")
@host_required
def live() -> str:
    """The live picture (refreshed a few times a second) and the zone editor."""
    st = state()
    status = st.camera.status() if st.camera is not None else None
    players = list(st.table.hub.latest().players)
    return render_template("camera.html", has_camera=st.camera is not None, status=status,
                           zones=_zones(), choices=zone_choices(players),
                           grown=grown_zones(status), moved=moved_sentence(status))


@bp.get("/tv/camera-check")
def tv_check() -> Response:
    """The pre-game check for the TV (``static/tv.js`` asks before a game): its lines and
    their fixes as HTML, nothing else of the camera (every guest may see the TV); empty
    without a camera."""
    camera = state().camera
    html = "" if camera is None else render_template(
        "_camera_check.html", camera_status=camera.status(), on_tv=True)
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.get("/host/camera.jpg")
@host_required
def picture() -> Response:
    """The newest annotated frame (204 before the first, 404 without a camera)."""
    camera = state().camera
    if camera is None:
        abort(404, description="No camera on this table.")
    jpeg = camera.live_jpeg()
    if jpeg is None:
        return Response(status=204)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/api/camera")
@host_required
def status() -> Response:
    """The camera's status (state, fps, decode time, visible tags), the zones, the zones
    that grew (``grown``) and the sentence of a knocked camera (``moved``)."""
    camera = state().camera
    found = camera.status() if camera is not None else None
    body: dict[str, Any] = {"camera": found, "zones": _zones(), "grown": grown_zones(found),
                            "moved": moved_sentence(found)}
    return jsonify(body)


def parse_zones(data: Any) -> Polygons:
    """``{"zones": {name: [[x, y], ...]}}`` checked: 3+ points each, inside 0..1."""
    zones = data.get("zones") if isinstance(data, dict) else None
    if not isinstance(zones, dict):
        raise ValueError('Send {"zones": {"name": [[x, y], ...]}}.')
    out: Polygons = {}
    for name, points in zones.items():
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise ValueError("A zone needs a name of 1 to 40 characters.")
        if not isinstance(points, list) or len(points) < 3:
            raise ValueError(f"Zone {name!r} needs at least 3 points.")
        poly = []
        for p in points:
            if (not isinstance(p, list | tuple) or len(p) != 2
                    or not all(isinstance(c, int | float) and 0 <= c <= 1 for c in p)):
                raise ValueError(f"Zone {name!r}: every point is [x, y] between 0 and 1.")
            poly.append((float(p[0]), float(p[1])))
        out[name.strip()] = poly
    return out


@bp.post("/api/camera/zones")
@host_required
def save_zones() -> tuple[Response, int]:
    """Replace the zones (host only)."""
    st = state()
    if st.camera is None:
        return jsonify({"accepted": False, "reason": "No camera on this table."}), 409
    try:
        zones = parse_zones(request.get_json(silent=True))
    except ValueError as exc:
        return jsonify({"accepted": False, "reason": str(exc)}), 400
    st.camera.set_zones(zones)
    st.zones = zones
    return jsonify({"accepted": True, "reason": None, "zones": zones}), 200


NOTHING_GREW = "Nothing grew: the zones are as you drew them."


@bp.post("/api/camera/undo-growth")
@host_required
def undo_growth() -> tuple[Response, int]:
    """Undo the pile's growth (host only): the zones as drawn are used and saved, and
    answered; a sentence when there is no camera or nothing grew."""
    st = state()
    if st.camera is None:
        return jsonify({"accepted": False, "reason": "No camera on this table."}), 409
    undo = getattr(st.camera, "undo_growth", None)
    zones = undo() if callable(undo) else None
    if zones is None:
        return jsonify({"accepted": False, "reason": NOTHING_GREW}), 409
    st.zones = dict(zones)
    return jsonify({"accepted": True, "reason": None, "zones": zones}), 200
