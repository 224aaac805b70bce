"""The host joins the table to a league, and sees what waits to be pushed.

``/host/league``: the league's address and a join code (from the league's admin page,
or its QR), then every finished game goes out through the table's outbox
(``companion.outbox``); "Push now" does not wait for the next round. The partial
``_league_link.html`` on the host page says where the table pushes and how many games
wait. The web never imports the league: it speaks HTTP to it like any table.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from companion.outbox import LeagueError, Outbox, Status, http_send, join_league, outbox_path
from web.context import state
from web.guards import host_required

bp = Blueprint("league_link", __name__, url_prefix="/host/league")


def outbox() -> Outbox:
    st = state()
    return Outbox(outbox_path(st.state_dir, st.table.store))


def league_status() -> Status:
    """For the host page's partial: the link and the outbox's counts."""
    box = outbox()
    try:
        return box.status()
    finally:
        box.close()


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {"league_status": league_status}


def _page(error: str | None = None, note: str | None = None, code: int = 200) -> tuple[str, int]:
    box = outbox()
    try:
        live = box.live()
    finally:
        box.close()
    return render_template("league_link.html", status=league_status(), error=error,
                           note=note, live=live), code


@bp.get("")
@host_required
def page() -> tuple[str, int]:
    return _page()


def _push_now(box: Outbox) -> int:
    box.collect(state().table.store)
    return box.push_due(time.time(), http_send)


@bp.post("/join")
@host_required
def join() -> tuple[str, int] | BaseResponse:
    url = request.form.get("url", "").strip()[:200]
    code = request.form.get("code", "").strip()[:40]
    if "#join=" in url:  # the link of the league's QR code holds the code too
        url, _, from_link = url.partition("#join=")
        code = code or from_link.strip()[:40]
    if not url or not code:
        return _page(error="Type the league's address and the join code its admin gave you.",
                     code=400)
    try:
        link = join_league(url, code)
    except LeagueError as exc:
        return _page(error=str(exc), code=400)
    box = outbox()
    try:
        box.set_link(link, time.time())
        _push_now(box)
    finally:
        box.close()
    return redirect("/host/league")


@bp.post("/push")
@host_required
def push() -> tuple[str, int]:
    box = outbox()
    try:
        stored = _push_now(box)
    finally:
        box.close()
    return _page(note=f"{stored} game(s) reached the league.")


@bp.post("/live")
@host_required
def live() -> BaseResponse:
    """Let the league show the game being played (places and public scores so far)."""
    box = outbox()
    try:
        box.set_live(request.form.get("live") == "1")
        _push_now(box)
    finally:
        box.close()
    return redirect("/host/league")


@bp.post("/leave")
@host_required
def leave() -> BaseResponse:
    box = outbox()
    try:
        box.unlink()
    finally:
        box.close()
    return redirect("/host/league")


__all__ = ["bp", "league_status"]
