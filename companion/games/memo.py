"""Values worked out once from an immutable object, kept while that same object lives.

The engines' states and the tuples inside them never change, and new states share the
tuples of the old ones (``frozen.replace`` copies the reference), so what is worked out
from one (an index by card id, the cards in view) can be kept for the next question about
the same object. Hashing a tuple of cards costs as much as scanning it, so an entry is
found by the object's ``id``; it holds the object itself, so that id cannot be reused
while the entry lives, and a hit is checked by identity. At most ``most`` entries: when
full, all are dropped in one step (safe beside the web's threads; no lock in a game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """``make(obj)``, worked out once per object while it is among the latest ``most``."""

    def __init__(self, make: Callable[[K], V], most: int = 16) -> None:
        self._make = make
        self._most = most
        self._kept: dict[int, tuple[Any, V]] = {}

    def __call__(self, obj: K) -> V:
        hit = self._kept.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self._make(obj)
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[id(obj)] = (obj, value)
        return value


__all__ = ["ByIdentity"]
