"""Whether a settled change on the pile is **the light**, not a card (``vision.landing``,
step 5): a lamp's reflection appearing, moving or switched off.

A group is the light when ``LIGHT`` of it, and of the cells newly clipped to white in its
box, is clipped since the reference or was clipped in it, and ``LIT`` of it brightened or
was clipped (a reflection only brightens what lies under it: a card's print darkens what
it covers). Not one that stayed where it was and grew by less than it was (a white card at
its rim: tuning glare 22), nor a waiting card's unmoved cells (``landmemory.lay_first``,
checked by the caller). The light is taken into the reference: never a landing.

**Clipped, not white** (round 12): a reflection saturates the sensor, so its cells average
``vision.frames.CLIPPED`` (every pixel 255). A white card's paper, grain and all, averages
245-254 a cell: as white to the eye (``landmemory.WASHED``), but by that line a white card
landing on darker cards brightened every cell under it and "washed out" a third of them,
and was taken for a reflection appearing (tuning glare 281 #94, 297 #103, 488 #110: never
asked about).

Pure: arrays in, the zone's reference changed; no clock.
"""

from __future__ import annotations

import numpy as np

from vision.frames import CLIPPED, Image
from vision.landmemory import CHANGE, Zone

__all__ = ["LIGHT", "LIT", "is_light"]

#: a group is the light, not a card, when this share of it and of the cells newly clipped
#: in its box is clipped since the reference or was clipped in it (a lamp's
#: reflection appearing, moving or gone) ...
LIGHT = 0.25
#: ... and this share of its cells brightened or were clipped (a reflection only ever
#: brightens what lies under it: a card's print darkens what it covers)
LIT = 0.9


def is_light(zone: Zone, cells: Image, box: Image, small: Image,
             card_sized: bool = False) -> bool:
    """Whether a settled group (``cells``; ``box``: its box's cells) is the light, not a
    card: a lamp's reflection that appeared, moved or went (cells washed out to white that
    were not, or were and are not), where what changed only brightened. Taken into the
    reference (never a landing); a card that lands under a reflection already there
    changes the cells beside its washed-out core, not the core. With ``card_sized`` (the
    group is), not one whose box both whitened and darkened cells of the core (``LIGHT``
    of each other at least): a card that landed in the reflection, its paper washed out
    beside the core and its print darkening the core (tuning glare 205 #107: 81 cells
    newly white, 45 of the core darker; 242 #83: 69 and 51, most of those of its print
    settling after its group). Only a reflection that moves does both, and a lamp is
    seldom moved during a game: one card-sized is asked about (one tap)."""
    import cv2

    was = zone.ref >= CLIPPED
    now = small >= CLIPPED
    # a cell crosses the clipped line only when it changed (``CHANGE``), not when the
    # sensor's noise moves it a few levels (tuning glare 242 #83: 61 cells of the core
    # in a white card's box "no longer white" that had barely changed, so the reflection
    # seemed to move, and the card was taken for it)
    moved = np.abs(small - zone.ref) > CHANGE
    newly = box & now & ~was & moved  # washed out since the reference: in the box
    gone = cells & was & ~now & moved  # washed out in the reference, not now
    lost = box & was & ~now & moved  # the core no longer white, in its box
    if np.count_nonzero(lost) < LIGHT * np.count_nonzero(newly):
        # it stayed where it was (one that moves loses about as much as it gains) and
        # grew by less than it was: white at its rim is a white card landed there
        # (tuning glare 22), not a lamp switched on (no core there, or a crumb of one)
        core = was & now
        _, labels = cv2.connectedComponents((newly | core).astype(np.uint8), connectivity=8)
        for i in np.unique(labels[core]):
            part = labels == i
            if np.count_nonzero(newly & part) < np.count_nonzero(core & part):
                newly &= ~part
    if card_sized:
        whiter, darker = int(np.count_nonzero(newly)), int(np.count_nonzero(lost))
        if whiter and darker >= LIGHT * whiter and whiter >= LIGHT * darker:
            return False
    n = int(np.count_nonzero(cells))
    white = int(np.count_nonzero(newly & ~cells))
    lit = int(np.count_nonzero(cells & ((small > zone.ref) | was)))
    if (int(np.count_nonzero(newly | gone)) < LIGHT * (n + white)
            or lit < LIT * n):
        return False
    zone.ref[cells | newly] = small[cells | newly]
    return True
