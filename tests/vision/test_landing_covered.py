"""A card that lands unread and is covered by the next card before the watch would have
asked about it (issue 36, round 6: cond-tune glare #33, #36, #49, #50 were covered 0.4-0.6
s after they landed, while the watch still waited for their tags).

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.scenes import FPS, READ, card, landings, tag_at
from vision.landing import LandingWatch

FIRST, NEXT = 10, 26  # the unread card lands at frame 10; the next over it at 26 (0.53 s)


def run(frames: int, draw, tags) -> tuple[list[float], LandingWatch]:  # type: ignore[no-untyped-def]
    return landings(frames, draw, tags)


def two_cards(i: int, image: np.ndarray) -> None:
    if i >= FIRST:
        card(image, (100.0, 120.0), 20)
    if i >= NEXT - 4:  # slides in from the right over 4 frames, lies over most of it
        card(image, (110.0 + 10 * max(NEXT - i, 0), 125.0), 35, (225, 60))


def test_a_card_covered_by_the_next_before_its_tag_was_read_is_a_landing() -> None:
    """The next card's tag is read as it lands: that card is explained, the one under it,
    never read, is asked about at its own landing time."""
    quad = tag_at((110.0, 125.0))
    landed, watch = run(90, two_cards, lambda i: [READ, ("next", quad)] if i >= NEXT else [READ])
    assert len(landed) == 1
    assert landed[0] == pytest.approx(FIRST / FPS, abs=1.5 / FPS)
    # the next card's tag, read inside the covered card's box, is not that card read later
    assert watch.read_later == {}


def test_a_card_whose_tag_was_read_before_it_was_covered_is_no_landing() -> None:
    """The first card's tag is read on its unmoved cells while it waits (at frame 20), then
    the next card covers it: nothing to ask."""
    first, nxt = tag_at((100.0, 120.0)), tag_at((110.0, 125.0))

    def tags(i: int) -> list:  # type: ignore[type-arg]
        return [READ] + ([("first", first)] if 20 <= i < NEXT - 4 else []) + \
            ([("next", nxt)] if i >= NEXT else [])

    landed, _ = run(90, two_cards, tags)
    assert landed == []


def test_a_hand_passing_over_a_waiting_card_does_not_make_it_covered() -> None:
    """A hand sweeps over the unread card and leaves: the card is still there, whole, and
    is asked about once, at its landing time, as if nothing had passed."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= FIRST:
            card(image, (100.0, 120.0), 20)
        if 18 <= i < 26:  # a flat hand crossing the pile, right to left
            x = 260 - 25 * (i - 18)
            image[70:180, max(0, x - 50):max(0, x + 50)] = 160

    landed, _ = run(90, draw, lambda i: [READ])
    assert len(landed) == 1 and landed[0] == pytest.approx(FIRST / FPS, abs=1.5 / FPS)
