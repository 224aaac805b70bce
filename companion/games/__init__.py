"""The games: one pure rules engine per module, found by name or alias.

``get("fiese7")`` returns the engine module of The Nasty 7; ``available()`` lists the
engines that are installed. Engines follow ``companion.games.base.Engine``.
"""

from __future__ import annotations

import importlib
from typing import cast

from companion.games.base import Engine

#: canonical name -> module that implements it
MODULES: dict[str, str] = {
    "nasty7": "companion.games.nasty7",
    "illegal": "companion.games.illegal",
    "casablanca": "companion.games.casablanca",
    "crime_lords": "companion.games.crime_lords",
}

_extra: dict[str, Engine] = {}


class UnknownGameError(LookupError):
    """A game name that no installed engine answers to."""


def register(engine: Engine) -> None:
    """Add an engine that is not one of the built-in modules (tests, plug-ins)."""
    _extra[engine.name] = engine


def available() -> dict[str, Engine]:
    """Every installed engine by canonical name (an engine not written yet is absent)."""
    found: dict[str, Engine] = {}
    for name, module in MODULES.items():
        try:
            found[name] = cast(Engine, importlib.import_module(module))
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    found.update(_extra)
    return found


def get(name: str) -> Engine:
    """The engine called ``name`` or one of its aliases (case-insensitive)."""
    wanted = name.strip().lower().replace("-", "_").replace(" ", "_")
    engines = available()
    for engine in engines.values():
        if wanted == engine.name or wanted in engine.aliases:
            return engine
    if wanted in MODULES:
        raise UnknownGameError(f"not available yet: the {wanted} engine is not written yet")
    names = ", ".join(sorted(engines)) or "none"
    raise UnknownGameError(f"unknown game {name!r}; installed games: {names}")
