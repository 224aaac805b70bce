"""The league admin's pages: sign in, join codes for tables, the tables, merging players,
games left out by the rater (with why), voiding and restoring games (who, when and why
kept), a seat's player, players added before their first game and their card sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.exports import title
from league import queries, store
from league.auth import ADMIN_COOKIE, COOKIE_MAX_AGE
from league.cards import cards_pdf
from league.context import state

bp = Blueprint("admin", __name__, url_prefix="/admin")

ADMIN_ONLY = ("League admin only: open the admin URL that 'companion league serve' printed "
              "(it ends with ?token=...).")


def _require_admin() -> None:
    if not state().guard.is_admin(request):
        abort(403, description=ADMIN_ONLY)
    if request.method == "POST" and not state().admin_posts.allow(request.remote_addr or "?"):
        abort(429, description="Too many changes at once: wait a moment and send it again.")


@bp.get("")
def home() -> str | BaseResponse:
    st = state()
    token = request.args.get("token")
    if token is not None:
        if not st.guard.admin_ok(token):
            abort(403, description="This admin link is wrong or old: copy it again from the "
                                   "league server's terminal.")
        resp = redirect(url_for("admin.home"))
        resp.set_cookie(ADMIN_COOKIE, st.guard.admin_cookie(), max_age=COOKIE_MAX_AGE,
                        httponly=True, samesite="Strict", secure=request.is_secure)
        return resp
    _require_admin()
    return _home()


def _home(note: str | None = None, code: dict[str, Any] | None = None,
          error: str | None = None, who: str = "") -> str:
    """The admin page; ``who``: the admin's name, kept in the "Your name" fields after a
    change (on game night one person makes several)."""
    st = state()
    return render_template("admin.html", tables=queries.tables(st.pool),
                           players=queries.find_players(st.pool), code=code, note=note,
                           error=error, recent=queries.admin_games(st.pool, "recent"),
                           voided=queries.admin_games(st.pool, "void"),
                           left_out=queries.admin_games(st.pool, "quarantined"),
                           public_url=st.public_url, title=title, who=who)


def _changed(action: Callable[[], object], note: str) -> tuple[str, int]:
    """Run an admin's change; the admin page again, with what happened or why not."""
    who = " ".join(request.form.get("who", "").split())[:40]
    try:
        action()
    except store.ChangeError as exc:
        return _home(error=str(exc), who=who), 400
    state().changed()
    return _home(note=note, who=who), 200


def _by() -> tuple[str, str]:
    return request.form.get("who", "")[:100], request.form.get("why", "")[:300]


@bp.post("/games/<int:ref>/void")
def void(ref: int) -> tuple[str, int]:
    _require_admin()
    who, why = _by()
    return _changed(lambda: store.void(state().pool, ref, who, why),
                    "The game is void: it counts in no standing; restore it below if that "
                    "was a mistake.")


@bp.post("/games/<int:ref>/restore")
def restore(ref: int) -> tuple[str, int]:
    _require_admin()
    who, why = _by()
    return _changed(lambda: store.restore(state().pool, ref, who, why),
                    "The game counts again.")


@bp.post("/games/<int:ref>/seat")
def seat(ref: int) -> tuple[str, int]:
    _require_admin()
    who, why = _by()
    place, player = _int("seat"), _int("player")
    return _changed(lambda: store.set_seat(state().pool, ref, place, player, who, why),
                    "The seat's player is changed; the game is rated again.")


@bp.post("/players")
def add_player() -> tuple[str, int]:
    _require_admin()
    name = request.form.get("name", "")[:100]
    return _changed(lambda: store.add_player(state().pool, name),
                    f"{' '.join(name.split())} is in the league: print their card below.")


@bp.get("/cards.pdf")
def cards() -> Response:
    """Every player's card, eight to a page, their QR codes on the league's address."""
    _require_admin()
    st = state()
    base = st.public_url or request.host_url.rstrip("/")
    try:
        pdf = cards_pdf(queries.player_cards(st.pool), base)
    except ValueError as exc:
        abort(404, description=str(exc))
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": 'attachment; filename="player-cards.pdf"'})


@bp.post("/codes")
def new_code() -> str:
    _require_admin()
    st = state()
    name = " ".join(request.form.get("name", "").split())[:40]
    if not name:
        abort(400, description="Give the table a name (say 'Table by the window').")
    code = store.new_join_code(st.pool, name)
    base = st.public_url or request.host_url.rstrip("/")
    link = f"{base}/#join={code}"
    qr = segno.make(link, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    return _home(code={"code": code, "name": name, "url": base, "qr": qr})


@bp.post("/tables/<key>/revoke")
def revoke(key: str) -> str:
    _require_admin()
    name = state().revoke(key[:20])
    if name is None:
        abort(404, description="This table is not in the league, or was revoked already: "
                               "reload the admin page.")
    return _home(note=f"{name} is revoked: its token works no more; its games stay.")


def _int(name: str) -> int:
    try:
        return int(request.form.get(name, ""))
    except ValueError:
        abort(400, description="Choose from the lists on the admin page.")


@bp.post("/merge")
def merge() -> Any:
    _require_admin()
    keep, gone = _int("keep"), _int("gone")
    try:
        store.merge(state().pool, keep, gone)
    except ValueError as exc:
        abort(400, description=str(exc))
    state().changed()
    return redirect(url_for("pages.player", pid=keep))


__all__ = ["bp"]
