"""Public pages: the table view (``/``), the history and the scores of a match.

The history reads as sentences: each accepted input is told by its engine's
``describe(action, events, players)`` when the game has one, else by a generic sentence
with player names (from the seats) and card names (from the catalog), never raw ids.
Inputs that were taken back read "Undone: …".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, render_template, request

from companion.games.engine import AnyEngine
from companion.games.words import listed
from companion.table import PUBLIC_ACTION_KEYS
from web import render, scores
from web.context import state
from web.joins import tv_joins

bp = Blueprint("public", __name__)

#: action keys that name seats, and how the generic sentence introduces them
SEAT_WORDS = {"against": "against", "target": "targeting", "by": "by"}


@bp.get("/")
def table() -> str:
    """The public table view; updates live from ``/api/stream``. ``?tv=1`` is the TV's
    screen: the same table fitted to one landscape screen, with the free seats' join
    codes when the host's browser shows it."""
    st = state()
    payload = render.public_payload(st.table.hub.latest())
    fragment = render.fragment("table", payload)
    if request.args.get("tv") == "1":
        return render_template("tv.html", s=payload, fragment=fragment, joins=tv_joins())
    return render_template("table.html", s=payload, fragment=fragment)


def _names(players: Sequence[str], value: Any) -> str:
    if isinstance(value, list | tuple):
        return listed(_names(players, v) for v in value)
    return render.seat_name(list(players), value)


def _card(engine: AnyEngine | None, value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_card(engine, v) for v in value)
    if engine is not None and isinstance(value, str):
        try:
            return engine.catalog.by_id(value).label()
        except (KeyError, LookupError, OSError):
            pass
    return render.humanise(value)


def generic_sentence(engine: AnyEngine | None, action: Mapping[str, Any],
                     players: Sequence[str]) -> str:
    """A plain sentence for an action its engine does not describe: "Ann: play, Racketeer"."""
    do = str(action.get("do", "input"))
    if do == "deadline":
        return "Time ran out."
    details = []
    cards_first = sorted(action.items(), key=lambda kv: kv[0] not in ("card", "cards"))
    for key, value in cards_first:
        if key in ("do", "seat", "t"):
            continue
        if key == "card" or key == "cards":
            details.append(_card(engine, value))
        elif key in SEAT_WORDS:
            details.append(f"{SEAT_WORDS[key]} {_names(players, value)}")
        elif key == "upheld" and isinstance(value, bool):
            details.append("upheld" if value else "not upheld")
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            details.append(f"{render.humanise(key).lower()} {render.humanise(value)}")
    what = render.humanise(do) + (": " + ", ".join(details) if details else "")
    seat = action.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return f"{players[seat]}: {what[:1].lower() + what[1:]}"
    return what


def history_entries() -> list[dict[str, Any]]:
    """The current game's inputs as sentences, newest first (read-only on the table)."""
    session = state().table.session  # one frozen Session: batches and undone agree
    return session_entries(session) if session is not None else []


#: each input's sentence, told once: the history is drawn again at every live update on
#: every phone that shows it, and a long game has hundreds of inputs whose sentences never
#: change (a batch is immutable; the entry keeps it alive, so its id stays its own)
_TOLD: OrderedDict[tuple[int, str, tuple[str, ...]], tuple[Any, str]] = OrderedDict()
_TOLD_MOST = 4_096  # a long game has hundreds of inputs; older games fall out
_TOLD_LOCK = threading.Lock()


def session_entries(session: Any) -> list[dict[str, Any]]:
    """A ``companion.session.Session``'s inputs as sentences, newest first (the web
    reads the table's session, never the module)."""
    players = tuple(session.setup.seats)
    engine: AnyEngine = session.engine
    sentences: list[str] = []
    out = []
    for i, b in enumerate(session.batches):
        if b.kind == "undo":
            taken = sentences[b.undoes] if b.undoes is not None and b.undoes < len(sentences) \
                else "the last input"
            text = f"The host took back: {taken}"
        else:
            text = _told(engine, b, players)
        sentences.append(text)
        out.append({"index": i, "t": b.t, "kind": b.kind, "text": text,
                    "undone": i in session.undone})
    return list(reversed(out))


def _told(engine: AnyEngine, batch: Any, players: tuple[str, ...]) -> str:
    """One accepted input as a sentence (kept: it is the same at every drawing)."""
    key = (id(batch), engine.name, players)
    with _TOLD_LOCK:
        kept = _TOLD.get(key)
        if kept is not None and kept[0] is batch:
            _TOLD.move_to_end(key)
            return kept[1]
    text = _sentence(engine, batch, list(players))
    with _TOLD_LOCK:
        _TOLD[key] = (batch, text)
        while len(_TOLD) > _TOLD_MOST:
            _TOLD.popitem(last=False)
    return text


def _sentence(engine: AnyEngine, b: Any, players: list[str]) -> str:
    # only the public keys: a seat's secret (a noted number, a bribe) stays out
    sent = b.action.to_json()
    action = {k: sent[k] for k in PUBLIC_ACTION_KEYS if k in sent}
    text: str | None = None
    if engine.describe is not None:
        try:
            text = engine.describe(action, b.events, players)
        except Exception:  # noqa: BLE001 - a sentence must never break the page
            text = None
    if not text:
        text = generic_sentence(engine, action, players)
    if b.sender == "host" and b.action.acting_seats():
        text += " (entered by the host)"  # a seat's action, entered for it
    return text


def undo_target() -> str:
    """What Undo would take back, as its history sentence ("" when nothing)."""
    for entry in history_entries():
        if entry["kind"] != "undo" and not entry["undone"]:
            return str(entry["text"])
    return ""


@bp.get("/history")
def history() -> str | Response:
    """Every input of the current game as a sentence, with the host's undo.

    ``?part=1`` answers only the list (the page refreshes it on each live update).
    """
    st = state()
    snap = st.table.hub.latest()
    if request.args.get("undo") == "1":  # what Undo would take back, read at the press
        return Response(undo_target(), mimetype="text/plain")
    if request.args.get("part") == "1":
        return render_template("_history.html", entries=history_entries())
    return render_template("history.html", s=render.public_payload(snap),
                           entries=history_entries(), undo_what=undo_target())


@bp.get("/scores")
def score_page() -> str:
    """Scores per hand and the running totals, with a chart."""
    payload = render.public_payload(state().table.hub.latest())
    hands = scores.hand_scores(payload) or []
    return render_template("scores.html", s=payload, hands=hands,
                           totals=scores.totals(hands) if hands else [])
