"""Glare cards the landing watch never asked about (issue 36, round 8: cond-tune glare 20,
22, 25 of the videos 10-30, never tuned on).

- glare 20: a card at the pile's edge, its middle under a reflection: the cells seen to
  change are its rim, whose centre lay outside the pile;
- glare 22: the first card, white on a dark table, landing at a reflection's rim: its
  stock turned white next to the reflection's core, and it was taken for the light;
- found while drawing glare 25 (the next card's tag, read where the unread card waited,
  was taken for the waiting card's own): a tag first read on a frame on which the groups
  are judged was not yet known to lie on another card, and explained the card under it.
  (Glare 25's own path, ``read_pending`` on a cell that looked as before, white on white,
  has no drawn scene here: none tried reproduced it.)

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes import FPS, READ, H, W, card, landings
from vision.landing import JUDGE_EVERY


def spot(image: np.ndarray, centre: tuple[float, float], radius: float,
         tall: float = 1.0) -> None:
    """A lamp's reflection as ``vision.synthetic`` paints one: a brightness floor, white at
    its centre, over whatever lies there (the brighter of the two); ``tall`` times as high
    as wide."""
    flat = np.zeros((H, W), np.float32)
    cv2.ellipse(flat, (int(centre[0]), int(centre[1])), (int(radius), int(radius * tall)),
                0, 0, 360, 1.0, -1)
    soft = cv2.GaussianBlur(flat, (0, 0), radius / 6)
    image[:] = np.maximum(image, (np.clip(soft * 1.6, 0, 1) * 255).astype(np.uint8))


def test_a_card_whose_middle_lies_under_a_reflection_at_the_piles_edge_is_a_landing() -> None:
    """The pile starts at x = 32; the card's centre lies inside (x = 34), a reflection
    there from the start washes out its middle and right: the centre of the cells seen to
    change lies left of the pile's edge, that of the card with its washed-out cells not."""
    centre = (34.0, 120.0)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, centre, 0)
        spot(image, (48.0, 120.0), 24.0, 1.3)

    landed, _ = landings(70, draw, lambda i: [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]


def test_a_white_card_at_a_reflections_rim_is_no_light() -> None:
    """A reflection lies on the pile from the start; a white card (paper 250: washed out
    by the threshold) lands with one end at its rim. Cells turn white next to the
    reflection's core, which stays where it was: a card, asked about."""
    def draw(i: int, image: np.ndarray) -> None:
        spot(image, (150.0, 120.0), 34.0)
        if i >= 10:
            card(image, (205.0, 120.0), 90, (250, 90))

    landed, _ = landings(70, draw, lambda i: [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]


def test_a_tag_first_read_on_a_judging_frame_is_known_as_the_next_cards() -> None:
    """U lands unread (frame 10) and waits; the next card lands on a part of it (frames
    19-22) and its tag is first read on frame 24, a frame on which the groups are judged,
    inside U's box. Where that tag lies is known before U is judged (``on_another``: its
    cells settled after U's): U is asked about at its own time, and the next card's read
    is dated to its own landing, not to U's."""
    u, nxt = (100.0, 120.0), (118.0, 150.0)
    quad = [(nxt[0] - 12, nxt[1] - 12), (nxt[0] + 12, nxt[1] - 12),
            (nxt[0] + 12, nxt[1] + 12), (nxt[0] - 12, nxt[1] + 12)]

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, u, 0)
        if i >= 19:  # slides in from below over 3 frames
            at = (nxt[0], nxt[1] + 12 * max(22 - i, 0))
            card(image, at, 0, (235, 235))
            x, y = int(at[0]), int(at[1])
            image[y - 12:y + 12, x - 12:x + 12] = 30  # its tag, a dark square ...
            image[y - 4:y + 4, x - 4:x + 4] = 235  # ... with its paper in the middle

    assert 24 % JUDGE_EVERY == 0  # frame i is the watch's i-th look at the zone
    landed, watch = landings(100, draw, lambda i: [READ, ("next", quad)] if i >= 24 else [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]
    assert watch.settled_reads["next"] == pytest.approx(22 / FPS, abs=1.5 / FPS)
