"""Reactions: what the table itself does after a committed batch, whatever sent it.

A game's feature that answers its events (a card's stats filled from the deck) is a
*reaction*: the table loop calls each one after every action or deadline batch it
committed, with a ``Committed`` (the engine, the new state, the batch's events), and at a
game's start (``started``, no events). A reaction returns follow-up action lines; the
table runs them in the same loop turn, sent by the table itself (``BY_TABLE``), through
the same ``Session.preview`` and store as any action — never from a listener thread,
never posted back through the web. A follow-up's own batch is reacted to in turn (at
most ``MAX_FOLLOW_UPS`` deep). An undo is not reacted to: what the host took back is not
done again.

Edges (the camera) do not react: they hear a feature's events through
``Table.on_feature_event``, which names no game and no action.

``DeckStats`` (feature ``card_stats``) is the built-in reaction: at a game's start the
deck's known cards (``CardStats.load``), and a drawn card's stats when the game asks for
them and the deck holds them (``CardStats.enter``), whoever drew it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.decks import DeckError, stats_deck, stored_stats
from companion.games.engine import AnyEngine

log = logging.getLogger(__name__)

#: how many rounds of follow-ups one input may cause, so two reactions cannot loop
MAX_FOLLOW_UPS = 8


@dataclass(frozen=True)
class Committed:
    """One committed batch as a reaction sees it (``started``: a game just began)."""

    engine: AnyEngine
    state: Any
    events: tuple[Any, ...] = ()
    started: bool = False


#: a reaction: a committed batch in, the action lines the table sends itself out
Reaction = Callable[[Committed], Sequence[Mapping[str, Any]]]


class DeckStats:
    """The deck's printed stats, sent by the table (feature ``card_stats``).

    ``state_dir``: where the decks are (None: the state folder, ``companion.paths``).
    A deck that cannot be read is logged and nothing is sent: the player types the stats.
    """

    def __init__(self, state_dir: Path | None = None) -> None:
        self.state_dir = state_dir

    def __call__(self, done: Committed) -> list[Mapping[str, Any]]:
        how = done.engine.card_stats
        if how is None:
            return []
        if done.started:
            cards = self._known(done.engine.name)
            return [how.load(cards)] if cards else []
        out: list[Mapping[str, Any]] = []
        for event in done.events:
            asked = how.asked(event)
            if asked is None:
                continue
            seat, card = asked
            stats = self._stats(done.engine.name, card)
            if stats:
                out.append(how.enter(seat, card, stats))
        return out

    def _known(self, game: str) -> list[tuple[str, Mapping[str, Any]]]:
        try:
            deck = stats_deck(game, self.state_dir)
            if deck is None:
                return []
            return [(card.id, stats) for serial, card in deck.physical()
                    if (stats := deck.card_stats(serial))]
        except (DeckError, OSError) as exc:
            log.warning("the deck's card stats could not be read: %s", exc)
            return []

    def _stats(self, game: str, card: str) -> dict[str, Any] | None:
        try:
            deck = stats_deck(game, self.state_dir)
            return stored_stats(deck, card) if deck is not None else None
        except (DeckError, OSError) as exc:
            log.warning("the deck's stats of %s could not be read: %s", card, exc)
            return None


def standard_reactions(state_dir: Path | None = None) -> list[Reaction]:
    """The reactions every table runs: the deck's card stats."""
    return [DeckStats(state_dir)]


__all__ = ["MAX_FOLLOW_UPS", "Committed", "DeckStats", "Reaction", "standard_reactions"]
