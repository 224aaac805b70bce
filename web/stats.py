"""This table's own history and statistics, with no league: ``/stats``.

The results come from the table's outbox (``companion.outbox``: every finished game's
public result, collected from the event store) and the numbers from ``companion.stats``,
the same code the league's figures are checked against. Exports as on the league.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from companion import charts
from companion.exports import bgstats_text, csv_text, title
from companion.results import GameResult
from companion.stats import OVERALL, head_to_head, history, key_of, standings
from web.context import state
from web.league_link import outbox

bp = Blueprint("stats", __name__, url_prefix="/stats")
HERE = "This table"


def _results() -> list[tuple[str, GameResult]]:
    box = outbox()
    try:
        box.collect(state().table.store)
        return [(HERE, r) for r in box.results()]
    finally:
        box.close()


@bp.get("")
def page() -> str:
    results = _results()
    kinds = sorted({r.game for _, r in results})
    game = request.args.get("game", OVERALL)
    game = game if game in kinds else OVERALL
    recent = sorted((r for _, r in results), key=lambda r: -r.finished_at)[:30]
    return render_template("stats.html", lines=standings(results, game), game=game,
                           kinds=kinds, title=title, overall=OVERALL, recent=recent)


def _name(results: list[tuple[str, GameResult]]) -> str:
    name = request.args.get("name", "")[:40]
    known = {key_of(s.name): s.name for _, r in results for s in r.seats}
    if key_of(name) not in known:
        abort(404, description="Nobody of that name played at this table: pick a name from "
                               "the statistics page.")
    return known[key_of(name)]


@bp.get("/player")
def player() -> str:
    results = _results()
    name = _name(results)
    mine = list(reversed(history(results, name)))
    plays = [(r, next(s for s in r.seats if key_of(s.name) == key_of(name))) for r in mine]
    svg = charts.player_charts(plays, title)
    return render_template("stats_player.html", name=name, games=list(reversed(mine))[:50],
                           versus=head_to_head(results, name), charts=svg, title=title,
                           lines=[(g, line) for g in [OVERALL, *sorted(
                               {r.game for r in mine})] for line in standings(results, g)
                               if key_of(line.name) == key_of(name)], overall=OVERALL)


def _download(text: str, mimetype: str, name: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/plays.csv")
def plays_csv() -> Response:
    results = _results()
    name = _name(results)
    return _download(csv_text(results, name), "text/csv", "plays.csv")


@bp.get("/plays.bgsplay")
def plays_bgstats() -> Response:
    results = _results()
    name = _name(results)
    mine = [(w, r) for w, r in results if any(key_of(s.name) == key_of(name) for s in r.seats)]
    return _download(bgstats_text(mine, name, HERE), "application/json", "plays.bgsplay")


__all__ = ["bp"]
