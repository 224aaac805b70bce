"""Card stats entered once (the game with the ``card_stats`` feature): the host's review page, a printable card list,
and the actions that carry a physical card's printed stats.

``POST /cards/act/seat/<n>`` and ``/cards/act/host`` take ``{"action": {...}}`` like the
game API, with one addition: the stats an accepted action carried are kept in the deck for
that physical card (``companion.decks.store_stats``), so the next game scanning the card
is enough. Filling in the stats the deck holds is the table's own reaction
(``companion.reactions.DeckStats``), whoever drew the card: nothing here posts to the table
on its own.
``GET /cards`` (host) lists every card of the deck with its stats, each correctable, the
district, Racket type and Weakness picked from lists; "Save and next" opens the next card
not entered yet, so a whole deck is entered in one sitting. ``GET /cards/<deck>.csv``
exports the stats as a sheet, ``POST /cards/<deck>/import`` takes one back (every row
checked first: a bad row is refused by number, nothing half-imported).
``GET /cards/print`` is the printable card list. When a game starts, the table sends the
stats the deck holds (the same reaction): those cards are then picked by name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from companion import games
from companion.decks import Deck, DeckError, list_decks, stats_deck, store_stats, stored_stats
from companion.decks.games import stats_choices, stats_fields
from companion.decks.sheet import export_sheet, import_sheet
from companion.inputs import HOST, Result, Source
from web.api import _answer, _json_body, request_id
from web.context import WebState, state, state_of
from web.guards import host_required, seat_required

bp = Blueprint("cards", __name__, url_prefix="/cards")

#: what a game brings when its cards carry stats entered by their owner
FEATURE = "card_stats"


def _game() -> str:
    """The game whose cards carry stats entered by their owner."""
    return games.first_with(FEATURE).name


def stats_actions() -> tuple[str, ...]:
    """The actions whose card's stats the deck keeps: those that declare a ``stats``
    field."""
    actions = games.first_with(FEATURE).actions
    if actions is None:
        return ()
    return tuple(kind.do for kind in actions
                 if "stats" in {f.name for f in dataclasses.fields(kind)})


def _deck(st: WebState, name: str | None = None) -> Deck | None:
    return stats_deck(_game(), st.state_dir, name)


def keep_stats(action: dict[str, Any], deck: Deck | None) -> str | None:
    """Store the stats an accepted action carried; the problem in words, or None."""
    card, stats = action.get("card"), action.get("stats")
    if deck is None or not isinstance(card, str) or not isinstance(stats, dict):
        return None
    if stored_stats(deck, card) == {k: v for k, v in stats.items() if v not in (None, "")}:
        return None
    try:
        store_stats(deck, card, dict(stats))
    except (DeckError, OSError) as exc:  # OSError: companion.atomic.SaveError, in words
        return f"The game took the card, but the deck could not keep its stats: {exc}"
    return None


def _act(source: Source) -> tuple[Response, int]:
    body = _json_body()
    action = body.get("action")
    if not isinstance(action, dict):
        abort(400, description='Send {"action": {"do": ...}}.')
    st = state()
    deck = _deck(st)
    result = st.submit("action", {"action": action}, source=source, request_id=request_id(body))
    if result.accepted and action.get("do") in stats_actions():
        problem = keep_stats(action, deck)
        if problem:
            result = Result(True, reason=problem, seq=result.seq)
    return _answer(result)


@bp.post("/act/seat/<int:n>")
@seat_required
def seat_act(n: int) -> tuple[Response, int]:
    """A seat's action that may carry a card's stats."""
    return _act(Source.of_seat(n))


@bp.post("/act/host")
@host_required
def host_act() -> tuple[Response, int]:
    """The host's action that may carry a card's stats."""
    return _act(HOST)


def _next_open(deck: Deck, after: int) -> int | None:
    """The next card after ``after`` (same kind first) whose stats are not entered."""
    card = deck.card(after)
    rest = [(s, c) for s, c in deck.physical() if s != after and not deck.card_stats(s)]
    same = [s for s, c in rest if card is not None and c.kind == card.kind and s > after]
    later = same or [s for s, _ in rest if s > after] or [s for s, _ in rest]
    return later[0] if later else None


#: the generic action endpoints the "your move" card posts to (web/api.py)
_ACTION_ENDPOINTS = ("api.seat_action", "api.host_command")


@bp.after_app_request
def _keep_typed_stats(response: Response) -> Response:
    """Stats typed into the "your move" card (a new card's) and accepted by the game are
    kept in the deck for that physical card, as ``/cards/act`` keeps them."""
    if (request.method != "POST" or request.endpoint not in _ACTION_ENDPOINTS
            or response.status_code != 200):
        return response
    body = request.get_json(silent=True, cache=True)
    action = body.get("action") if isinstance(body, dict) else None
    st = state_of(current_app)
    if (not isinstance(action, dict) or action.get("do") not in stats_actions()
            or st is None or st.table.hub.latest().game != _game()):
        return response
    try:
        keep_stats(action, _deck(st))
    except (DeckError, OSError):
        pass  # the game took the card; the deck page shows what is not kept
    return response


def _rows(deck: Deck) -> list[dict[str, Any]]:
    fields = stats_fields(_game())
    rows = []
    for serial, card in deck.physical():
        rows.append({"serial": serial, "card": card.id, "slot": card.label(),
                     "kind": card.kind, "fields": fields.get(card.kind, {}),
                     "stats": deck.card_stats(serial) or {}})
    return rows


@bp.get("")
@host_required
def review() -> str:
    """Every card of the deck with its stats, each correctable (host)."""
    st = state()
    deck = _deck(st, request.args.get("deck"))
    decks = [d.name for d in _decks(st)]
    return render_template("cards.html", deck=deck, decks=decks,
                           rows=_rows(deck) if deck else [],
                           kind=request.args.get("kind"), opened=request.args.get("open"),
                           saved=request.args.get("saved"), title=games.get(_game()).title,
                           game=_game(), choices=stats_choices(_game()),
                           imported=request.args.get("imported"))


def _decks(st: WebState) -> list[Deck]:
    return [d for d in list_decks(st.state_dir) if d.game == _game()]


@bp.post("/<deck_name>/<int:serial>")
@host_required
def correct(deck_name: str, serial: int) -> Any:
    """Save the corrected stats of one card (a plain form post), back to the list."""
    st = state()
    deck = _deck(st, deck_name)
    if deck is None or deck.card(serial) is None:
        abort(404, description="No such card in that deck.")
    card = deck.card(serial)
    assert card is not None
    stats = _form_stats(card.kind, deck.card_stats(serial) or {})
    try:
        deck.set_card_stats(serial, stats)
    except DeckError as exc:
        abort(400, description=f"Not saved: {exc}. Go back and correct it.")
    shown = serial
    following = _next_open(deck, serial) if request.form.get("then") == "next" else None
    if following is not None:
        shown = following
    return redirect(url_for("cards.review", deck=deck.name, saved=serial, open=shown)
                    + f"#card-{shown}", code=303)


def _form_stats(kind_of_card: str, before: dict[str, Any]) -> dict[str, Any]:
    """The stats of the posted form (empty fields left out); 400 with a sentence when a
    number is not one or a picked word is neither on its list nor what was kept before."""
    choices = stats_choices(_game())
    stats: dict[str, Any] = {}
    for key, kind in stats_fields(_game()).get(kind_of_card, {}).items():
        raw = request.form.get(key, "").strip()
        if raw == "":
            continue
        words = key.replace("_", " ")
        if kind == "int":
            try:
                stats[key] = int(raw)
            except ValueError:
                abort(400, description=f"The {words} must be a whole number, not "
                                       f"{raw[:20]!r}: go back and correct it.")
        elif key in choices and raw not in choices[key] and raw != before.get(key):
            abort(400, description=f"{raw[:40]!r} is not a {words} of the list "
                                   f"({', '.join(choices[key])}): go back and pick one.")
        else:
            stats[key] = raw
    return stats


@bp.get("/<deck_name>.csv")
@host_required
def export_csv(deck_name: str) -> Response:
    """The deck's stats as a CSV sheet (a download)."""
    deck = _deck(state(), deck_name)
    if deck is None:
        abort(404, description="No such deck.")
    return Response(export_sheet(deck), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{deck.name}-card-stats.csv"'})


@bp.post("/<deck_name>/import")
@host_required
def import_csv(deck_name: str) -> Any:
    """Import a CSV sheet of stats: all rows or none."""
    deck = _deck(state(), deck_name)
    if deck is None:
        abort(404, description="No such deck.")
    upload = request.files.get("sheet")
    if upload is None or not upload.filename:
        abort(400, description="Choose the CSV file to import first, then press Import.")
    raw = upload.read(1_000_001)
    if len(raw) > 1_000_000:
        abort(400, description="That file is over 1 MB: a deck's sheet is far smaller.")
    try:
        count = import_sheet(deck, raw.decode("utf-8"))
    except UnicodeDecodeError:
        abort(400, description="That file is not a CSV text file (UTF-8): export the "
                               "sheet from here, fill it in, and import that.")
    except DeckError as exc:
        abort(400, description=f"Not imported: {exc} Nothing was changed; correct the "
                               "file and import it again.")
    return redirect(url_for("cards.review", deck=deck.name, imported=count), code=303)


@bp.get("/print")
@host_required
def printable() -> str:
    """The printable card list of the deck: every card with its stats."""
    st = state()
    deck = _deck(st, request.args.get("deck"))
    if deck is None:
        engine = games.first_with(FEATURE)
        abort(404, description=f"No {engine.title} deck yet: make one with "
                               f"'companion deck new {engine.name} --name home'.")
    return render_template("cards_print.html", deck=deck, rows=_rows(deck),
                           title=games.get(_game()).title)


@bp.app_context_processor
def _stored_cards() -> dict[str, Any]:
    """``stored_cards()`` in templates: the card ids whose stats the deck holds."""

    def stored_cards() -> set[str]:
        web_state = state_of(current_app)
        deck = _deck(web_state) if web_state is not None else None
        if deck is None:
            return set()
        return {card.id for serial, card in deck.physical() if deck.card_stats(serial)}

    return {"stored_cards": stored_cards}

