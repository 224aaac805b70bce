"""Typed actions: each game declares its actions once, as frozen dataclasses.

An action is a value (python-chess's ``Move``): ``ActionSet.parse`` turns a record line,
a phone's post, or what the camera and buttons mean into it, or raises ``IllegalAction``
with a sentence a player understands (no JSON, no key names, no ids: the field's name
goes to ``IllegalAction.detail``, for the log); ``to_json()`` writes it back unchanged.
The JSON schema (``json_schema``), the action tables of docs/records.md and every key
check come from the dataclasses, so an action is described once.

A game's action is a subclass of ``GameAction``::

    @dataclass(frozen=True, kw_only=True)
    class Play(GameAction):
        "Play a card from the hand."
        do: ClassVar[str] = "play"
        label: ClassVar[str] = "Play a card"
        card: Annotated[str, Spec("the card")]
        target: Annotated[int, Spec("the player")] | None = None

Field types: ``bool``, ``int``, ``float``, ``str``, a ``Literal`` of strings, a nested
frozen dataclass (parsed from an object), ``tuple[X, ...]`` (from a list), and
``X | None`` for a field that may be left out (``None`` is never written back).
``Annotated[X, Spec(...)]`` gives the field its player-facing label and its bounds.
An action is a plain frozen value: read its fields (``action.card``); ``to_json()`` is
the JSON it stands for, where JSON is needed (a record line, the store).

**Who sent it** is checked here, once, before any game handler (``ActionSet.admit``):
each action declares ``by`` (a seat's phone, the host, or the table itself), and the
table gives the sender as a value (``SentBy``: a seat number, ``"host"`` or
``"table"``). A record line is not sent by anyone: it was checked when it was sent, and
``ActionSet.parse`` reads it as it is.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal, get_args, get_origin

from companion.games.base import IllegalAction

#: how long a text value may be, and how many items a list may hold
MAX_TEXT = 200
MAX_LIST = 64
#: the largest amount or count any action carries
MAX = 10**9
#: how deeply an object may nest inside an action
MAX_DEPTH = 4

#: who may send an action, as each action class declares it (``GameAction.by``)
Sender = Literal["seat", "host", "table"]
#: who did send one, as the table says (``ActionSet.admit``): a seat's phone (its number,
#: from 0), the host (its phone or the command line), or the table itself (its camera,
#: its buttons, its clock)
SentBy = int | Literal["host", "table"]
BY_HOST: Final = "host"
BY_TABLE: Final = "table"
#: the refusals, in a player's words (``<label>`` is the action's label)
ONLY_TABLE = "{label}: only the table itself can do that (its camera, buttons or clock)."
ONLY_HOST = "{label}: only the host can do that."
OWN_SEAT = "A phone can only act for its own seat."
ONLY_HOST_FIELD = "Only the host can give {label}: send it without, and the host will."


@dataclass(frozen=True)
class Spec:
    """How one field reads to a player and what it may hold.

    ``label`` is the field as a player reads it ("the amount"); ``minimum``/``maximum``
    bound a number (or a list's items); ``open`` marks a value the player types or sets
    (money, a printed stat): ``moves()`` offers it with bounds and a step, not choices.
    ``actor`` marks a field that names the seat (or seats) acting, besides ``seat``
    (The Nasty 7's accusers): a phone may put only its own seat there. ``host`` marks a
    field only the host may fill in an action a phone may send (The Nasty 7's ruling,
    entered with an accusation): ``ActionSet.admit`` refuses a phone's action that fills it.
    """

    label: str = ""
    minimum: float | None = None
    maximum: float | None = None
    open: bool = False
    max_len: int = MAX_TEXT
    actor: bool = False
    host: bool = False


#: a seat as actions carry it (counted from 0 in data, never shown so)
Seat = Annotated[int, Spec("the player", 0, 11)]


class ActionError(IllegalAction):
    """An action that does not fit its declaration; ``detail`` names the field (log only)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.detail = detail


@dataclass(frozen=True, kw_only=True)
class GameAction:
    """One action of a game: ``do`` names it, the fields are its parameters.

    ``by`` says who may send it: a seat's phone (``seat``), the host (``host``) or the
    table itself (``table``: the camera, the buttons, the clock); only ``seat`` and
    ``host`` actions are offered by ``moves()``.
    """

    do: ClassVar[str] = ""
    label: ClassVar[str] = ""
    by: ClassVar[Sender] = "seat"
    #: the table's word of what it can see now (a ``table`` action nobody did): the
    #: host's Undo passes over it to the last thing a person or a card did
    notice: ClassVar[bool] = False
    seat: Seat | None = None

    # --- written back -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The action as a record line writes it (without ``t``): ``None`` fields left out."""
        return {"do": self.do, **_to_json(self)}

    def acting_seats(self) -> tuple[int, ...]:
        """Every seat this action names as acting: ``seat`` and each field declared
        ``Spec(actor=True)`` (a number or a list of them), in field order."""
        seats: list[int] = []
        for info in fields_of(type(self)):
            if info.name != "seat" and not info.spec.actor:
                continue
            value = getattr(self, info.name)
            for seat in value if isinstance(value, tuple) else (value,):
                if isinstance(seat, int) and not isinstance(seat, bool):
                    seats.append(seat)
        return tuple(seats)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {key_of(f.name): _to_json(getattr(value, f.name))
                for f in dataclasses.fields(value) if getattr(value, f.name) is not None}
    return value


# --- the parser ------------------------------------------------------------------------


def _spec_and_type(hint: Any) -> tuple[Any, Spec | None, bool]:
    """``(bare type, its Spec, whether None is allowed)`` of a field's type hint."""
    optional = False
    spec: Spec | None = None
    if get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        optional = len(args) < len(get_args(hint))
        hint = args[0] if len(args) == 1 else typing.Union[tuple(args)]  # noqa: UP007
    if get_origin(hint) is Annotated:
        base, *extras = get_args(hint)
        spec = next((e for e in extras if isinstance(e, Spec)), None)
        hint = base
    return hint, spec, optional


@dataclass(frozen=True)
class FieldInfo:
    """One declared field: its name, bare type, spec, and whether it may be left out."""

    name: str
    type: Any
    spec: Spec
    optional: bool

    @functools.cached_property
    def key(self) -> str:
        """The JSON key: a Python keyword is spelled with a trailing ``_`` (``from_``)."""
        return key_of(self.name)

    @functools.cached_property
    def label(self) -> str:
        return self.spec.label or "the " + self.key.replace("_", " ")

    @functools.cached_property
    def parse(self) -> Parser:
        """This field's raw JSON value (and the nesting depth) as its typed value."""
        return _parser(self, self.type)


_FIELDS: dict[type, tuple[FieldInfo, ...]] = {}


def key_of(name: str) -> str:
    """A field's JSON key: ``from_`` is written ``from`` (a keyword in Python)."""
    return name[:-1] if name.endswith("_") else name


def fields_of(cls: type) -> tuple[FieldInfo, ...]:
    """The declared fields of an action (or nested) dataclass, in order."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        out = []
        for f in dataclasses.fields(cls):
            bare, spec, optional = _spec_and_type(hints[f.name])
            has_default = (f.default is not dataclasses.MISSING
                           or f.default_factory is not dataclasses.MISSING)
            out.append(FieldInfo(f.name, bare, spec or Spec(), optional or has_default))
        found = _FIELDS[cls] = tuple(out)
    return found


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


#: a parser: a raw JSON value (and the nesting depth) to the typed value, or ActionError
Parser = typing.Callable[[Any, int], Any]


def _parser(info: FieldInfo, hint: Any) -> Parser:
    """The parser of a value of type ``hint`` for field ``info``, worked out once per field
    (``FieldInfo.parse``): the walks parse hundreds of thousands of actions, and asking
    each value's type what it is (``get_origin``, ``get_args``, the bounds) was most of
    the parse. The label of an error is written only on an error."""
    spec, name = info.spec, info.name

    def label() -> str:
        return _cap(info.label)

    if hint is bool:
        def boolean(raw: Any, depth: int) -> Any:
            if not isinstance(raw, bool):
                raise ActionError(f"{label()} must be yes or no.", f"{name}: not a bool")
            return raw
        return boolean
    if hint is str:
        longest = spec.max_len

        def text(raw: Any, depth: int) -> Any:
            if not isinstance(raw, str):
                raise ActionError(f"{label()} must be text.", f"{name}: not text")
            if len(raw) > longest:
                raise ActionError(f"{label()} is too long: at most {longest} characters.",
                                  f"{name}: too long")
            return raw
        return text
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_parser(info, option) for option in get_args(hint)]

        def union(raw: Any, depth: int) -> Any:
            for option in options:
                try:
                    return option(raw, depth)
                except ActionError:
                    continue
            raise ActionError(f"{label()} is not something this action can take.",
                              f"{name}: no type of the union fits")
        return union
    if origin is Annotated:
        return _parser(info, get_args(hint)[0])
    if hint is int or hint is float:
        whole = hint is int
        lo = spec.minimum if spec.minimum is not None else -MAX
        hi = spec.maximum if spec.maximum is not None else MAX

        def number(raw: Any, depth: int) -> Any:
            if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
                raise ActionError(f"{label()} must be a number.", f"{name}: not a number")
            if whole and isinstance(raw, float):
                if not raw.is_integer():
                    raise ActionError(f"{label()} must be a whole number.", f"{name}: not whole")
                raw = int(raw)
            if not lo <= raw <= hi:
                raise ActionError(f"{label()} must be between {_num(lo)} and {_num(hi)}.",
                                  f"{name}: out of range")
            return raw
        return number
    if origin is Literal:
        choices = get_args(hint)

        def literal(raw: Any, depth: int) -> Any:
            if not isinstance(raw, str | int) or isinstance(raw, bool) or raw not in choices:
                raise ActionError(f"{label()} is not one of the choices.",
                                  f"{name}: not one of {choices}")
            return raw
        return literal
    if origin is tuple:
        item = _parser(info, get_args(hint)[0])

        def listed(raw: Any, depth: int) -> Any:
            if not isinstance(raw, list | tuple):
                raise ActionError(f"{label()} must be a list.", f"{name}: not a list")
            if len(raw) > MAX_LIST:
                raise ActionError(f"{label()} has too many items: at most {MAX_LIST}.",
                                  f"{name}: too many items")
            return tuple(item(v, depth) for v in raw)
        return listed
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        nested = hint

        def record(raw: Any, depth: int) -> Any:
            if not isinstance(raw, Mapping):
                raise ActionError(f"{label()} is not filled in the right way.",
                                  f"{name}: not an object")
            if depth >= MAX_DEPTH:
                raise ActionError(f"{label()} is nested too deeply.", f"{name}: too deep")
            return _build(nested, raw, depth + 1, label())
        return record

    def unknown(raw: Any, depth: int) -> Any:
        raise TypeError(f"{name}: a field of type {hint!r} cannot be parsed")
    return unknown


_KEYS: dict[type, frozenset[str]] = {}


def _keys_of(cls: type) -> frozenset[str]:
    """The keys a line of ``cls`` may hold: its fields' and ``do`` and ``t``."""
    found = _KEYS.get(cls)
    if found is None:
        found = _KEYS[cls] = frozenset({i.key for i in fields_of(cls)} | {"do", "t"})
    return found


def _build(cls: type, raw: Mapping[str, Any], depth: int, what: str) -> Any:
    """An instance of dataclass ``cls`` from ``raw`` (``do`` and ``t`` are not fields)."""
    infos = fields_of(cls)
    names = _keys_of(cls)
    for key in raw:
        if key not in names:
            raise ActionError(f"{what} was sent with something it does not take: "
                              "send it again from the buttons.",
                              f"unexpected key {str(key)[:40]!r}")
    values: dict[str, Any] = {}
    for info in infos:
        raw_value = raw.get(info.key)
        if raw_value is None:
            if not info.optional:
                verb = "Enter" if info.spec.open or info.type in (int, float) else "Choose"
                raise ActionError(f"{verb} {info.label} first.", f"{info.name}: missing")
            continue
        values[info.name] = info.parse(raw_value, depth)
    return cls(**values)


class ActionSet:
    """A game's actions by name: ``parse`` turns JSON into the typed value."""

    def __init__(self, title: str, *kinds: type[GameAction]) -> None:
        self.title = title
        self.kinds: dict[str, type[GameAction]] = {}
        every: tuple[type[GameAction], ...] = (*kinds, Deadline)
        for kind in every:
            if not kind.do or kind.do in self.kinds:
                raise ValueError(f"{title}: action {kind.__name__} needs a unique 'do'")
            fields_of(kind)  # every field's type must be one the parser knows
            self.kinds[kind.do] = kind

    def __iter__(self) -> Iterator[type[GameAction]]:
        return iter(self.kinds.values())

    def __contains__(self, do: object) -> bool:
        return do in self.kinds

    def parse(self, raw: Mapping[str, Any] | GameAction) -> GameAction:
        """``raw`` (a record line) as this game's typed action, or ``ActionError`` a
        player understands. Nobody's permission is checked: see ``admit``."""
        if isinstance(raw, GameAction):
            return raw
        kind = self.kind_of(raw)
        built: GameAction = _build(kind, raw, 0, kind.label or "That action")
        return built

    def kind_of(self, raw: Mapping[str, Any] | GameAction) -> type[GameAction]:
        """The action class ``raw`` names by its ``do`` (``ActionError`` if none)."""
        if isinstance(raw, GameAction):
            return type(raw)
        if not isinstance(raw, Mapping):
            raise ActionError("That is not an action: use the buttons on the page.",
                              "not an object")
        do = raw.get("do")
        kind = self.kinds.get(do) if isinstance(do, str) else None
        if kind is None:
            raise ActionError(f"That is not something anyone can do in {self.title}.",
                              f"unknown action {str(do)[:40]!r}")
        return kind

    def admit(self, raw: Mapping[str, Any] | GameAction, sender: SentBy) -> GameAction:
        """``raw`` sent live by ``sender``, as the typed action, once its sender may send it.

        The one check of who may do what, before any game handler: the class is found by
        its ``do`` and the sender checked against its ``by`` before any field is read, so
        a sender who may not send it hears that, not what is wrong with a field. A phone's
        ``seat`` is filled in when missing; every seat the action names as acting
        (``acting_seats``) must then be the phone's own. The host and the table may enter
        a seat's action for it. A field declared ``Spec(host=True)`` is the host's to fill:
        a phone's action that fills it is refused.
        """
        kind = self.kind_of(raw)
        check_sender(kind, sender)
        if not isinstance(sender, int) or isinstance(sender, bool):  # the host, the table
            return self.parse(raw)
        action = self.parse(_with_seat(raw, sender))
        if any(s != sender for s in action.acting_seats()):
            raise ActionError(OWN_SEAT, f"seat {sender} named {action.acting_seats()}")
        for info in fields_of(kind):
            if info.spec.host and getattr(action, info.name) is not None:
                raise ActionError(ONLY_HOST_FIELD.format(label=info.label),
                                  f"{info.name} is the host's")
        return action

    def declared(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """``raw`` without the keys its action does not declare: how a record of format
        version 1 was read (unknown keys were ignored then; now they are refused)."""
        do = raw.get("do")
        kind = self.kinds.get(do) if isinstance(do, str) else None
        if kind is None:
            return dict(raw)
        keys = {i.key for i in fields_of(kind)} | {"do", "t"}
        return {k: v for k, v in raw.items() if k in keys}

    def json_schema(self) -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) of every action line of this game (without ``t``)."""
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": f"{self.title} actions",
                "oneOf": [schema_of(kind) for kind in self]}


def check_sender(kind: type[GameAction], sender: SentBy) -> None:
    """Refuse ``sender`` if ``kind`` is not theirs to send (by its declared ``by``)."""
    label = kind.label or "That"
    if kind.by == "table" and sender != BY_TABLE:
        raise ActionError(ONLY_TABLE.format(label=label), f"{kind.do} is the table's")
    if kind.by == "host" and sender not in (BY_HOST, BY_TABLE):
        raise ActionError(ONLY_HOST.format(label=label), f"{kind.do} is the host's")


def _with_seat(raw: Mapping[str, Any] | GameAction, seat: int) -> Mapping[str, Any] | GameAction:
    """``raw`` with ``seat`` filled in where it names none (a phone acts as its seat)."""
    if isinstance(raw, GameAction):
        return raw if raw.seat is not None else dataclasses.replace(raw, seat=seat)
    return raw if raw.get("seat") is not None else {**raw, "seat": seat}


def schema_of(kind: type[GameAction]) -> dict[str, Any]:
    """The JSON Schema of one action."""
    out = _object_schema(kind)
    out["properties"] = {"do": {"const": kind.do}, **out["properties"]}
    out["required"] = ["do", *out["required"]]
    out["description"] = (kind.__doc__ or "").strip().splitlines()[0] if kind.__doc__ else ""
    return out


def _object_schema(cls: type) -> dict[str, Any]:
    props = {i.key: _type_schema(i.type, i.spec) for i in fields_of(cls)}
    required = [i.key for i in fields_of(cls) if not i.optional]
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


def _type_schema(hint: Any, spec: Spec) -> dict[str, Any]:
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type_schema(a, spec) for a in get_args(hint)]}
    if origin is Annotated:
        inner = next((e for e in get_args(hint)[1:] if isinstance(e, Spec)), spec)
        return _type_schema(get_args(hint)[0], inner)
    if hint is bool:
        return {"type": "boolean"}
    if hint is int or hint is float:
        out: dict[str, Any] = {"type": "integer" if hint is int else "number",
                               "minimum": spec.minimum if spec.minimum is not None else -MAX,
                               "maximum": spec.maximum if spec.maximum is not None else MAX}
        return out
    if hint is str:
        return {"type": "string", "maxLength": spec.max_len}
    if origin is Literal:
        return {"enum": list(get_args(hint))}
    if origin is tuple:
        return {"type": "array", "maxItems": MAX_LIST,
                "items": _type_schema(get_args(hint)[0], spec)}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _object_schema(hint)
    raise TypeError(f"no schema for {hint!r}")


def describe_type(hint: Any, spec: Spec) -> str:
    """A field's type in a few words for docs/records.md (``whole number 0..11``)."""
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(a, spec) for a in get_args(hint))
    if origin is Annotated:
        inner = next((e for e in get_args(hint)[1:] if isinstance(e, Spec)), spec)
        return describe_type(get_args(hint)[0], inner)
    if hint is bool:
        return "true/false"
    if hint is int or hint is float:
        word = "whole number" if hint is int else "number"
        lo, hi = spec.minimum, spec.maximum
        if lo is None and hi is None:
            return word
        return f"{word} {_num(lo if lo is not None else -MAX)}..{_num(hi if hi is not None else MAX)}"
    if hint is str:
        return "text"
    if origin is Literal:
        return " \\| ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in get_args(hint))
    if origin is tuple:
        return f"list of ({describe_type(get_args(hint)[0], spec)})"
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        parts = ", ".join(f"{i.key}{'?' if i.optional else ''}: {describe_type(i.type, i.spec)}"
                          for i in fields_of(hint))
        return "{" + parts + "}"
    return repr(hint)


def action_table(actions: ActionSet) -> str:
    """The Markdown table of a game's actions for docs/records.md (generated, so true)."""
    rows = ["| `do` | sent by | fields (`?`: may be left out) | meaning |", "|---|---|---|---|"]
    for kind in actions:
        fields = "; ".join(
            f"`{i.key}`{'?' if i.optional else ''}: {describe_type(i.type, i.spec)}"
            for i in fields_of(kind))
        doc = " ".join((kind.__doc__ or "").split("\n\n")[0].split())
        rows.append(f"| `{kind.do}` | {kind.by} | {fields or '—'} | {doc} |")
    return "\n".join(rows)


# --- shared actions ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Deadline(GameAction):
    """The clock reached ``next_deadline``: delivered by the table loop and by replay."""

    do: ClassVar[str] = "deadline"
    label: ClassVar[str] = "The clock"
    by: ClassVar[Sender] = "table"


__all__ = ["BY_HOST", "BY_TABLE", "MAX", "MAX_LIST", "MAX_TEXT", "ONLY_HOST",
           "ONLY_HOST_FIELD", "ONLY_TABLE",
           "OWN_SEAT", "ActionError", "ActionSet", "Deadline", "FieldInfo", "GameAction",
           "Seat", "SentBy", "Sender", "Spec", "action_table", "check_sender",
           "describe_type", "fields_of", "key_of", "schema_of"]
