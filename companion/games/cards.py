"""Card catalogs: every card of every game, as data (``companion/games/<game>/data/cards.json``).

A catalog lists card *types* with how many physical copies the deck has::

    {"game": "illegal", "version": 1,
     "cards": [{"id": "market_open", "name": {"en": "Market Open", "de": "..."},
                "kind": "market_open", "value": 0, "count": 8}, ...]}

``kind`` groups cards for the rules; ``value`` is the card's printed value (0 when it
has none); extra keys are allowed (``colour``, ``homebase``, ``stats``...). Physical
cards are the types expanded by ``count``, numbered 1..N in catalog order: a serial.
Reading package data is deterministic, so engines may use this module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class CardType:
    id: str
    name: dict[str, str]
    kind: str
    value: int = 0
    count: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def label(self, lang: str = "en") -> str:
        """The card's name in ``lang``, falling back to English."""
        return self.name.get(lang) or self.name.get("en") or self.id


@dataclass(frozen=True)
class Catalog:
    game: str
    cards: tuple[CardType, ...]

    def by_id(self, card_id: str) -> CardType:
        found = self._by_id.get(card_id)
        if found is None:
            raise KeyError(f"{self.game} has no card {card_id!r}")
        return found

    @cached_property
    def _by_id(self) -> dict[str, CardType]:
        """Card id -> its type (the first of that id, as the catalog lists them); the
        engines ask this tens of thousands of times a game."""
        out: dict[str, CardType] = {}
        for card in self.cards:
            out.setdefault(card.id, card)
        return out

    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def total(self) -> int:
        return sum(c.count for c in self.cards)

    def physical(self) -> tuple[tuple[int, CardType], ...]:
        """``(serial, card type)`` for every physical card, serials from 1."""
        out: list[tuple[int, CardType]] = []
        for card in self.cards:
            out.extend((len(out) + 1, card) for _ in range(card.count))
        return tuple((i + 1, c) for i, (_, c) in enumerate(out))


def _card(raw: dict[str, Any]) -> CardType:
    known = {"id", "name", "kind", "value", "count"}
    return CardType(
        id=str(raw["id"]),
        name=dict(raw.get("name") or {"en": raw["id"]}),
        kind=str(raw.get("kind", raw["id"])),
        value=int(raw.get("value", 0)),
        count=int(raw.get("count", 1)),
        extra={k: v for k, v in raw.items() if k not in known},
    )


def parse_catalog(data: dict[str, Any]) -> Catalog:
    """A catalog from its JSON document (also used for a deck's edited copy)."""
    return Catalog(game=str(data["game"]), cards=tuple(_card(c) for c in data["cards"]))


@cache
def catalog_document(game: str) -> dict[str, Any]:
    """The built-in catalog file of ``game`` (canonical engine name), as JSON.

    Raises ``FileNotFoundError`` or ``ModuleNotFoundError`` for a game without one.
    """
    data = resources.files(f"companion.games.{game}").joinpath("data", "cards.json")
    document: dict[str, Any] = json.loads(data.read_text("utf-8"))
    return document


@cache
def catalog(game: str) -> Catalog:
    """The built-in catalog of ``game`` (canonical engine name)."""
    return parse_catalog(catalog_document(game))
