"""The host joins the table to a league, and sees what waits to be pushed.

``/host/league``: the league's address and a join code (from the league's admin page,
or its QR), then every finished game goes out through the table's outbox
(``companion.outbox``); "Push now" sends every waiting game at once, whatever its
next retry. The page lists each game waiting or refused, its last error in words and
when it tries again (``waiting``). The partial
``_league_link.html`` on the host page says where the table pushes and how many games
wait. The web never imports the league: it speaks HTTP to it like any table.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from companion.exports import title
from companion.outbox import LeagueError, Outbox, Status, http_send, join_league, outbox_path
from companion.players import SCANS
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


def league_players() -> list[tuple[str, str]]:
    """The league's players this table keeps (name, card code), for the setup and join
    pages' lists; empty without a league."""
    box = outbox()
    try:
        return box.league_players() if box.link() is not None else []
    finally:
        box.close()


def league_scanned() -> list[str]:
    """The names of the league players whose cards the table's camera saw lately."""
    codes = SCANS.recent()
    if not codes:
        return []
    box = outbox()
    try:
        names = [box.player_of(c) for c in codes]
    finally:
        box.close()
    return [n for n in names if n]


def league_pick(token: str) -> str | None:
    """The league player picked for the seat of this join token, if one was."""
    found = state().guard.joins.peek(token)
    if found is None:
        return None
    box = outbox()
    try:
        return box.picked(found[0]).get(found[1], (None, None))[0]
    finally:
        box.close()


@bp.app_context_processor
def _globals() -> dict[str, Any]:
    return {"league_status": league_status, "league_players": league_players,
            "league_scanned": league_scanned, "league_pick": league_pick}


@bp.post("/pick/<token>")
def pick(token: str) -> tuple[str, int] | BaseResponse:
    """A phone about to join a seat says which league player sits there (chosen from
    the list, or its card's QR text pasted); the token is not used up."""
    found = state().guard.joins.peek(token)
    if found is None:
        return render_template("join.html", error=True, token=token), 410
    box = outbox()
    try:
        box.pick(found[0], found[1], request.form.get("card", "").strip()[:300])
    except ValueError as exc:
        return render_template("join.html", error=False, token=token, seat=found[1],
                               name=_seat_name(found[1]), pick_error=str(exc)), 400
    finally:
        box.close()
    return redirect(f"/join/{token}", code=303)


def _seat_name(seat: int) -> str:
    players = list(state().table.hub.latest().players)
    return players[seat] if seat < len(players) else f"Seat {seat + 1}"


def _page(error: str | None = None, note: str | None = None, code: int = 200) -> tuple[str, int]:
    box = outbox()
    try:
        live = box.live()
        waiting = box.waiting()
    finally:
        box.close()
    return render_template("league_link.html", status=league_status(), error=error,
                           note=note, live=live, waiting=waiting, now=time.time(),
                           title=title), code


@bp.get("")
@host_required
def page() -> tuple[str, int]:
    return _page()


def _push_now(box: Outbox) -> int:
    """Everything pending goes now, even a game whose next retry is later."""
    box.refresh_players(time.time(), force=True)
    box.collect(state().table.store)
    return box.push_due(time.time(), http_send, force=True)


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
