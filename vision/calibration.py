"""Which sticker size to print: from the calibration card as the table camera sees it.

The calibration card (``vision.tagsheet``) prints the deck's calibration code at every
size in ``CALIBRATION_SIZES`` (mm). Seen by the table camera, the largest codes are read
and the smallest are not; the read outlines, largest first, are the largest sizes, so
their sides in pixels over their sizes in mm give the camera's pixels a millimetre where
the card lies. A code is read reliably when its modules have ``RELIABLE_MODULE_PX``
pixels (``companion bench vision``, held-apart split: modules of 4-5 px are read in
100 % of frames, 3-4 px in 95.1 %); the advice is the smallest card size with that many.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from vision.frames import Corners

#: code sides (mm) printed on the calibration card
#: (40 and 50 for a camera that sees a whole table: see docs/vision.md)
CALIBRATION_SIZES: tuple[float, ...] = (6, 7, 8, 9, 10, 12, 14, 16, 20, 25, 30, 40, 50)
#: modules a side of a tag (version 1)
MODULES = 21
#: pixels a module for a reliable read (see the module docstring)
RELIABLE_MODULE_PX = 4.0
#: the sizes the advice rounds up to (mm): the card's, then larger ones
ADVICE_SIZES: tuple[float, ...] = (*CALIBRATION_SIZES, 60)


@dataclass(frozen=True)
class SizeAdvice:
    """What the calibration card says about this camera at the card's place."""

    px_per_mm: float
    size_mm: float | None  # None: no size up to 60 mm is enough (move the camera closer)
    read: int  # calibration codes read

    def sentence(self) -> str:
        if self.size_mm is None:
            return (f"the camera sees {self.px_per_mm:.1f} px a mm here: even 60 mm codes are "
                    "too small to read reliably; mount the camera lower or use a higher resolution")
        return (f"the camera sees {self.px_per_mm:.1f} px a mm here: print the stickers with "
                f"--size {self.size_mm:g} (codes of {RELIABLE_MODULE_PX:g} px modules or more)")


def side_px(corners: Corners) -> float:
    """The mean side of an outline, in pixels."""
    n = len(corners)
    return sum(math.dist(corners[i], corners[(i + 1) % n]) for i in range(n)) / n


def advise(outlines: Sequence[Corners], sizes: Sequence[float] = CALIBRATION_SIZES
           ) -> SizeAdvice | None:
    """The advice from the outlines of the calibration codes read in one picture.

    None when none was read or when more were read than the card has (two cards in view).
    """
    if not outlines or len(outlines) > len(sizes):
        return None
    sides = sorted((side_px(q) for q in outlines), reverse=True)
    ratios = [s / mm for s, mm in zip(sides, sorted(sizes, reverse=True), strict=False)]
    px_per_mm = statistics.median(ratios)
    needed = RELIABLE_MODULE_PX * MODULES / px_per_mm
    size = next((s for s in ADVICE_SIZES if s >= needed), None)
    return SizeAdvice(round(px_per_mm, 2), size, len(outlines))
