"""Snapshots into what a client may receive: public and seat payloads, HTML fragments.

``public_payload`` and ``seat_payload`` are the only ways a snapshot leaves the app.
They are ``Snapshot.public_json`` / ``Snapshot.seat_json``, which hold the one refusal
filter (``companion.snapshot.Refusal.visible_to``): a refusal made by a seat can say
something about its secret sheet (Casablanca), so it goes to that seat only; everyone
sees refusals of the host, the camera and the table. Fragments are rendered from
``templates/games/<game>/<kind>.html`` when the game has one, else from the generic
templates, and cached per snapshot (``RenderCache``, one per app in ``web.context``).
"""

from __future__ import annotations

import html as html_lib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Flask, render_template
from jinja2 import TemplateNotFound
from markupsafe import Markup

from companion.games import money, words
from companion.snapshot import Snapshot
from web import scores

Payload = dict[str, Any]


def public_payload(snap: Snapshot) -> Payload:
    """What anyone may receive: the public view, without seats' refusals."""
    return snap.public_json()


def host_payload(snap: Snapshot) -> Payload:
    """The host's payload (public part + the host's ``attention`` and ``moves``); host only."""
    return snap.host_json()


def seat_payload(snap: Snapshot, seat: int) -> Payload:
    """Seat ``seat``'s payload (public part + its ``private``); only for that seat."""
    return snap.seat_json(seat)


def fragment(kind: str, payload: Payload, *, seat: int | None = None) -> str:
    """The HTML of ``kind`` ("table" or "seat") for ``payload`` (needs an app context)."""
    game = payload.get("game") or "_none"
    names = [f"games/{game}/{kind}.html", f"games/_generic/{kind}.html"]
    own = payload.get("private") or payload.get("host") or {}
    ctx = {"s": payload, "v": payload.get("view") or {}, "seat": seat,
           "p": own.get("secrets") or {}, "attention": own.get("attention") or {},
           "moves": own.get("moves") or [], "waiting": payload.get("waiting") or {},
           "log": payload.get("log") or [], "scores": payload.get("scores"),
           "names": payload.get("players") or []}
    for name in names:
        try:
            return render_template(name, **ctx)
        except TemplateNotFound as exc:
            if exc.name != name:
                raise
    raise TemplateNotFound(names[-1])


#: one event's data and what it shows (the data without its seq, game time and refusal
#: time): a stream never sends what it shows twice
Rendered = tuple[str, str]


class RenderCache:
    """Rendered events by (epoch, version, key): one render per change, whoever asks."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int, str], Rendered] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, snap: Snapshot, key: str, make: Callable[[], Rendered],
            seat: int | None = None) -> Rendered:
        """The cached value for ``(snap, key)`` as ``seat`` sees it, made once by ``make()``."""
        k = (snap.epoch, snap.version_for(seat), key)
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


def shown(payload: Payload, each_refusal: bool = False) -> str:
    """What ``payload`` shows: its JSON without the seq and the game time (two payloads
    that differ only there look the same on a phone) and without the time of its refusal.
    With ``each_refusal`` every refusal counts as new (a seat's phone is told of each of
    its own refused taps, even with the same reason; everyone else sees a repeated
    refusal once)."""
    rest = {k: v for k, v in payload.items() if k not in ("seq", "now", "html")}
    refusal = rest.get("refusal")
    if isinstance(refusal, Mapping):
        rest["refusal"] = {k: v for k, v in refusal.items() if k != "t"}
        if each_refusal:
            rest["refused_at"] = payload.get("seq")
    return event_json(rest)


def event_json(payload: Payload) -> str:
    """Compact JSON on one line (an SSE ``data:`` line must not contain a newline)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, default=str)


# --- attention -----------------------------------------------------------------------

def needs_me(payload: Payload) -> bool:
    """Whether a seat's payload asks for its player (the phone buzzes when this turns on):
    its ``attention.act``, which the engine sets from what the table waits for.
    ``static/app.js`` (``needsMe``) reads the same flag for each live update.
    """
    own = payload.get("private") or {}
    attention = own.get("attention") if isinstance(own, Mapping) else None
    return isinstance(attention, Mapping) and attention.get("act") is True


# --- forms without JavaScript ----------------------------------------------------------

_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_FIELD = re.compile(r"<(?:input|select|textarea)\b([^>]*)>")
_ATTR = re.compile(r"""([\w:.-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'))?""")
#: the hidden fields a plain post adds; never part of the action
#: the hidden fields of a plain POST (static/app.js skips the same names)
FORM_META = ("csrf_token", "do", "__types", "__extra", "__items")


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1): html_lib.unescape(m.group(2) or m.group(3) or "")
            for m in _ATTR.finditer(text)}


def plain_posts(fragment: str, url: str, csrf: str) -> Markup:
    """``fragment`` with every ``<form class="act" data-do=...>`` also working as a plain
    POST to ``url`` (the page without JavaScript): method, action and hidden fields for
    the CSRF token, the action's ``do``, the fields' ``data-type``s and ``data-extra``.
    Only for a page's first render: live updates (JavaScript) never need them.
    """

    def one(m: re.Match[str]) -> str:
        a = _attrs(m.group(1))
        if ("act" not in a.get("class", "").split() or "data-do" not in a
                or "action" in a or "data-post" in a):
            return m.group(0)
        types, items = {}, []
        for field in _FIELD.finditer(m.group(2)):
            fa = _attrs(field.group(1))
            if "name" in fa and "data-item" in fa:  # e.g. Casablanca's bribe sheet
                items.append([fa["name"], fa["data-item"], fa.get("data-key", ""),
                              fa.get("data-keyval", ""), fa.get("data-type", "int")])
            elif "name" in fa and "data-type" in fa:
                types[fa["name"]] = fa["data-type"]
        hidden = [("csrf_token", csrf), ("do", a["data-do"]), ("__types", json.dumps(types))]
        if items:
            hidden.append(("__items", json.dumps(items)))
        if a.get("data-extra"):
            hidden.append(("__extra", a["data-extra"]))
        inputs = "".join(f'<input type="hidden" name="{k}" value="{html_lib.escape(v)}">'
                         for k, v in hidden)
        return (f'<form{m.group(1)} method="post" action="{html_lib.escape(url)}">'
                f"{inputs}{m.group(2)}</form>")

    return Markup(_FORM.sub(one, str(fragment)))


def _typed(kind: str, raw: str) -> Any:
    """One form field as ``static/app.js`` would send it (``data-type``)."""
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    if kind == "json":
        return json.loads(raw)
    if kind == "ints":
        return [int(x) for x in re.split(r"[,\s]+", raw) if x]
    if kind == "list":
        return [raw]
    if kind == "list3":
        return [raw, raw, raw]
    return raw


def _add_items(action: dict[str, Any], items: list[list[str]], form: Any) -> None:
    """Fields with ``data-item`` (one row each: ``{key: keyval, name: value}``), as app.js
    sends them: rows left empty or at 0 are left out."""
    seen: dict[str, int] = {}
    for name, item, key, keyval, kind in items:
        values = form.getlist(name)
        i = seen.get(name, 0)
        seen[name] = i + 1
        raw = str(values[i]).strip() if i < len(values) else ""
        if not raw:
            continue
        try:
            value = _typed(kind, raw)
        except ValueError as exc:
            raise ValueError(f"{humanise(name)}: {raw!r} is not a valid value") from exc
        if value == 0:
            continue
        action.setdefault(item, []).append({key: keyval, name: value})


def action_from_form(form: Any) -> dict[str, Any]:
    """The action a plain form post stands for; ``ValueError`` says which field is wrong."""
    types: dict[str, str] = json.loads(form.get("__types") or "{}")
    action: dict[str, Any] = {"do": form.get("do", "")}
    items: list[list[str]] = json.loads(form.get("__items") or "[]")
    _add_items(action, items, form)
    item_names = {spec[0] for spec in items}
    for key in form:
        if key in FORM_META or key in item_names:
            continue
        raw = str(form.getlist(key)[-1]).strip()
        kind = types.get(key, "str")
        if kind == "bool":
            action[key] = raw.lower() in ("on", "true", "1", "yes")
        elif raw:
            try:
                action[key] = _typed(kind, raw)
            except ValueError as exc:
                raise ValueError(f"{humanise(key)}: {raw!r} is not a valid value") from exc
    for key, kind in types.items():
        if kind == "bool" and key not in action:
            action[key] = False  # an unticked box is not sent
    extra = json.loads(form.get("__extra") or "{}")
    if isinstance(extra, dict):
        action.update(extra)
    return action


# --- template helpers --------------------------------------------------------------------


#: a no-break space (``_nowrap``): companion.games.money writes every amount
NBSP = money.NBSP


def seat_name(names: list[str], seat: Any) -> str:
    """The player at ``seat`` (counted from 0 in data), or "Player n" counted from 1."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < len(names):
            return names[seat]
        return f"Player {seat + 1}"
    return "—" if seat is None else humanise(seat)


def humanise(value: Any) -> str:
    """An id as words: ``twin_racketeer`` -> "Twin racketeer"; numbers and text as they are."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    if "_" in text or (text.isidentifier() and text.islower()):
        text = text.replace("_", " ").strip()
        return text[:1].upper() + text[1:]
    return text


def _label(key: Any) -> str:
    return str(key).replace("_", " ").strip().capitalize()


def _amount(value: Any, write: Callable[[float], str]) -> str:
    """A number written by ``companion.games.money`` (the one way every amount is
    written, the games' sentences too), in a span that never breaks; else a dash."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Markup('<span class="amt">{}</span>').format(write(value))
    return "—" if value is None else str(value)


def _money(value: Any) -> str:
    """Dollars that never break inside the number: ``$4,200``, ``−$1,300``."""
    return _amount(value, money.dollars)


def _euros(value: Any) -> str:
    """Euros grouped with narrow no-break spaces, the sign joined: ``5 000 €``."""
    return _amount(value, money.euros)


def _points(value: Any) -> str:
    """A score grouped with narrow no-break spaces, as the games write them: ``16 000``."""
    return _amount(value, money.grouped)


def _signed(value: Any) -> str:
    """A term of a sum, its sign always written, a true minus: ``+2``, ``−2``."""
    return _amount(value, money.signed)


def _listed(items: Any, names: list[str] | None = None) -> str:
    """Names as a sentence lists them (``companion.games.words.listed``): "Ann, Ben and
    Cy"; with ``names`` (the players), ``items`` are seats, written as their names."""
    if items is None:
        return ""
    if isinstance(items, str | Mapping) or not isinstance(items, Iterable):
        items = [items]
    if names is not None:
        return words.listed(seat_name(list(names), x) for x in items)
    return words.listed(str(x) for x in items)


def _nowrap(value: Any) -> Markup:
    """Any text whose spaces must not break (an amount a game formatted itself)."""
    text = str(value).replace(" ", NBSP)
    return Markup('<span class="amt">{}</span>').format(text)


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
    """One value in words: ids as words (``twin_racketeer`` -> "Twin racketeer")."""
    if isinstance(value, str) and "_" in value and " " not in value:
        return humanise(value)
    return humanise(value) if value is None or isinstance(value, bool | float) else str(value)


def _chart(payload: Payload) -> Markup:
    hands = scores.hand_scores(payload)
    if not hands:
        return Markup("")
    return Markup(scores.chart_svg(hands, list(payload.get("players") or [])))


def install(app: Flask, *, csrf_token: Callable[[], str], is_host: Callable[[], bool],
            my_seats: Callable[[], list[tuple[int, str]]] = list) -> None:
    """Register the template filters and globals the templates use.

    ``csrf_token`` and ``is_host`` come from ``web.guards`` (the factory passes them in,
    so this module needs no access control of its own).
    """
    app.jinja_env.filters.update(label=_label, money=_money, euros=_euros, points=_points,
                                 signed=_signed, listed=_listed, scalar=_scalar,
                                 words=humanise, nowrap=_nowrap)
    app.jinja_env.tests.update(list=_is_list, map=_is_map, table=_is_table)
    app.jinja_env.globals.update(seat_name=seat_name, csrf_token=csrf_token, is_host=is_host,
                                 my_seats=my_seats, needs_me=needs_me,
                                 score_chart=_chart, hand_scores=scores.hand_scores,
                                 totals=scores.totals, palette=scores.PALETTE)
