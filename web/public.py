"""Public pages: the table view (``/``), the history and the scores of a match."""

from __future__ import annotations

from flask import Blueprint, render_template

from web import render, scores
from web.context import state

bp = Blueprint("public", __name__)


@bp.get("/")
def table() -> str:
    """The public table view; updates live from ``/api/stream``."""
    st = state()
    payload = render.public_payload(st.table.hub.latest())
    return render_template("table.html", s=payload, fragment=render.fragment("table", payload))


@bp.get("/history")
def history() -> str:
    """Every input of the current game, with the host's undo."""
    st = state()
    snap = st.table.hub.latest()
    entries = list(reversed(st.table.history()))
    return render_template("history.html", s=render.public_payload(snap), entries=entries)


@bp.get("/scores")
def score_page() -> str:
    """Scores per hand and the running totals, with a chart."""
    payload = render.public_payload(state().table.hub.latest())
    hands = scores.hand_scores(payload.get("view") or {}) or []
    return render_template("scores.html", s=payload, hands=hands,
                           totals=scores.totals(hands) if hands else [])
