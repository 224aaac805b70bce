"""Reading the "your move" card off a served page (for tests without a browser)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

CARD = re.compile(r"<section class=\"yourmove([^\"]*)\"[^>]*data-moves='([^']*)'")


def card_moves(page: str) -> list[dict[str, Any]]:
    """The moves the page's first "your move" card offers (its ``data-moves``)."""
    found = CARD.search(page)
    assert found, "no your-move card on the page"
    moves: list[dict[str, Any]] = json.loads(html.unescape(found.group(2)))
    return moves


def offers(page: str, label: str) -> bool:
    """Whether the page's card offers (allows) a move labelled ``label``."""
    return any(m["label"] == label and m["allowed"] for m in card_moves(page))


def why_not(page: str, label: str) -> str:
    """Why the card's move ``label`` is not allowed now ("" if it is, or is absent)."""
    return next((m.get("why", "") for m in card_moves(page)
                 if m["label"] == label and not m["allowed"]), "")
