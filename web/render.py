"""Snapshots into what a client may receive: public and seat payloads, HTML fragments.

``public_payload`` and ``seat_payload`` are the only ways a snapshot leaves the app.
They are ``Snapshot.public_json`` / ``Snapshot.seat_json``, which hold the one refusal
filter (``companion.table.Refusal.visible_to``): a refusal made by a seat can say
something about its secret sheet (Casablanca), so it goes to that seat only; everyone
sees refusals of the host, the camera and the table. Fragments are rendered from
``templates/games/<game>/<kind>.html`` when the game has one, else from the generic
templates, and cached per snapshot (``RenderCache``, one per app in ``web.context``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, render_template
from jinja2 import TemplateNotFound
from markupsafe import Markup

from companion.table import Snapshot
from web import scores

Payload = dict[str, Any]


def public_payload(snap: Snapshot) -> Payload:
    """What anyone may receive: the public view, without seats' refusals."""
    return snap.public_json()


def seat_payload(snap: Snapshot, seat: int) -> Payload:
    """Seat ``seat``'s payload (public part + its ``private``); only for that seat."""
    return snap.seat_json(seat)


def fragment(kind: str, payload: Payload, *, seat: int | None = None) -> str:
    """The HTML of ``kind`` ("table" or "seat") for ``payload`` (needs an app context)."""
    game = payload.get("game") or "_none"
    names = [f"games/{game}/{kind}.html", f"games/_generic/{kind}.html"]
    ctx = {"s": payload, "v": payload.get("view") or {}, "seat": seat,
           "p": payload.get("private") or {}, "names": payload.get("players") or []}
    for name in names:
        try:
            return render_template(name, **ctx)
        except TemplateNotFound as exc:
            if exc.name != name:
                raise
    raise TemplateNotFound(names[-1])


class RenderCache:
    """Rendered payloads by (epoch, seq, key): one render per snapshot, whoever asks."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, snap: Snapshot, key: str, make: Callable[[], str]) -> str:
        """The cached value for ``(snap, key)``, made once by ``make()``."""
        k = (snap.epoch, snap.seq, key)
        with self._lock:
            if k in self._items:
                self._items.move_to_end(k)
                return self._items[k]
        value = make()
        with self._lock:
            self._items[k] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


def event_json(payload: Payload) -> str:
    """Compact JSON on one line (an SSE ``data:`` line must not contain a newline)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, default=str)


# --- template helpers --------------------------------------------------------------------


def _seat_name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "—" if seat is None else str(seat)


def _label(key: Any) -> str:
    return str(key).replace("_", " ").strip().capitalize()


def _money(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"${value:,.0f}"
    return "—" if value is None else str(value)


def _euros(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.0f} €".replace(",", " ")
    return "—" if value is None else str(value)


def _is_list(value: Any) -> bool:
    return isinstance(value, list | tuple)


def _is_map(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table(value: Any) -> bool:
    """A list of dicts with the same simple keys: drawn as a table."""
    if not _is_list(value) or not value or not all(isinstance(r, Mapping) for r in value):
        return False
    keys = list(value[0].keys())
    return all(list(r.keys()) == keys for r in value) and len(keys) <= 8


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _chart(payload: Payload) -> Markup:
    hands = scores.hand_scores(payload.get("view") or {})
    if not hands:
        return Markup("")
    return Markup(scores.chart_svg(hands, list(payload.get("players") or [])))


def install(app: Flask, *, csrf_token: Callable[[], str], is_host: Callable[[], bool]) -> None:
    """Register the template filters and globals the templates use.

    ``csrf_token`` and ``is_host`` come from ``web.guards`` (the factory passes them in,
    so this module needs no access control of its own).
    """
    app.jinja_env.filters.update(label=_label, money=_money, euros=_euros, scalar=_scalar)
    app.jinja_env.tests.update(list=_is_list, map=_is_map, table=_is_table)
    app.jinja_env.globals.update(seat_name=_seat_name, csrf_token=csrf_token, is_host=is_host,
                                 score_chart=_chart, hand_scores=scores.hand_scores,
                                 totals=scores.totals, palette=scores.PALETTE)
