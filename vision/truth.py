"""The synthetic table's ground truth of each tag in a frame (``vision.synthetic``): where
its code lies, how much of it is visible (not covered by a later card or a hand, inside
the frame) and how much a lamp's reflection washes out. The benches count readable cards
from it (``bench/vision_readable.py``, ``bench/vision_hardset.py``). Pure: corners,
polygons and masks in, figures out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import Corners, Image, Point


@dataclass(frozen=True)
class TagTruth:
    """Where a tag is in a frame: its code corners in pixels and the share of it visible
    (not covered by a later card or a hand, inside the frame). ``washed``: the share of it
    in a lamp's reflection's washed-out core (the pixels ``Renderer.glare`` paints pure
    white, whatever was under them: ``Renderer.glare_core``); ``glared``: its centre lies
    there."""

    payload: str
    corners: Corners
    visible: float
    landed: bool
    zone: str | None = None
    washed: float = 0.0
    glared: bool = False

    @property
    def fully_visible(self) -> bool:
        """Landed, inside the frame, not covered by another card or a hand, and its centre
        not in a reflection's washed-out core (a camera could read it)."""
        return self.landed and self.visible >= 0.999 and not self.glared


#: one tag as placed: its payload, code corners in pixels, whether its card has landed,
#: and the zone it was played to
Placed = tuple[str, Sequence[Point], bool, "str | None"]


def tag_truths(tags: Sequence[Placed], cards: Sequence[np.ndarray], hands: Sequence[np.ndarray],
               core: Image | None, size: tuple[int, int]) -> tuple[TagTruth, ...]:
    """The truth of each of ``tags``, bottom first: ``cards[i]`` is the outline of tag
    ``i``'s card (the cards above it cover it), ``hands`` the outlines of hands over the
    table, ``core`` the reflections' washed-out pixels (``Renderer.glare_core``), ``size``
    the frame's (width, height)."""
    out = []
    for i, (payload, corners, landed, zone) in enumerate(tags):
        tag = np.array(corners)
        visible = _visible_share(tag, [*cards[i + 1:], *hands], size)
        washed, glared = (0.0, False) if core is None else _washed(tag, core)
        out.append(TagTruth(payload, tuple(corners), visible, landed, zone, washed, glared))
    return tuple(out)


def _visible_share(tag: np.ndarray, covers: Sequence[np.ndarray], size: tuple[int, int]) -> float:
    mask, x0, y0, total = _tag_mask(tag)
    if total == 0:
        return 0.0
    for quad in covers:
        cv2.fillPoly(mask, [np.round(quad - (x0, y0)).astype(np.int32)], 0)
    width, height = size
    inside = mask[max(0, -y0) : height - y0, max(0, -x0) : width - x0]
    return int(inside.sum()) / total


def _tag_mask(tag: np.ndarray) -> tuple[np.ndarray, int, int, int]:
    """The code ``tag`` (corners in pixels) filled in a mask of its bounding box (one pixel
    around), the box's top-left corner and the code's pixel count."""
    x0, y0 = np.floor(tag.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(tag.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(tag - (x0, y0)).astype(np.int32)], 1)
    return mask, int(x0), int(y0), int(mask.sum())


def _washed(tag: np.ndarray, core: Image) -> tuple[float, bool]:
    """The share of the code ``tag`` (corners in pixels) inside the washed-out ``core``
    (``Renderer.glare_core``), and whether its centre lies there."""
    h, w = core.shape[:2]
    cx, cy = (int(round(float(v))) for v in tag.mean(axis=0))
    centre = 0 <= cx < w and 0 <= cy < h and bool(core[cy, cx])
    mask, x0, y0, total = _tag_mask(tag)
    if total == 0:
        return 0.0, centre
    x1, y1 = x0 + mask.shape[1], y0 + mask.shape[0]
    a0, b0 = max(0, x0), max(0, y0)
    a1, b1 = min(w, x1), min(h, y1)
    if a1 <= a0 or b1 <= b0:
        return 0.0, centre
    inside = mask[b0 - y0 : b1 - y0, a0 - x0 : a1 - x0] & core[b0:b1, a0:a1]
    return int(inside.sum()) / total, centre
