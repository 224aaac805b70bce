"""The league admin's pages: sign in, join codes for tables, the tables, merging players."""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from league import queries, store
from league.auth import ADMIN_COOKIE, COOKIE_MAX_AGE
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


def _home(note: str | None = None, code: dict[str, Any] | None = None) -> str:
    st = state()
    return render_template("admin.html", tables=queries.tables(st.pool),
                           players=queries.find_players(st.pool), code=code, note=note)


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
        abort(400, description="Choose both players from the lists.")


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
