"""A card waiting for its tag is its own (issue 36, round 9: tuning glare 83, a video no
rule had been tuned on).

On glare 83 a large card landed unread under the lamp; the next, a smaller card, landed
on a part of it and waited for its tag in turn (something lay on it). When the first was
reported, the watch took in with it "its other parts": whatever changed in its box,
the waiting card too. That card's cells then looked as the reference did, and it was
never asked about. A card reported now takes in no other waiting card
(``landmemory.waiting_else``).

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes import FPS, READ, TAG, card, landings
from vision.landing import CARD_SIDES

FIRST = 10  # the large card lands unread
NEXT = 18  # the smaller one lands on its lower part, unread, before the first was judged
TIP = 24  # a fingertip comes to rest on the smaller card (its tag may yet be read)


def large(image: np.ndarray, centre: tuple[float, float], scale: float) -> None:
    """A card ``scale`` times the scene's card (cards of one deck are printed alike, but
    the synthetic videos' cards differ in size as they lie nearer or further)."""
    short, long = TAG * CARD_SIDES[0] * scale, TAG * CARD_SIDES[1] * scale
    cv2.fillPoly(image, [cv2.boxPoints((centre, (short, long), 0)).astype(np.int32)], 235)
    cv2.fillPoly(image, [cv2.boxPoints((centre, (short * 0.6, long * 0.35), 0))
                         .astype(np.int32)], 90)


@pytest.mark.parametrize("scale", [1.3, 1.4])
def test_a_card_reported_takes_in_no_other_card_waiting_in_its_box(scale: float) -> None:
    """The large card is held while the smaller one lies in its box (``HOLD_S``); the
    smaller one is held by the fingertip on it. Both are asked about, each at its own
    landing time."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= FIRST:
            large(image, (110.0, 120.0), scale)
        if i >= NEXT:
            card(image, (110.0, 135.0), 30, (225, 60))
        if i >= TIP:
            cv2.circle(image, (120, 150), 6, 160, -1)

    landed, _ = landings(200, draw, lambda i: [READ])
    assert sorted(landed) == [pytest.approx(FIRST / FPS, abs=1.5 / FPS),
                              pytest.approx(NEXT / FPS, abs=1.5 / FPS)]
