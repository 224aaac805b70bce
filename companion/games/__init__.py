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


def with_feature(feature: str) -> tuple[AnyEngine, ...]:
    """Every installed engine that brings ``feature`` (``engine.FEATURES``), in order."""
    return tuple(e for e in available().values() if e.has(feature))


def first_with(feature: str) -> AnyEngine:
    """The first engine that brings ``feature``; ``UnknownGameError`` if none does."""
    found = with_feature(feature)
    if not found:
        raise UnknownGameError(f"no installed game brings {feature!r}")
    return found[0]


def names_text() -> str:
    """The games' canonical names for a help text: "a, b, c or d"."""
    names = list(available())
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


#: the game a table plays when its configuration names none
DEFAULT_GAME = ENGINES[0].name


def canonical(name: str) -> str:
    """The canonical name of the game ``name`` names; ``UnknownGameError`` if none."""
    return get(name).name


__all__ = ["DEFAULT_GAME", "ENGINES", "UnknownGameError", "available", "canonical",
           "first_with", "get", "names_text", "normalise", "register", "with_feature"]
