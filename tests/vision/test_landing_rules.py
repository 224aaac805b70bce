"""Round 7's landing-watch rules that had no small test of their own (issue 36, round 8):
each scene here fails with its rule switched off.

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import numpy as np

from tests.vision.scenes import READ, card, landings


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
