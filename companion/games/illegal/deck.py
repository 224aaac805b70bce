"""Illegal: the cards, as data from the catalog ``companion/games/illegal/data/cards.json``.

Kinds, values, counts and the extra rules keys (``blocks``, ``loses``, ``solves``,
``skips``) of every card type come from there; the rules look them up by card id.
"""

from __future__ import annotations

from companion.games.cards import CardType, catalog


def card(card_id: str) -> CardType:
    """The catalog entry of ``card_id`` (KeyError for an unknown id)."""
    return catalog("illegal").by_id(card_id)


def card_ids() -> tuple[str, ...]:
    return catalog("illegal").ids()


def kind(card_id: str) -> str:
    return card(card_id).kind


def value(card_id: str) -> int:
    return card(card_id).value


def label(card_id: str) -> str:
    return card(card_id).label("en")


def is_business(card_id: str) -> bool:
    return kind(card_id) in ("legal_business", "illegal_business")
