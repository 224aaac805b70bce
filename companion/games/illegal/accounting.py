"""Illegal: Day of Accounting (one hand's score) and the match across hands.

A seat scores its open businesses, minus every paranoia card in its hand (25,000 /
50,000 / 100,000), minus the highest business card in its hand. Scores need every hand
revealed (``SeatState.revealed``); ``working`` shows the sum for the dashboard.
"""

from __future__ import annotations

from companion.games.illegal.deck import is_business, kind, value
from companion.games.illegal.state import SeatState, State


def working(seat: SeatState) -> dict[str, int]:
    """The parts of one seat's score: ``open``, ``paranoia``, ``highest_in_hand``, ``total``."""
    hand = seat.revealed or ()
    open_total = sum(value(b) for b in seat.businesses)
    paranoia = sum(value(c) for c in hand if kind(c) == "paranoia")
    highest = max((value(c) for c in hand if is_business(c)), default=0)
    return {
        "open": open_total,
        "paranoia": paranoia,
        "highest_in_hand": highest,
        "total": open_total - paranoia - highest,
    }


def hand_scores(state: State) -> tuple[int, ...]:
    """Every seat's score for the hand just ended (all hands must be revealed)."""
    return tuple(working(s)["total"] for s in state.seats)


def best(values: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest value (ties share)."""
    top = max(values)
    return tuple(i for i, v in enumerate(values) if v == top)


def settle(state: State, scores: tuple[int, ...]) -> tuple[tuple[int, ...], bool, tuple[int, ...]]:
    """``(new totals, match over, winners)`` after a hand scored ``scores``.

    A single hand (``match_to`` 0) is won by its best score. In a match the first to
    reach ``match_to`` wins; when several reach it in the same hand, the highest total
    wins (ties share). Before that, ``winners`` are the hand's best scores.
    """
    old = state.totals or tuple(0 for _ in scores)
    totals = tuple(a + b for a, b in zip(old, scores, strict=True))
    target = state.options.match_to
    if target <= 0:
        return totals, True, best(scores)
    if max(totals) >= target:
        return totals, True, best(totals)
    return totals, False, best(scores)
