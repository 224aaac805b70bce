"""What is left in view of a card the next one covers (``vision.landrest.rest_of_card``)
on a zone drawn cell by cell (issue 36, round 10): tuning hands 7 and 10, a flat hand
resting on cards, then touched by the next card, was taken for such a part. Its rim's
cells, half hand and half card, spread its gray levels by ``PRINT``; inside it is flat. A
card's part is printed inside too (or has too small an inside to tell).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.landmemory import CELL, CHANGE, Zone
from vision.landrest import rest_of_card

SHAPE = (40, 60)
CARD = (174.0, 244.0)  # a card's sides, px (21.8 x 30.5 cells: the tuning videos')
LANDED = 1.0  # when the part settled
LATER = 1.5  # when what touches it moved last


def part_of_a_card() -> tuple[np.ndarray, np.ndarray]:
    """A card's part (8 x 7 cells of paper, 230, with a dark band of print, 90) on the
    table (70): its cells and the picture."""
    small = np.full(SHAPE, 70.0, np.float32)
    cells = np.zeros(SHAPE, bool)
    cells[10:18, 18:25] = True
    small[cells] = 230.0
    small[12:14, 18:25] = 90.0
    return cells, small


def judged(cells: np.ndarray, small: np.ndarray, later: np.ndarray) -> bool:
    """``rest_of_card`` on ``cells`` (settled at ``LANDED``) with ``later`` changed since
    (``LATER``), on a zone whose reference is the table."""
    zone = Zone((0, 0, SHAPE[1] * CELL, SHAPE[0] * CELL), np.full(SHAPE, 70.0, np.float32), 0.0)
    zone.still_since[cells] = LANDED
    zone.still_since[later] = LATER
    changed = np.abs(small - zone.ref) > CHANGE
    near = cv2.dilate(cells.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return rest_of_card(zone, cells, near, changed, small, CARD)


def test_a_part_covered_by_the_next_card_is_the_rest_of_a_card() -> None:
    cells, small = part_of_a_card()
    cover = np.zeros(SHAPE, bool)
    cover[8:20, 25:32] = True  # the next card, beside it (its part in view): 84 cells
    small[cover] = 225.0
    assert judged(cells, small, cover)


def hand_on_cards(printed: bool) -> tuple[np.ndarray, np.ndarray]:
    """A hand (flat, 160) resting on cards, 9 x 12 cells: its rim's cells half hand, half
    white paper or print (195 and 125, in turn); inside it, with ``printed``, a dark band
    (a card's print, not a hand). Its cells and the picture."""
    small = np.full(SHAPE, 70.0, np.float32)
    yy, xx = np.mgrid[:SHAPE[0], :SHAPE[1]]
    cells = ((xx - 24) / 6.0) ** 2 + ((yy - 16) / 4.5) ** 2 <= 1.0
    small[cells] = 160.0
    inside = cv2.erode(cells.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    rim = cells & ~inside
    small[rim] = np.where((xx + yy)[rim] % 2 == 0, 195.0, 125.0)
    if printed:
        small[inside & (np.abs(yy - 16) <= 1)] = 60.0
    return cells, small


def test_a_flat_hand_with_a_mixed_rim_is_no_part_of_a_card() -> None:
    cover = np.zeros(SHAPE, bool)
    cover[8:26, 31:38] = True  # the next card lands beside it
    cells, small = hand_on_cards(printed=False)
    small[cover] = 225.0
    assert float(np.std(small[cells])) >= 20.0  # the rim alone spreads it by PRINT
    assert not judged(cells, small, cover)
    cells, small = hand_on_cards(printed=True)
    small[cover] = 225.0
    assert judged(cells, small, cover)
