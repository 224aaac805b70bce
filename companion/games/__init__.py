"""TRANSITIONAL registry (replaced at merge): imports game packages lazily, skips unconverted ones."""

from __future__ import annotations

import importlib

from companion.games.engine import AnyEngine, normalise

_BUILT_IN = ("nasty7", "illegal", "casablanca", "crime_lords")
_extra: dict[str, AnyEngine] = {}


class UnknownGameError(LookupError):
    """A game name that no installed engine answers to."""


def register(engine: AnyEngine) -> None:
    _extra[engine.name] = engine


def available() -> dict[str, AnyEngine]:
    found: dict[str, AnyEngine] = {}
    for name in _BUILT_IN:
        try:
            module = importlib.import_module(f"companion.games.{name}")
        except Exception:
            continue
        engine = getattr(module, "engine", None)
        if engine is not None:
            found[name] = engine
    found.update(_extra)
    return found


def get(name: str) -> AnyEngine:
    engines = available()
    for engine in engines.values():
        if engine.answers_to(name):
            return engine
    names = ", ".join(sorted(engines)) or "none"
    raise UnknownGameError(f"unknown game {name!r}; installed games: {names}")


def canonical(name: str) -> str:
    return get(name).name


ENGINES: tuple[AnyEngine, ...] = ()
__all__ = ["UnknownGameError", "available", "canonical", "get", "normalise", "register"]
