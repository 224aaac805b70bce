"""The light (``vision.landlight.is_light``) on a zone drawn cell by cell (issue 36, round
9): a white card landed at a reflection's core, its paper newly white beside the core.

- tuning glare 242 #83: the core's cells under the card hovered at the washed-out line
  (246 in the reference, 243 now: the sensor's noise), and counted as "no longer white",
  so the reflection seemed to have moved and the card was taken for it. A cell crosses the
  line only when it changed (``CHANGE``);
- tuning glare 205 #107: the card's print really darkened a part of the core while its
  paper whitened cells beside it. A card-sized change that does both is a card; only a
  reflection that moves does both, and one that is not card-sized still is the light.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.landlight import is_light
from vision.landmemory import CELL, Zone

SHAPE = (40, 60)


def white_card_at_the_core(dip: float, paper: float = 255.0
                           ) -> tuple[Zone, np.ndarray, np.ndarray, np.ndarray]:
    """A reflection's core (255, clipped) on the table (70); a white card (``paper``:
    clipped too where the reflection's fringe lies on it) landed over its right edge, its
    print (120) outside the core; the core's cells, every other one, ``dip`` levels darker
    now. The zone, the group (the card's cells beside the core), its box and the picture
    now."""
    ref = np.full(SHAPE, 70.0, np.float32)
    yy, xx = np.mgrid[:SHAPE[0], :SHAPE[1]]
    core = (xx - 24) ** 2 + (yy - 20) ** 2 <= 12 ** 2
    ref[core] = 255.0
    small = ref.copy()
    card = (xx >= 30) & (xx < 42) & (yy >= 8) & (yy < 26)
    small[card] = paper
    small[card & ~core & (yy >= 14) & (yy < 20) & (xx >= 37) & (xx < 41)] = 120.0
    small[core & card] = 255.0  # washed out under the reflection, as the table was
    small[core & ((xx + yy) % 2 == 0)] -= dip
    zone = Zone((0, 0, SHAPE[1] * CELL, SHAPE[0] * CELL), ref, 0.0)
    box = (xx >= 29) & (xx < 43) & (yy >= 7) & (yy < 27)
    return zone, card & ~core, box, small


@pytest.mark.parametrize("card_sized", [False, True])
def test_noise_at_the_washed_out_line_does_not_move_a_reflection(card_sized: bool) -> None:
    zone, cells, box, small = white_card_at_the_core(3.0)
    assert not is_light(zone, cells, box, small, card_sized)


def test_a_card_sized_change_that_whitens_and_darkens_the_core_is_a_card() -> None:
    zone, cells, box, small = white_card_at_the_core(40.0)
    assert not is_light(zone, cells, box, small, True)
    zone, cells, box, small = white_card_at_the_core(40.0)
    assert is_light(zone, cells, box, small, False)  # not card-sized: a reflection moved


def test_a_white_cards_paper_is_not_the_light() -> None:
    """Round 12: a white card's paper, grain and all, averages 245-254 on a cell, as
    white as a reflection by the old line (245) though nothing in it is clipped. A white
    card landed on darker cards brightened every cell under it and "whitened" a third of
    them: taken for a reflection appearing, and never asked about (tuning glare 281 #94,
    297 #103, 488 #110). The light is what clips the picture (``vision.frames.CLIPPED``)."""
    ref = np.full(SHAPE, 70.0, np.float32)
    yy, xx = np.mgrid[:SHAPE[0], :SHAPE[1]]
    small = ref.copy()
    card = (xx >= 30) & (xx < 42) & (yy >= 8) & (yy < 26)
    small[card] = 250.0
    small[card & (yy >= 14) & (yy < 20) & (xx >= 33) & (xx < 39)] = 120.0
    zone = Zone((0, 0, SHAPE[1] * CELL, SHAPE[0] * CELL), ref, 0.0)
    box = (xx >= 29) & (xx < 43) & (yy >= 7) & (yy < 27)
    assert not is_light(zone, card, box, small, False)
    small[card & ~((yy >= 14) & (yy < 20) & (xx >= 33) & (xx < 39))] = 255.0
    assert is_light(zone, card, box, small, False)  # clipped: a reflection appearing
