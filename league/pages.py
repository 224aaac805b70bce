"""The league's pages: standings, a player, head-to-head, charts, exports, player cards.

Anyone may read them (a club's results are its notice board). Names are shown as the
tables sent them; ids never appear as text (they are in links only).
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import charts
from companion.exports import bgstats_league_text, bgstats_text, csv_text, title
from companion.stats import OVERALL
from league import queries
from league.charts import rating_svg
from league.context import state

bp = Blueprint("pages", __name__)


@bp.get("/")
def standings() -> str:
    st = state()
    game = request.args.get("game", OVERALL)[:20]
    return st.cached(f"standings:{game}", lambda: _standings(game))


def _standings(game: str) -> str:
    st = state()
    kinds = queries.games_played(st.pool)
    if game != OVERALL and game not in kinds:
        game = OVERALL
    lines = queries.standings(st.pool, game)
    return render_template("standings.html", lines=lines, game=game, kinds=kinds,
                           title=title, overall=OVERALL, live=queries.playing_now(st.pool))


def _me(pid: int) -> dict[str, Any]:
    found = queries.player(state().pool, pid)
    if found is None:
        abort(404, description="No such player in this league: pick one from the standings.")
    return found


def versus(played: list[queries.Played], pid: int) -> list[dict[str, Any]]:
    """``pid``'s record against each player they sat with (by games together)."""
    out: dict[int, dict[str, Any]] = {}
    for p in played:
        seats = dict(zip(p.player_ids, p.result.seats, strict=True))
        mine = seats.get(pid)
        if mine is None:
            continue
        for other_id, other in seats.items():
            if other_id == pid:
                continue
            v = out.setdefault(other_id, {"id": other_id, "name": other.name, "games": 0,
                                          "ahead": 0, "behind": 0, "level": 0})
            v["games"] += 1
            key = "ahead" if mine.place < other.place else \
                "behind" if mine.place > other.place else "level"
            v[key] += 1
    return sorted(out.values(), key=lambda v: (-v["games"], v["name"].casefold()))


def _charts(played: list[queries.Played], pid: int) -> dict[str, Any]:
    plays = [(p.result, dict(zip(p.player_ids, p.result.seats, strict=True))[pid])
             for p in reversed(played)]
    return charts.player_charts(plays, title)


@bp.get("/players/<int:pid>")
def player(pid: int) -> str | BaseResponse:
    me = _me(pid)
    if me["id"] != pid:
        return redirect(url_for("pages.player", pid=me["id"]))
    played = queries.history(state().pool, pid)
    rating = queries.rating_history(state().pool, pid)
    return render_template("player.html", me=me, played=played[:50], total=len(played),
                           rating=rating_svg(rating) if len(rating) > 1 else None,
                           versus=versus(played, pid), charts=_charts(played, pid) if played
                           else None, title=title, overall=OVERALL, pid=pid)


@bp.get("/players/<int:pid>/vs/<int:other>")
def head_to_head(pid: int, other: int) -> str:
    me, them = _me(pid), _me(other)
    played = [p for p in queries.history(state().pool, me["id"])
              if them["id"] in p.player_ids]
    rows = []
    for p in played:
        seats = dict(zip(p.player_ids, p.result.seats, strict=True))
        rows.append((p, seats[me["id"]], seats[them["id"]]))
    record = next((v for v in versus(played, me["id"]) if v["id"] == them["id"]), None)
    return render_template("versus.html", me=me, them=them, rows=rows, record=record,
                           title=title)


def _plays(pid: int) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    me = _me(pid)
    played = queries.history(state().pool, me["id"], limit=100000)
    return me, [(p.table, p.result) for p in reversed(played)]


def _download(text: str, mimetype: str, name: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/players/<int:pid>/plays.csv")
def plays_csv(pid: int) -> Response:
    me, plays = _plays(pid)
    return _download(csv_text(plays, me["name"]), "text/csv", f"plays-{pid}.csv")


@bp.get("/players/<int:pid>/plays.bgsplay")
def plays_bgstats(pid: int) -> Response:
    me, plays = _plays(pid)
    text = bgstats_text(plays, me["name"], "League")
    return _download(text, "application/json", f"plays-{pid}.bgsplay")


@bp.get("/plays.bgsplay")
def league_bgstats() -> Response:
    """Every play of the league as one BG Stats file (locations: the tables' names)."""
    text = bgstats_league_text(queries.everything_named(state().pool))
    return _download(text, "application/json", "league.bgsplay")


@bp.get("/players/<int:pid>/card")
def card(pid: int) -> str:
    """A player card to print: name and a QR code of the player's own page."""
    me = _me(pid)
    base = state().public_url or request.host_url.rstrip("/")  # --url, as phones reach it
    url = base + url_for("pages.by_card", code=me["card"])
    qr = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    return render_template("card.html", me=me, qr=qr, url=url)


@bp.get("/c/<code>")
def by_card(code: str) -> BaseResponse:
    pid = queries.player_by_card(state().pool, code[:40])
    if pid is None:
        abort(404, description="This card is not known to the league: ask its admin.")
    return redirect(url_for("pages.player", pid=pid))


__all__ = ["bp", "versus"]
