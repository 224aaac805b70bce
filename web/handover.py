"""Handing a joined seat to another phone: ``/host/seat/<n>/code``, host only.

A joined seat's code is not on the host panel: anyone who scanned it would take the seat
while the phone holding it still shows it. ``GET`` asks first (whose seat, what happens);
``POST`` hands the seat over (``JoinTokens.reissue``: the phone that held it is told, on
its live stream and on its next page, that its seat was handed to another phone) and
shows the new code for the next phone to scan.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for

from web.context import state
from web.guards import host_required
from web.host import base_url, qr_svg

bp = Blueprint("handover", __name__, url_prefix="/host/seat")


def _seat(n: int) -> tuple[str, str]:
    """The running game's id and the name at seat ``n`` (404 when there is none)."""
    snap = state().table.hub.latest()
    if snap.game_id is None or not 0 <= n < len(snap.players):
        abort(404, description="No such seat in the running game.")
    return snap.game_id, snap.players[n]


@bp.get("/<int:n>/code")
@host_required
def ask(n: int) -> Any:
    """Ask before showing a joined seat's code; a seat nobody joined has it on the panel."""
    game_id, name = _seat(n)
    joins = state().guard.joins
    if not joins.joined(game_id, n):
        url = f"{base_url()}join/{joins.for_seat(game_id, n)}"
        return render_template("handover.html", seat=n, name=name, url=url, qr=qr_svg(url))
    return render_template("handover.html", seat=n, name=name, url=None, qr=None)


@bp.post("/<int:n>/code")
@host_required
def hand_over(n: int) -> Any:
    """Hand seat ``n`` to the next phone that scans its new code; then show that code."""
    game_id, _ = _seat(n)
    state().guard.joins.reissue(game_id, n)
    return redirect(url_for("handover.ask", n=n), code=303)


__all__ = ["bp"]
