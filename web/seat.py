"""Seat pages: joining by a one-time token, and a seat's private page.

``GET /join/<token>`` asks "join as <name>?" (so a link preview cannot use the token
up); the ``POST`` uses the token and sets the signed seat cookie, bound to the game.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.inputs import Source
from web import render
from web.context import state
from web.guards import csrf_token, seat_cookie_name, seat_required, set_cookie
from web.limits import TOO_FAST

bp = Blueprint("seat", __name__)


def _players() -> tuple[str | None, list[str]]:
    snap = state().table.hub.latest()
    return snap.game_id, list(snap.players)


@bp.get("/join/<token>")
def join_page(token: str) -> tuple[str, int]:
    """Ask before using the token."""
    found = state().guard.joins.peek(token)
    game_id, players = _players()
    if found is None or found[0] != game_id:
        return render_template("join.html", error=True, token=token), 410
    seat = found[1]
    return render_template("join.html", error=False, token=token, seat=seat,
                           name=players[seat] if seat < len(players) else f"Seat {seat + 1}"), 200


@bp.post("/join/<token>")
def join(token: str) -> BaseResponse:
    """Use the token: set this seat's cookie and go to the seat page."""
    st = state()
    found = st.guard.joins.consume(token)
    game_id, _ = _players()
    if found is None or found[0] != game_id:
        return Response(render_template("join.html", error=True, token=token), status=410)
    seat = found[1]
    resp = redirect(url_for("seat.seat_page", n=seat), code=303)
    set_cookie(resp, seat_cookie_name(seat), st.guard.seat_cookie(found[0], seat))
    return resp


@bp.get("/seat/<int:n>")
@seat_required
def seat_page(n: int) -> str:
    """Seat ``n``'s private page; updates live from its own stream."""
    snap = state().table.hub.latest()
    if n >= len(snap.players):
        abort(404)
    payload = render.seat_payload(snap, n)
    fragment = render.plain_posts(render.fragment("seat", payload, seat=n),
                                  url_for("seat.seat_act", n=n), csrf_token())
    return render_template("seat.html", s=payload, seat=n, fragment=fragment)


@bp.post("/seat/<int:n>/act")
@seat_required
def seat_act(n: int) -> BaseResponse:
    """A seat's form posted without JavaScript: do it, then back to the seat page (where
    a refusal shows)."""
    try:
        action = render.action_from_form(request.form)
    except ValueError as exc:
        abort(400, description=f"{exc}. Go back and correct it.")
    if not state().seat_may_post(n):
        abort(429, description=TOO_FAST)
    state().submit("action", {"action": action}, source=Source.of_seat(n))
    return redirect(url_for("seat.seat_page", n=n), code=303)
