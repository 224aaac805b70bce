"""``Emitter``: events decided so far and the state they lead to.

A ``decide`` that produces several events emits them one by one, each folded at once,
so a later step sees an earlier step's effect (a loss after a hassle, a promotion after
a Hit). Every game uses this one class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")


class Emitter(Generic[S, E]):
    """Collects events and keeps ``state`` folded up to the last one."""

    def __init__(self, state: S, apply: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._apply = apply

    def emit(self, *events: E) -> None:
        """Record ``events`` in order, folding each into ``state``."""
        for event in events:
            self.events.append(event)
            self.state = self._apply(self.state, event)
