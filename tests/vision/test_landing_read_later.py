"""A tag read where an unread landing lay answers it only when it is that card (issue 36,
round 7: on a held-apart glare video the camera's read of a card that landed later, on top
of the unread one, answered the host's question about it; on tuning glare video 5 a card
that landed 2.8 s later, its tag inside the unread card's large box, was linked to it).

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock. U lands at frame 10 and is reported unread (~frame 30).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.scenes import FPS, READ, card, hand, landings, tag_at

U = (100.0, 120.0)


@pytest.mark.parametrize("offset", [(20, 15, 35), (25, 0, 20), (12, 25, 80)])
def test_a_card_landing_later_on_a_part_of_it_is_not_its_read(
        offset: tuple[int, int, int]) -> None:
    """The next card lands at frame 56-60 on a part of U (under 0.4 of U's cells: U's other
    cells lie still), its tag inside U's box: it is a new play, U's question stays."""
    nxt, angle = (U[0] + offset[0], U[1] + offset[1]), offset[2]

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, U, 20)
        if i >= 56:
            card(image, (nxt[0] + 10 * max(60 - i, 0), nxt[1]), angle, (225, 60))

    landed, watch = landings(100, draw, lambda i: [READ, ("next", tag_at(nxt))]
                             if i >= 60 else [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]
    assert watch.read_later == {}


@pytest.mark.parametrize("hand_on, lifts, frames", [
    # a hand rests on U after U was reported; the cells under the tag look as they did
    # at the report, so the tag read when it lifts is U's
    (40, 70, 110),
    # a hand lies on U since just after it landed (U is reported under it); what changed
    # lies inside U's box (a hand, not a card), so the tag read when it lifts is U's
    (12, 95, 130),
], ids=["a hand that came after the report", "a hand on it since it landed"])
def test_its_own_tag_read_when_a_hand_on_it_lifts_is_its_read(
        hand_on: int, lifts: int, frames: int) -> None:
    """U lands at frame 10 unread; a hand lies on it from ``hand_on`` to ``lifts``; U's
    tag reads from the frame after: it answers U's landing."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, U, 20)
        if hand_on <= i < lifts:
            hand(image, U)

    landed, watch = landings(frames, draw, lambda i: [READ, ("u", tag_at(U))]
                             if i > lifts else [READ])
    assert len(landed) == 1
    assert watch.read_later == {"u": landed[0]}
