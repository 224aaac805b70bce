"""Casablanca's board as data: spaces (with names), homebases, the Basar and the streets.

The rules text names the four homebases in the corners and the Basar in the centre but
not the other spaces or the streets, so the product ships a documented default
(``data/board.json``, read with ``importlib.resources`` like the card catalog) and a host
may pass their own board as option ``board``:

- ``{"spaces": [{"id": "basar", "name": "Basar", "kind": "centre", "x": 0.5, "y": 0.5},
  ...], "streets": [["basar", "souk"], ...]}`` (``id`` may be left out: it is made from
  the name; ``kind`` is ``homebase``, ``centre`` or ``space``; ``x``/``y`` place it on a
  drawing, 0..1), or
- ``{space: [neighbours, ...]}`` (every name is then both id and name).

Streets are two-way. Every name is at most ``MAX_NAME`` characters; a board has at most
``MAX_SPACES`` spaces. ``BoardError`` says what to fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

#: the longest name (or id) of a space, an agent or a player
MAX_NAME = 40
#: the most spaces a board may have
MAX_SPACES = 64
KINDS = ("homebase", "centre", "space")


class BoardError(ValueError):
    """A board the engine cannot use; the message says what to change."""


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    kind: str = "space"
    x: float | None = None
    y: float | None = None


@dataclass(frozen=True)
class Board:
    spaces: tuple[Space, ...]
    #: two-way streets, each pair sorted, the list sorted
    streets: tuple[tuple[str, str], ...]
    #: no board is tracked (version-1 records): any named space, any move; ``spaces``
    #: are only the names known for showing (``free_board``)
    free: bool = False
    #: a version-1 ``{space: [neighbours]}`` map: a move names a space exactly as the map
    #: does (case and spaces count; ``exact_board``)
    exact: bool = False

    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces)

    @cached_property
    def _by_id(self) -> dict[str, Space]:
        """The spaces by id (the first of an id, as a scan in order finds it)."""
        out: dict[str, Space] = {}
        for space in self.spaces:
            out.setdefault(space.id, space)
        return out

    @cached_property
    def _near(self) -> dict[str, tuple[str, ...]]:
        """Each space's neighbours in board order: a board never changes, and the moves
        of every agent asked for them in every state (a third of a random game's walk)."""
        ends: dict[str, set[str]] = {}
        for a, b in self.streets:
            ends.setdefault(a, set()).add(b)
            ends.setdefault(b, set()).add(a)
        return {here: tuple(s.id for s in self.spaces if s.id in near)
                for here, near in ends.items()}

    def space(self, space_id: str) -> Space | None:
        return self._by_id.get(space_id)

    def name(self, space_id: str) -> str:
        """The space's name for people: its printed name; a space given without one (a
        ``{space: [neighbours]}`` map, a space with only an ``id``) by its id read as
        words (``souk`` -> "Souk", ``ricks_cafe`` -> "Ricks cafe"), never as the id. A name
        written like an id reads as words too; a version-1 board read exactly keeps its
        names as written ("Gate" and "gate" are two spaces there); the text given when it
        is not on the board (a free board's) is what was typed."""
        space = self.space(space_id)
        if space is None or space.name != space.id or self.exact:
            return readable(space.name if space is not None else space_id)
        return as_words(space.id)

    def neighbours(self, space_id: str) -> tuple[str, ...]:
        """The spaces one street away, in board order."""
        return self._near.get(space_id, ())

    def find(self, text: str) -> str | None:
        """The id of the space called ``text`` (its id or its name, any case), or None.

        A free board takes any non-empty text as it is (version 1 named spaces so); an
        exact board only a space's id exactly as written."""
        if self.free:
            return text or None
        if self.exact:
            return text if text in self.ids() else None
        text = text.strip()
        if not text or len(text) > MAX_NAME:
            return None
        wanted = text.casefold()
        for space in self.spaces:
            if wanted in (space.id.casefold(), space.name.casefold()) or slug(text) == space.id:
                return space.id
        return None

    def names(self, ids: tuple[str, ...] | list[str]) -> str:
        """``"Souk, Kasbah and Basar"`` for people."""
        names = [self.name(i) for i in ids]
        if not names:
            return "nowhere"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def to_json(self) -> dict[str, Any]:
        return {
            "spaces": [
                {"id": s.id, "name": s.name, "kind": s.kind, "x": s.x, "y": s.y}
                for s in self.spaces
            ],
            "streets": [list(p) for p in self.streets],
        }


def slug(name: str) -> str:
    """An id made from a name: ``"Rick's Café"`` -> ``"rick_s_café"``."""
    return re.sub(r"[^\w]+", "_", name.strip().casefold()).strip("_")


def clip(text: object, limit: int = MAX_NAME) -> str:
    """``text`` as a short string for a message (a 60 KB name is never echoed)."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _name(raw: Any, what: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise BoardError(f"every {what} needs a name (text), got {clip(repr(raw))}")
    name = raw.strip()
    if len(name) > MAX_NAME:
        raise BoardError(
            f"the {what} name {clip(name)!r} is {len(name)} characters long: "
            f"use at most {MAX_NAME}"
        )
    return name


def _coordinate(raw: Any, name: str) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 <= raw <= 1:
        raise BoardError(f"space {name!r}: x and y must be numbers between 0 and 1")
    return float(raw)


def _space(raw: Any) -> Space:
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, Mapping):
        raise BoardError('each space must look like {"id": "basar", "name": "Basar"}')
    name = _name(raw.get("name", raw.get("id")), "space")
    space_id = _name(raw.get("id") or slug(name) or name, "space id")
    kind = raw.get("kind", "space")
    if kind not in KINDS:
        raise BoardError(f"space {name!r}: kind must be one of {', '.join(KINDS)}")
    return Space(space_id, name, str(kind), _coordinate(raw.get("x"), name),
                 _coordinate(raw.get("y"), name))


def parse_board(raw: Any) -> Board:
    """A checked ``Board`` from option ``board`` (see the module doc); ``BoardError``."""
    if isinstance(raw, Mapping) and "spaces" in raw:
        spaces_raw, streets_raw = raw.get("spaces"), raw.get("streets", [])
    elif isinstance(raw, Mapping):  # {space: [neighbours]}
        names: dict[str, None] = {}
        streets_raw = []
        for space, others in raw.items():
            if not isinstance(others, list | tuple):
                raise BoardError(f"space {clip(space)!r} must list its neighbours")
            names[space] = None
            for other in others:
                names[other] = None
                streets_raw.append([space, other])
        spaces_raw = [{"id": n, "name": n} for n in names]
    else:
        raise BoardError('give {"spaces": [...], "streets": [[a, b], ...]}')
    if not isinstance(spaces_raw, list | tuple) or not isinstance(streets_raw, list | tuple):
        raise BoardError('"spaces" and "streets" must be lists')
    if not 2 <= len(spaces_raw) <= MAX_SPACES:
        raise BoardError(f"a board has 2 to {MAX_SPACES} spaces, not {len(spaces_raw)}")
    spaces = tuple(_space(s) for s in spaces_raw)
    ids = [s.id for s in spaces]
    for seen in (ids, [s.name.casefold() for s in spaces]):
        twice = sorted({x for x in seen if seen.count(x) > 1})
        if twice:
            raise BoardError(f"two spaces share the name {clip(twice[0])!r}: rename one")
    board = Board(spaces, ())
    streets: set[tuple[str, str]] = set()
    for pair in streets_raw:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise BoardError('each street joins two spaces: ["basar", "souk"]')
        ends = []
        for end in pair:
            found = board.find(end) if isinstance(end, str) else None
            if found is None:
                raise BoardError(f"a street names {clip(end)!r}, which is not a space")
            ends.append(found)
        if ends[0] == ends[1]:
            raise BoardError(f"a street joins {board.name(ends[0])!r} to itself")
        a, b = sorted(ends)
        streets.add((a, b))
    return Board(spaces, tuple(sorted(streets)))


def exact_board(raw: Any) -> Board:
    """A version-1 board map ``{space: [neighbours, ...]}`` read as version 1 read it
    (option ``exact_names``): every name is a space exactly as written (``"Gate"``,
    ``"gate"`` and ``" gate"`` are three spaces), streets are two-way, no limit on names or
    spaces; a space may not be its own neighbour. ``BoardError`` says what to fix."""
    bad = BoardError(
        'map each space to the list of spaces next to it, like {"basar": ["hotel", '
        '"market"], ...}'
    )
    if not isinstance(raw, Mapping):
        raise bad
    near: dict[str, set[str]] = {}
    for space, others in raw.items():
        if not isinstance(space, str) or not isinstance(others, list | tuple):
            raise bad
        for other in others:
            if not isinstance(other, str) or other == space:
                raise bad
            near.setdefault(space, set()).add(other)
            near.setdefault(other, set()).add(space)
    spaces = tuple(Space(name, name) for name in sorted(near))
    streets = {(a, b) if a < b else (b, a) for a, others in near.items() for b in others}
    return Board(spaces, tuple(sorted(streets)), exact=True)


@cache
def readable(text: str) -> str:
    """``ricks_cafe`` -> "Ricks cafe"; a name with spaces or without ``_`` stays as it is."""
    if "_" not in text or " " in text.strip():
        return text
    words = text.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def as_words(space_id: str) -> str:
    """A space's id read as words, for a space with no printed name: ``souk`` -> "Souk"."""
    words = readable(space_id).strip()
    return words[:1].upper() + words[1:]


def free_board() -> Board:
    """No board (option ``board: "free"``, what a version-1 record without a board meant):
    any text names a space and an agent may go anywhere; the default board's spaces only
    give known spaces their names."""
    return Board(default_board().spaces, (), free=True)


@cache
def default_board() -> Board:
    """The built-in board (``data/board.json``)."""
    text = resources.files("companion.games.casablanca").joinpath("data", "board.json")
    return parse_board(json.loads(text.read_text("utf-8")))


__all__ = ["MAX_NAME", "Board", "BoardError", "Space", "as_words", "clip", "default_board",
           "exact_board", "free_board", "parse_board", "readable"]
