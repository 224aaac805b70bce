"""Which card a tag read belongs to, and a card whose edges never lie still (issue 36,
round 7: cond-tune glare #36, #80, #110 and #21 were never asked about).

- #36, #80: the next card landed on a part of the unread one while it waited, and that
  card's tag, read inside the unread card's box, "explained" it;
- #110: the card it slid over was read until it covered that card's tag, and that read
  "explained" it;
- #21: the edges of its print flickered with each frame's blur, so something always
  "moved" beside it and on it, and it waited for ever.

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes import FPS, READ, TAG, card, landings, tag_at
from vision.landing import CARD_SIDES

U = (100.0, 120.0)  # the unread card: lands at frame 10, its tag never read


def test_the_tag_of_a_card_that_landed_on_the_waiting_one_does_not_explain_it() -> None:
    """The next card lands on a part of U 0.4 s after it (frame 22-26), its tag read inside
    U's box: that read is the next card's (its cells settled after U's), U is asked
    about at its own time, and the next card is never taken for U's read later."""
    nxt = (U[0] + 20, U[1] + 15)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, U, 20)
        if i >= 22:  # slides in from the right over 4 frames
            card(image, (nxt[0] + 10 * max(26 - i, 0), nxt[1]), 35, (225, 60))

    landed, watch = landings(90, draw, lambda i: [READ, ("next", tag_at(nxt))]
                             if i >= 26 else [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]
    assert watch.read_later == {}


def test_the_tag_of_the_card_it_slid_over_does_not_explain_it() -> None:
    """The old card's tag is read on every frame until U, sliding over it, covers it (frame
    28, within ``RECENT_S`` of U's landing): that read is the old card's (its cells lay
    still long before U's), so U is asked about."""
    old, at = (100.0, 120.0), (106.0, 116.0)

    def draw(i: int, image: np.ndarray) -> None:
        card(image, old, 20)
        if i >= 26:
            card(image, (at[0] + 12 * max(30 - i, 0), at[1]), 0, (225, 60))

    landed, _ = landings(80, draw, lambda i: [READ, ("old", tag_at(old))]
                         if i <= 28 else [READ])
    assert landed == [pytest.approx(29 / FPS, abs=1.5 / FPS)]


def test_the_tag_of_a_card_read_there_before_it_landed_does_not_explain_it() -> None:
    """An old card lands at frame 5, its tag read from frame 6 on, where it lies. U lands
    at frame 30 over the lower part of the old card and most of its tag's cells (the old
    tag still read: the cells under a tag are not all of what a decoder needs), so the
    old tag lies in U's box and its cells settled with U. A tag first read ``SAME_S``
    before a group landed, where it still lies, is its card's, which lay there before:
    U is asked about (round 13: tuning glare 346 #99, whose group took in cells of the
    tag of the card before it, read 0.33 s before it landed)."""
    old = (110.0, 110.0)
    at = (old[0] + 14, old[1] + 30)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 5:
            card(image, old, 0)
        if i >= 30:
            card(image, at, 0, (170, 40))

    landed, _ = landings(90, draw, lambda i: [READ, ("old", tag_at(old))]
                         if i >= 6 else [READ])
    assert landed == [pytest.approx(30 / FPS, abs=1.5 / FPS)]


def flickering(i: int, image: np.ndarray) -> None:
    """U from frame 10, the edges of its print moving 2 px on every other frame from
    frame 14 (a lamp's reflection and each frame's blur): they never lie still."""
    if i < 10:
        return
    short, long = TAG * CARD_SIDES[0], TAG * CARD_SIDES[1]
    cv2.fillPoly(image, [cv2.boxPoints((U, (short, long), 20)).astype(np.int32)], 235)
    d = 2 * (i % 2) if i >= 14 else 0
    inner = ((U[0] + d, U[1] + d), (short * 0.6, long * 0.35), 20)
    cv2.fillPoly(image, [cv2.boxPoints(inner).astype(np.int32)], 90)


def test_a_card_whose_print_flickers_is_asked_about_after_stir_s() -> None:
    landed, _ = landings(90, flickering, lambda i: [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]
