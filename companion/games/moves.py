"""What a seat may do now, what the table waits for, and the one seat-view shape.

``moves(state, seat)`` (python-chess's ``legal_moves``; Board Game Arena's "possible
moves") lists what a seat (or, with ``seat=None``, the host) may do now, as ``Move``
templates: the action's name, a label a player understands, the values already fixed,
and the rest as ``Param``s with closed choices of legal values only, or bounds and a
step for an open value (money, a printed stat). ``decide`` stays the judge; the property
test in ``tests/games/test_moves.py`` keeps the two in step over every recorded game.

``Waiting`` is what the table waits for (who must act, on what, and why in one
sentence): the TV and every phone read the same one. ``Scores`` is the one scores shape.
``own_part`` and ``shared_part`` build the one view shape every game shares::

    {"seat", "attention": {"act", "on", "why"}, "moves": [...], "secrets": {...},
     "public": {...}, "log": [...], "scores": {...} | None}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ParamKind = Literal["one", "some", "number", "split", "text", "fields"]


@dataclass(frozen=True)
class Choice:
    """One legal value of a parameter and how a player reads it; ``most``: how many times
    a ``some`` parameter with ``repeat`` may take it (None: no limit of its own), such as
    the copies of a card the deck still has; ``costly``: choosing it costs a player a
    penalty (``Move.costly``: shown in the warning style)."""

    value: Any
    label: str
    most: int | None = None
    costly: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": self.label}
        if self.most is not None:
            out["most"] = self.most
        if self.costly:
            out["costly"] = True
        return out


@dataclass(frozen=True)
class Param:
    """One parameter still to choose.

    - ``one``: one of ``choices``;
    - ``some``: a list of ``fewest``..``most`` of ``choices`` (repeats allowed when
      ``repeat``, each choice at most its own ``Choice.most`` times);
    - ``number``: an open number from ``minimum`` to ``maximum`` in ``step``s;
    - ``split``: an amount per choice (``[{keys[0]: choice, keys[1]: amount}, ...]``),
      each ``minimum``..``maximum`` in ``step``s, all together at most ``maximum``;
    - ``text``: open text of ``minimum``..``maximum`` characters (a word, a name on a card);
    - ``fields``: an object whose parts are the ``fields`` (each a ``Param``; a part with
      ``fewest=0`` may be left out): a card's printed stats, say.
    """

    name: str
    label: str
    kind: ParamKind = "one"
    choices: tuple[Choice, ...] = ()
    minimum: float = 0
    maximum: float = 0
    step: float = 1
    fewest: int = 1
    most: int | None = None
    repeat: bool = False
    keys: tuple[str, str] = ("", "")
    fields: tuple[Param, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        if self.choices:
            out["choices"] = [c.to_json() for c in self.choices]
        if self.kind in ("number", "split"):
            out.update(minimum=self.minimum, maximum=self.maximum, step=self.step)
        if self.kind in ("some", "split"):
            out.update(fewest=self.fewest, most=self.most)
        elif self.fewest == 0:  # a part of ``fields`` that may be left out
            out["fewest"] = 0
        if self.kind == "some" and self.repeat:  # a choice may be taken again (two dice)
            out["repeat"] = True
        if self.kind == "split":
            out["keys"] = list(self.keys)
        if self.kind == "text":
            out.update(minimum=self.minimum, maximum=self.maximum)
        if self.kind == "fields":
            out["fields"] = [f.to_json() for f in self.fields]
        return out

    def holds(self, value: Any) -> bool:
        """Whether ``value`` is one this parameter offers."""
        allowed = [c.value for c in self.choices]
        if self.kind == "one":
            return _member(value, allowed)
        if self.kind == "some":
            if not isinstance(value, list | tuple):
                return False
            most = len(allowed) if self.most is None and not self.repeat else self.most
            if len(value) < self.fewest or (most is not None and len(value) > most):
                return False
            if not self.repeat and len({repr(v) for v in value}) != len(value):
                return False
            if any(c.most is not None and sum(_member(v, [c.value]) for v in value) > c.most
                   for c in self.choices):
                return False
            return all(_member(v, allowed) for v in value)
        if self.kind == "number":
            return _in_steps(value, self.minimum, self.maximum, self.step)
        if self.kind == "text":
            return isinstance(value, str) and self.minimum <= len(value) <= self.maximum
        if self.kind == "fields":
            return self._holds_fields(value)
        return self._holds_split(value, allowed)

    def _holds_fields(self, value: Any) -> bool:
        if not isinstance(value, Mapping) or set(value) - {f.name for f in self.fields}:
            return False
        return all(f.holds(value[f.name]) if f.name in value else f.fewest == 0
                   for f in self.fields)

    def _holds_split(self, value: Any, allowed: list[Any]) -> bool:
        if not isinstance(value, list | tuple) or len(value) < self.fewest:
            return False
        key, amount = self.keys
        total = 0.0
        for item in value:
            if not isinstance(item, Mapping) or set(item) != {key, amount}:
                return False
            if not _member(item[key], allowed) or not _in_steps(
                    item[amount], self.minimum, self.maximum, self.step):
                return False
            total += item[amount]
        return total <= self.maximum

    def samples(self) -> list[Any]:
        """A few values this parameter offers (every choice; the ends of a range)."""
        allowed = [c.value for c in self.choices]
        if self.kind == "one":
            return allowed
        if self.kind == "some":
            if not allowed:
                return []
            out = [allowed[:self.fewest] if not self.repeat else _filled(self.choices,
                                                                        self.fewest)]
            if self.repeat and any(c.most is not None for c in self.choices):
                out.append(_filled(self.choices[::-1], self.fewest))  # the other end too
            if self.fewest <= 1:
                out += [[v] for v in allowed[1:]]
            return [v for i, v in enumerate(out) if len(v) >= self.fewest and v not in out[:i]]
        if self.kind == "number":
            top = self.minimum + self.step * ((self.maximum - self.minimum) // self.step)
            return list(dict.fromkeys([_whole(self.minimum), _whole(top)]))
        if self.kind == "text":
            word = "Slim"[: int(self.maximum)] if self.maximum >= 1 else ""
            return [word.ljust(int(self.minimum), "x")]
        if self.kind == "fields":
            needed = {f.name: f.samples()[0] for f in self.fields
                      if f.fewest > 0 and f.samples()}
            every = {f.name: f.samples()[-1] for f in self.fields if f.samples()}
            return [needed, every] if every != needed else [needed]
        key, amount = self.keys
        if not allowed or self.maximum < self.minimum:
            return []
        top = self.minimum + self.step * ((self.maximum - self.minimum) // self.step)
        return [[{key: allowed[0], amount: _whole(self.minimum)}],
                [{key: allowed[-1], amount: _whole(top)}]]


def _filled(choices: Sequence[Choice], size: int) -> list[Any]:
    """``size`` values taken from ``choices`` in order, each as often as its ``most`` lets
    (shorter when the limits do not reach ``size``)."""
    out: list[Any] = []
    for c in choices:
        room = size - len(out) if c.most is None else min(c.most, size - len(out))
        out += [c.value] * max(room, 0)
    return out


def _whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _member(value: Any, allowed: Sequence[Any]) -> bool:
    return any(type(value) is type(a) and value == a for a in allowed) or (
        isinstance(value, list | tuple) and any(
            isinstance(a, list | tuple) and list(value) == list(a) for a in allowed))


def _in_steps(value: Any, lo: float, hi: float, step: float) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if not lo <= value <= hi:
        return False
    return step <= 0 or abs(((value - lo) / step) - round((value - lo) / step)) < 1e-9


@dataclass(frozen=True)
class Move:
    """One thing a seat (or the host) may do now: an action template.

    ``fixed`` holds the values already decided (the seat, the card, the agent);
    ``params`` the ones the player still picks, in the order a phone asks for them.
    Moves with the same ``group`` are one step of the phone's card ("Move an agent" ->
    Red, Blue...). A move that exists but is not allowed now has ``allowed=False`` and
    says ``why`` in one sentence. ``costly``: the move costs whoever it names a penalty
    (The Nasty 7's card out of turn: that player takes the pile); the phone's card shows
    it in the warning style, never like the usual move (its label says what it costs).
    """

    do: str
    label: str
    fixed: Mapping[str, Any] = field(default_factory=dict)
    params: tuple[Param, ...] = ()
    group: str = ""
    allowed: bool = True
    why: str = ""
    costly: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do, "label": self.label, "fixed": dict(self.fixed),
                               "params": [p.to_json() for p in self.params],
                               "group": self.group, "allowed": self.allowed}
        if self.why:
            out["why"] = self.why
        if self.costly:
            out["costly"] = True
        return out

    @property
    def closed(self) -> bool:
        """Whether every parameter is a choice among listed values."""
        return all(p.kind in ("one", "some") for p in self.params)

    def actions(self, limit: int = 200) -> Iterator[dict[str, Any]]:
        """Complete actions this move stands for (every combination of ``samples``)."""
        pools = [p.samples() for p in self.params]
        for values in itertools.islice(itertools.product(*pools), limit):
            out = {"do": self.do, **dict(self.fixed)}
            out.update({p.name: v for p, v in zip(self.params, values, strict=True)})
            yield out

    def offers(self, action: Mapping[str, Any]) -> bool:
        """Whether the complete ``action`` is one this move stands for."""
        if not self.allowed or action.get("do") != self.do:
            return False
        given = {k: v for k, v in action.items() if k not in ("do", "t") and v is not None}
        names = {p.name for p in self.params}
        if set(given) - names - set(self.fixed):
            return False
        for key, value in self.fixed.items():
            if value is not None and not _same(given.get(key), value):
                return False
        return all(p.name in given and p.holds(given[p.name]) for p in self.params)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b or (
        isinstance(a, int | float) and isinstance(b, int | float)
        and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def offered(moves: Sequence[Move], action: Mapping[str, Any]) -> bool:
    """Whether any of ``moves`` offers ``action``."""
    return any(m.offers(action) for m in moves)


@dataclass(frozen=True)
class Waiting:
    """What the table waits for now: who must act (``seats``, the ``host``), on what
    (``on``: a short word such as ``turn``, ``protest``, ``ruling``, ``reveal``,
    ``over``), and ``why``, one sentence with players' names, as shared screens say it.
    ``asks`` may give a seat its own sentence for its phone ("Protest or let it pass.").
    """

    seats: tuple[int, ...] = ()
    on: str = ""
    why: str = ""
    host: bool = False
    asks: Mapping[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "host": self.host, "on": self.on, "why": self.why}

    def attention(self, seat: int | None) -> dict[str, Any]:
        """Must ``seat`` (None: the host) act now, on what, and why (one sentence)."""
        act = self.host if seat is None else seat in self.seats
        why = self.asks.get(seat, self.why) if seat is not None else self.why
        return {"act": act, "on": self.on, "why": why}


@dataclass(frozen=True)
class Scores:
    """Scores in one shape: one number per seat per hand (``hands``) and the match
    ``totals``; ``unit`` ("€", "$", "cards", "Rackets"), ``target`` (the match's goal,
    if any) and ``lower_wins`` tell how to read them."""

    totals: tuple[float, ...]
    hands: tuple[tuple[float, ...], ...] = ()
    unit: str = ""
    target: float | None = None
    lower_wins: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"totals": [_whole(x) for x in self.totals],
                "hands": [[_whole(x) for x in h] for h in self.hands],
                "unit": self.unit, "target": None if self.target is None else _whole(self.target),
                "lower_wins": self.lower_wins}


#: the keys of every seat view, in order (the contract test checks them)
SEAT_VIEW_KEYS = ("seat", "attention", "moves", "secrets", "public", "log", "scores")
TABLE_VIEW_KEYS = ("waiting", "public", "log", "scores")


def own_part(seat: int | None, waiting: Waiting, moves: Sequence[Move],
             secrets: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a seat view holds for that seat alone: ``seat``, ``attention``, ``moves``,
    ``secrets`` (the host, ``seat=None``: only its ``attention`` and ``moves``)."""
    mine = {"attention": waiting.attention(seat), "moves": [m.to_json() for m in moves]}
    if seat is None:
        return mine
    return {"seat": seat, **mine, "secrets": dict(secrets or {})}


def shared_part(public: Mapping[str, Any], log: Sequence[str],
                scores: Scores | None) -> dict[str, Any]:
    """What every seat view and the shared screens hold alike: ``public``, ``log``,
    ``scores`` (a snapshot sends it once)."""
    return {"public": dict(public), "log": list(log),
            "scores": scores.to_json() if scores is not None else None}


__all__ = ["SEAT_VIEW_KEYS", "TABLE_VIEW_KEYS", "Choice", "Move", "Param", "ParamKind",
           "Scores", "Waiting", "offered", "own_part", "shared_part"]
