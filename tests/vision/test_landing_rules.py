"""Round 7's landing-watch rules that had no small test of their own (issue 36, round 8):
each scene here fails with its rule switched off.

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.scenes import READ, H, W, card, landings
from vision.landing import LandingWatch


def test_after_a_knock_the_picture_starts_again_from_a_still_frame() -> None:
    """Two cards lie on the pile from the start. At frame 20 the camera is knocked and
    settles over the next frames (12, 14, 16, then 17 px): the first frame moves most of
    the zone (``KNOCK``), the next ones only a little. The picture starts again from the
    first still frame (``QUIET``), not from one while the camera still settles, whose
    cards' edges, shifted a few pixels since, would settle as a new card."""
    steps = [12, 14, 16, 17]

    def draw(i: int, image: np.ndarray) -> None:
        card(image, (100.0, 120.0), 20)
        card(image, (200.0, 130.0), -10, (225, 60))
        if i >= 20:
            dx = steps[min(i - 20, len(steps) - 1)]
            image[:] = np.roll(image, (dx // 2, dx), (0, 1))

    landed, _ = landings(120, draw, lambda i: [READ])
    assert landed == []


def test_a_few_cells_at_a_reflections_edge_are_no_card() -> None:
    """A large reflection lies on the pile from the start (cards of 80 px tags: a card is
    160 x 224 px). At frame 20 something small and printed settles at its top edge and
    at its bottom edge: joined across the washed-out core (a card's two ends either side
    of a reflection are one card), card-sized with the core counted as their own, and
    printed, but only 0.045 of a card is seen to change (``SEEN``: 0.06): no card."""
    flat = np.zeros((H, W), np.float32)
    cv2.ellipse(flat, (160, 120), (60, 86), 0, 0, 360, 1.0, -1)
    soft = cv2.GaussianBlur(flat, (0, 0), 10.0)
    spot = (np.clip(soft * 1.6, 0, 1) * 255).astype(np.uint8)
    rows = np.nonzero(spot[:, 160] >= 250)[0]
    top, bottom = -(-int(rows.min()) // 8) * 8, (int(rows.max()) + 1) // 8 * 8

    def draw(i: int, image: np.ndarray) -> None:
        image[:] = np.maximum(image, spot)
        if i >= 20:  # one cell high, along the core's edge, at the top and the bottom
            for x in range(96, 224, 8):
                image[top - 8:top, x:x + 8] = 30 if (x // 8) % 2 else 150
                image[bottom:bottom + 8, x:x + 8] = 30 if (x // 8) % 2 else 150

    landed, _ = landings(90, draw, lambda i: [], LandingWatch(tag_px=80))
    assert landed == []
