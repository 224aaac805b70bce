"""What decks need to know about each game: its name, its catalog, its card stats."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from companion.decks.errors import DeckError
from companion.games import MODULES
from companion.games.cards import Catalog, catalog

#: games whose deck counts the owner may edit (the split is not public)
EDITABLE_COUNTS = frozenset({"nasty7"})

_ALIASES = {
    "nasty_7": "nasty7",
    "the_nasty_7": "nasty7",
    "fiese7": "nasty7",
    "fiese_7": "nasty7",
    "die_fiesen_7": "nasty7",
    "crimelords": "crime_lords",
}
_TEXT_MAX = 200
_INT_RANGE = range(-999, 10_000)


def canonical_game(name: str) -> str:
    """The canonical game name for ``name`` or an alias; ValueError names the choices."""
    wanted = name.strip().lower().replace("-", "_").replace(" ", "_")
    wanted = _ALIASES.get(wanted, wanted)
    if wanted in MODULES:
        return wanted
    raise DeckError(f"unknown game {name!r}; the games are {', '.join(MODULES)}")


def base_catalog(game: str) -> Catalog | None:
    """The built-in catalog of ``game``, None when it is not installed."""
    try:
        return catalog(game)
    except (FileNotFoundError, ModuleNotFoundError):
        return None


@cache
def stats_fields(game: str) -> dict[str, dict[str, str]]:
    """Kind -> field -> "int" | "text": the stats an owner may enter (may be empty)."""
    try:
        text = resources.files("companion.games").joinpath("data", f"{game}.json").read_text()
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    fields = json.loads(text).get("stats_fields", {})
    return {str(k): {str(f): str(t) for f, t in v.items()} for k, v in fields.items()}


def check_stats(game: str, kind: str, stats: dict[str, Any]) -> dict[str, Any]:
    """``stats`` checked against the fields of ``kind``; ValueError says what is wrong."""
    fields = stats_fields(game).get(kind)
    if not fields:
        raise ValueError(f"{game} cards of kind {kind!r} have no stats to enter")
    clean: dict[str, Any] = {}
    for key, value in stats.items():
        kind_of = fields.get(key)
        if kind_of is None:
            raise ValueError(f"unknown field {key!r}; the fields are {', '.join(fields)}")
        if value is None or value == "":
            continue
        if kind_of == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value not in _INT_RANGE:
                raise ValueError(f"{key} must be a whole number, got {value!r}")
        elif not isinstance(value, str) or len(value) > _TEXT_MAX:
            raise ValueError(f"{key} must be a text of at most {_TEXT_MAX} characters")
        clean[key] = value.strip() if isinstance(value, str) else value
    return clean


#: how a game is called on printed sheets and in listings
GAME_TITLES = {
    "nasty7": "The Nasty 7",
    "illegal": "Illegal",
    "casablanca": "Casablanca",
    "crime_lords": "Crime Lords",
}


def game_title(game: str) -> str:
    """The printed title of ``game``."""
    return GAME_TITLES.get(game, game)
