"""The games: one package per game, one registry that every entry point uses.

``get("fiese7")`` returns the ``Engine`` of The Nasty 7; ``available()`` lists every
engine by canonical name. Each game package (``companion/games/<game>/``) has the same
files: ``__init__`` (its ``engine``), ``state``, ``decide`` (+ topic modules), ``fold``,
``views``, ``inputs`` and ``data/cards.json``. The contract is ``companion.games.engine``.
"""

from __future__ import annotations

from companion.games import casablanca, crime_lords, illegal, nasty7
from companion.games.engine import AnyEngine, normalise

#: the built-in engines, in the order listings show them
ENGINES: tuple[AnyEngine, ...] = (nasty7.engine, illegal.engine, casablanca.engine,
                                  crime_lords.engine)

_extra: dict[str, AnyEngine] = {}


class UnknownGameError(LookupError):
    """A game name that no installed engine answers to."""


def register(engine: AnyEngine) -> None:
    """Add an engine that is not built in (tests, plug-ins)."""
    _extra[engine.name] = engine


def available() -> dict[str, AnyEngine]:
    """Every installed engine by canonical name."""
    found = {engine.name: engine for engine in ENGINES}
    found.update(_extra)
    return found


def get(name: str) -> AnyEngine:
    """The engine called ``name`` or one of its aliases (any case, dashes or spaces).

    Raises ``UnknownGameError`` naming the installed games.
    """
    engines = available()
    for engine in engines.values():
        if engine.answers_to(name):
            return engine
    names = ", ".join(sorted(engines)) or "none"
    raise UnknownGameError(f"unknown game {name!r}; installed games: {names}")


def canonical(name: str) -> str:
    """The canonical name of the game ``name`` names; ``UnknownGameError`` if none."""
    return get(name).name


__all__ = ["ENGINES", "UnknownGameError", "available", "canonical", "get", "normalise",
           "register"]
