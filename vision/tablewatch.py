"""Has the camera been knocked since the zones were drawn? (the table seen against a reference)

``TableWatch`` keeps a small, blurred gray copy of the frame the zones were drawn on (the
*reference*) and, every ``EVERY`` frames, registers the newest frame against it with
OpenCV's ECC (``findTransformECC``, a rigid motion: shift and turn), coarse to fine, from
no motion and from the last match, the zones left out (``KNOCK``: where they were drawn,
with room for a knock; and where the last match put them). The result is a ``Registration``:

- ``steady``: the table is where it was (within ``STILL_PX``);
- ``followed``: the camera moved but the table was found again (ECC's correlation at least
  ``MATCH``): the zones move with the table (``Registration.transform``);
- a match that turns or moves the table further than a knock does (``knock``:
  ``TURN_DEG``, ``SHIFT``) is no match: ECC locked on to a card in flight;
- ``moved``: the table was not found (a knocked camera looking elsewhere, a new scene):
  the zones are left as drawn and the host is told "the camera moved: draw the zones
  again" (``MOVED``).

Cards land, hands pass and lamps flicker between the reference and now; the match is on
the whole picture at 1/4 scale, where a few cards are a small share of it. While the
table is ``steady`` or ``followed`` the reference is renewed every ``RENEW`` checks (the
pile grows over a game), its motion carried over. Pure: no clock and no thread; the
pipeline calls it on its decode thread.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from vision.frames import Image, Point

__all__ = ["EVERY", "KNOCK", "MATCH", "MOVED", "Registration", "TableWatch", "displacement", "knock", "register", "unchanged",
           "table_mask", "warp_points"]

Matrix = npt.NDArray[np.float64]
State = Literal["steady", "followed", "moved"]

#: a frame is registered every this many frames (0.5 s at 30 fps)
EVERY = 15
#: the width (px) the frames are compared at
WIDTH = 320
#: the pyramid's levels (the coarsest at 1/2**(LEVELS-1) of ``WIDTH``)
LEVELS = 3
#: ECC's correlation a match needs (1 is identical pictures)
MATCH = 0.8
#: a table that moved less than this (px of the full frame) has not moved
STILL_PX = 1.5
#: checks in a row without a match before the table is lost
MISSES = 2
#: the reference is renewed every this many good checks
RENEW = 20
#: the zones are left out of the comparison with this margin (normalised) around them
MARGIN = 0.05
#: where the zones were drawn they are left out with this wider margin: a knock moves them
#: by up to about this much, and the pile's cards must not be compared with the bare table
#: (issue 36's knocks, 50-110 px of a 1280 px frame, were followed only while the pile held
#: few cards: the mask, which ECC applies to the *new* frame, left the moved pile in)
KNOCK = 0.1
#: ... unless less than this share of the frame would be left
MIN_TABLE = 0.25
#: a frame whose table (outside the zones) differs from the reference's by less than this
#: (mean gray levels, blurred) shows the same table in the same place: nothing moved,
#: whatever ECC says (a plain tablecloth gives ECC nothing to lock on to)
SAME = 6.0
#: a match that turns the table more than this (degrees) or moves it more than this share
#: of the frame's width is no knock (a knocked camera turns 1.5-3 degrees and moves 50-110
#: px of 1280): ECC locked on to something else, a card in flight over a plain table
#: (round 14: tuning glare 554, a 37-degree turn for half a second, the pile's zone taken
#: off the pile while a card landed there). It counts as no match
TURN_DEG = 10.0
SHIFT = 0.25
#: what the host page and the TV show when the table is lost
MOVED = "The camera moved: draw the zones again on the camera page."


@dataclass(frozen=True)
class Registration:
    """One check: ``state``, the motion reference -> now in full-frame pixels
    (``transform``, 3x3; identity when lost), how far it moved (``shift_px``, the largest
    displacement of the frame's corners; ``turn_deg``) and ECC's correlation (``score``)."""

    state: State
    transform: Matrix
    shift_px: float
    turn_deg: float
    score: float

    def to_json(self) -> dict[str, object]:
        return {"state": self.state, "shift_px": round(self.shift_px, 1),
                "turn_deg": round(self.turn_deg, 2), "score": round(self.score, 3),
                "sentence": MOVED if self.state == "moved" else None}


def _small(image: Image) -> Image:
    import cv2  # here: vision.pipeline imports without OpenCV

    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape[:2]
    small = cv2.resize(gray, (WIDTH, max(1, round(h * WIDTH / w))), interpolation=cv2.INTER_AREA)
    out: Image = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.0)
    return out


def table_mask(shape: tuple[int, int], zones: Sequence[Sequence[Point]],
               margin: float = MARGIN) -> Image:
    """255 where the table is compared: everywhere but the zones (grown by ``margin`` of
    the frame each way), where cards come and go."""
    h, w = shape
    mask = np.full((h, w), 255, np.uint8)
    for polygon in zones:
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        x0, x1 = int(max(0.0, min(xs) - margin) * w), int(min(1.0, max(xs) + margin) * w)
        y0, y1 = int(max(0.0, min(ys) - margin) * h), int(min(1.0, max(ys) + margin) * h)
        mask[y0:y1, x0:x1] = 0
    if mask.mean() < 255 * MIN_TABLE:  # zones cover the frame: compare the whole of it
        mask[:] = 255
    return mask


def _scaled(m: Matrix, scale: float) -> Matrix:
    """A motion at one scale seen at ``scale`` times it."""
    s = np.diag([scale, scale, 1.0])
    out: Matrix = s @ m @ np.linalg.inv(s)
    return out


def warp_points(m: Matrix, points: list[Point], size: tuple[int, int]) -> list[Point]:
    """Normalised points moved by ``m`` (a motion in pixels of a ``size`` frame)."""
    import cv2  # here: vision.pipeline imports without OpenCV
    w, h = size
    arr = np.array([(x * w, y * h) for x, y in points], np.float64).reshape(-1, 1, 2)
    out = cv2.perspectiveTransform(arr, m).reshape(-1, 2)
    return [(round(float(x) / w, 5), round(float(y) / h, 5)) for x, y in out]


def displacement(m: Matrix, size: tuple[int, int]) -> float:
    """The largest displacement (px) of a ``size`` frame's corners under ``m``."""
    import cv2  # here: vision.pipeline imports without OpenCV
    w, h = size
    corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(corners, m)
    return float(np.abs(moved - corners).reshape(-1, 2).max())


def knock(m: Matrix, size: tuple[int, int]) -> bool:
    """Whether the motion ``m`` (full-frame pixels) is one a knocked camera makes: turned
    by ``TURN_DEG`` at most and moved by ``SHIFT`` of the frame's width at most."""
    return abs(turn_deg(m)) <= TURN_DEG and displacement(m, size) <= SHIFT * size[0]


def turn_deg(m: Matrix) -> float:
    """How far the motion ``m`` turns the picture, degrees."""
    return math.degrees(math.atan2(m[1, 0], m[0, 0]))


def register(reference: Image, image: Image, mask: Image | None = None,
             start: Matrix | None = None) -> tuple[Matrix, float] | None:
    """The rigid motion reference -> image (small-image pixels) and ECC's correlation over
    ``mask``, coarse (a quarter, then half the size) to fine, from ``start`` (default no
    motion); None when ECC does not converge."""
    import cv2  # here: vision.pipeline imports without OpenCV
    warp: Image = np.eye(2, 3, dtype=np.float32)
    if start is not None:  # at the coarsest level: the shift a quarter as large
        warp = start[:2].astype(np.float32).copy()
        warp[:, 2] /= 2 ** (LEVELS - 1)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 80, 1e-4)
    if mask is None:
        mask = np.full(reference.shape[:2], 255, np.uint8)
    levels: list[tuple[Image, Image, Image]] = [(reference, image, mask)]
    for _ in range(LEVELS - 1):
        ref, img, m = levels[-1]
        small_mask = cv2.resize(m, (m.shape[1] // 2, m.shape[0] // 2),
                                interpolation=cv2.INTER_NEAREST)
        levels.append((cv2.pyrDown(ref), cv2.pyrDown(img), small_mask))
    score = 0.0
    try:
        for i, (ref, img, m) in enumerate(reversed(levels)):
            if i:
                warp[:, 2] *= 2
            score, warp = cv2.findTransformECC(ref, img, warp, cv2.MOTION_EUCLIDEAN, criteria,
                                               m, 1)
    except cv2.error:
        return None
    out: Matrix = np.vstack([warp.astype(np.float64), [0.0, 0.0, 1.0]])
    return out, float(score)


def unchanged(reference: Image, image: Image, mask: Image) -> bool:
    """Whether ``image`` shows the reference's table where ``mask`` compares it, unmoved:
    the mean difference there is under ``SAME`` gray levels (camera noise, light)."""
    where = mask > 0
    if not where.any():
        return False
    return float(np.abs(image[where] - reference[where]).mean()) < SAME


class TableWatch:
    """The reference frame and the table's motion since it; see the module docstring."""

    def __init__(self) -> None:
        self._reference: Image | None = None
        self._base: Matrix = np.eye(3)  # the drawing's frame -> the reference's frame
        self._size: tuple[int, int] = (0, 0)
        self._good = 0
        self._misses = 0
        self._delta: Matrix | None = None  # the last match: reference -> frame, small px
        self.last: Registration | None = None

    @property
    def size(self) -> tuple[int, int] | None:
        """The reference frame's width and height (None before the first frame)."""
        return self._size if self._reference is not None else None

    def reference(self, image: Image) -> None:
        """The zones were drawn on ``image``: it is the new reference, nothing moved."""
        self._reference = _small(image)
        self._size = (image.shape[1], image.shape[0])
        self._base = np.eye(3)
        self._good = self._misses = 0
        self._delta = None
        self.last = None

    def check(self, image: Image, zones: Sequence[Sequence[Point]] = ()) -> Registration:
        """Register ``image`` against the reference (taking it as the reference when there
        is none). ``zones``: the zones as drawn (normalised), left out of the comparison.
        The table is ``moved`` after ``MISSES`` checks in a row found no match (one miss
        may be an arm over the table): until then the last state holds."""
        if self._reference is None or (image.shape[1], image.shape[0]) != self._size:
            self.reference(image)
        assert self._reference is not None
        small = _small(image)
        scale = self._size[0] / small.shape[1]
        placed = [warp_points(self._base, list(z), self._size) for z in zones]
        if not placed:  # no zone drawn yet: nothing to follow, and none to draw again
            self.reference(image)
            self.last = Registration("steady", np.eye(3), 0.0, 0.0, 1.0)
            return self.last
        mask = table_mask(small.shape[:2], placed)
        found: tuple[Matrix, float] | None = (np.eye(3), 1.0)  # the same table, unmoved
        if not unchanged(self._reference, small, mask):  # a card in flight fools ECC less so
            found = self._register(small, placed, mask, scale)
        total = None if found is None else _scaled(found[0], scale) @ self._base
        if total is not None and not knock(total, self._size):
            found = None  # no knock moves a camera so: ECC matched something else
        if found is None or total is None or found[1] < MATCH:
            self._misses += 1
            score = 0.0 if found is None else found[1]
            if self._misses < MISSES and self.last is not None:
                return self.last
            self.last = Registration("moved", np.eye(3), 0.0, 0.0, score)
            return self.last
        self._misses = 0
        delta, score = found
        self._delta = delta
        shift = displacement(total, self._size)
        turn = turn_deg(total)
        state: State = "steady" if shift < STILL_PX else "followed"
        self.last = Registration(state, np.eye(3) if state == "steady" else total, shift,
                                 turn, score)
        self._good += 1
        if self._good % RENEW == 0:  # the pile grew: compare with today's table from now on
            self._reference, self._base = small, total.copy()
            self._delta = None
        return self.last

    def _register(self, small: Image, placed: list[list[Point]], mask: Image,
                  scale: float) -> tuple[Matrix, float] | None:
        """ECC from no motion, with the zones left out as drawn (``MARGIN``) and, when that
        finds no match, with room for a knock (``KNOCK``); and from the last match, with the
        zones also left out where it put them (``KNOCK`` around them too: cards lie up to
        half a card past the drawn pile; ECC's mask is the new frame's). The best
        correlation."""
        assert self._reference is not None
        tries = [register(self._reference, small, mask)]
        if tries[0] is None or tries[0][1] < MATCH:
            tries.append(register(self._reference, small,
                                  table_mask(small.shape[:2], placed, KNOCK)))
        if self._delta is not None and not np.allclose(self._delta, np.eye(3)):
            moved = [warp_points(_scaled(self._delta, scale), z, self._size) for z in placed]
            there = np.minimum(table_mask(small.shape[:2], placed, KNOCK),
                               table_mask(small.shape[:2], moved, KNOCK))
            tries.append(register(self._reference, small, there, self._delta))
        found = [t for t in tries if t is not None]
        return max(found, key=lambda t: t[1]) if found else None
