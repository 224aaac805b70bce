"""What decks need to know about each game: its name, its catalog, its card stats."""

from __future__ import annotations

from functools import cache
from typing import Any

from companion import games
from companion.decks.errors import DeckError
from companion.games.cards import Catalog, catalog, catalog_document

#: games whose deck counts the owner may edit (the split is not public)
EDITABLE_COUNTS = frozenset(e.name for e in games.with_feature("editable_counts"))

_TEXT_MAX = 200
_INT_RANGE = range(-999, 10_000)


def canonical_game(name: str) -> str:
    """The canonical game name for ``name`` or an alias (the one registry of games).

    Raises ``DeckError`` naming the games.
    """
    try:
        return games.canonical(name)
    except games.UnknownGameError:
        raise DeckError(
            f"unknown game {name!r}; the games are {', '.join(games.available())}"
        ) from None


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
        fields = catalog_document(game).get("stats_fields", {})
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return {str(k): {str(f): str(t) for f, t in v.items()} for k, v in fields.items()}


def stats_choices(game: str) -> dict[str, list[str]]:
    """Field -> the words a stat is picked from (Crime Lords' district, type, Weakness)."""
    try:
        lists = catalog_document(game).get("stats_choices", {})
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return {str(k): [str(w) for w in v] for k, v in lists.items()}


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


def game_title(game: str) -> str:
    """The printed title of ``game`` (its engine's title), as sheets and listings show it."""
    try:
        return games.get(game).title
    except games.UnknownGameError:
        return game
