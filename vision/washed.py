"""A code one of whose three finder patterns a lamp's glare washed out (issue 36).

A QR code is found by its three finder patterns (the nested squares in three corners).
Where a lamp's reflection washes one of them out to white, no decoder locates the code,
even when its error correction could still read the modules left in view (level M: about
15 % of them wrong). The two finders left in view tell where the third one lies: a
version 1 code's finder centres are ``SIDE`` modules apart along a side and ``SIDE`` x
sqrt 2 across the diagonal, so the third lies a side's length from one of the two, square
to the line between them (a side), or off the middle of that line (a diagonal).
``read_washed`` finds the finders in a crop (``finders``: a dark square in a light one in a
dark one), draws the missing finder where a candidate place is washed out (``WASHED`` of it
at ``WHITE`` at least: only where glare hides what is there, never over print), and hands
the picture to the reader. A wrong guess reads nothing (the code's error correction
and format bits check it); a read is a read.

``glare_spots`` finds where to look in a frame: washed-out blobs at least a few modules
across. Pure: pictures in, codes out; no clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from vision.calibration import MODULES
from vision.frames import Corners, Detection, Image
from vision.quads import point_in_polygon

#: a pixel this bright is washed out (a lamp's reflection): nothing of a code shows there
WHITE = 245
#: a candidate place for the missing finder is taken only when this share of it is washed
#: out (the finder is there, unseen; a place with print in view holds no hidden finder)
WASHED = 0.2
#: modules between the centres of two finders along a side of a version 1 code (a finder
#: is 7 modules)
SIDE = MODULES - 7
#: how far, in modules, two finders' centres may lie from ``SIDE`` (a tilted card's
#: perspective; the module size is measured on the finders themselves)
SLACK = 3.0
#: a finder's outer square over its inner one, by area (49 / 9), and how far off it may be
RATIO, RATIO_SLACK = 49 / 9, 2.2
#: at most this many places of a missing finder tried on one crop (each a read)
MAX_TRIES = 4
#: the part of a crop read around a code's corners: this many modules beyond the centres
#: of its finders (half a finder, 3.5, and the quiet zone, 4)
MARGIN = 8
#: a glare spot's blob must be at least this many pixels across (in the frame), and the
#: crop around it reaches this many pixels beyond it (a code beside the spot)
SPOT_PX, REACH_PX = 12, 110
#: glare spots are found on the frame shrunk by this factor (cheap; spots are large)
SHRINK = 4

Finder = tuple[np.ndarray, float]  # centre (x, y) px, module px
Reader = Callable[[Image], list[Detection]]


def finders(gray: Image) -> list[Finder]:
    """The finder patterns in ``gray``: a dark square holding a light one holding a dark
    one (contours three deep), square, the outer about ``RATIO`` times the inner."""
    import cv2

    dark = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                 cv2.THRESH_BINARY_INV, 31, 10)
    contours, hierarchy = cv2.findContours(dark, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    tree = hierarchy[0]
    found: list[Finder] = []
    for i, outer in enumerate(contours):
        child = tree[i][2]
        inner = tree[child][2] if child >= 0 else -1
        if inner < 0:
            continue
        a_outer, a_inner = cv2.contourArea(outer), cv2.contourArea(contours[inner])
        if a_outer < 40 or a_inner <= 0 or abs(a_outer / a_inner - RATIO) > RATIO_SLACK:
            continue
        (cx, cy), (w, h), _ = cv2.minAreaRect(outer)
        if min(w, h) <= 0 or max(w, h) / min(w, h) > 1.6:
            continue
        found.append((np.array([cx, cy]), (w + h) / 2 / 7))
    out: list[Finder] = []  # one per place (a contour and its parent can both pass)
    for f in sorted(found, key=lambda f: -f[1]):
        if all(np.linalg.norm(f[0] - g[0]) > 3 * g[1] for g in out):
            out.append(f)
    return out


def third_places(a: Finder, b: Finder) -> Iterator[tuple[np.ndarray, float, np.ndarray]]:
    """Where the third finder of a code with finders ``a`` and ``b`` may lie: its centre,
    the module size and the direction of its sides (a unit vector)."""
    m = (a[1] + b[1]) / 2
    if not 0.7 < a[1] / b[1] < 1.4:
        return
    d = b[0] - a[0]
    length = float(np.linalg.norm(d))
    u = d / length
    p = np.array([-u[1], u[0]])
    if abs(length / m - SIDE) <= SLACK:  # a side: at either end, either way
        for end in (a[0], b[0]):
            for s in (1, -1):
                yield end + s * p * length, m, u
    if abs(length / m - SIDE * math.sqrt(2)) <= SLACK * math.sqrt(2):  # the diagonal
        mid = (a[0] + b[0]) / 2
        side = (u + p) / math.sqrt(2)
        for s in (1, -1):
            yield mid + s * p * length / 2, m, side


def paint(gray: Image, centre: np.ndarray, m: float, u: np.ndarray) -> Image:
    """``gray`` with a finder (7 x 7 modules, its light border around) drawn at ``centre``,
    its sides along ``u``."""
    import cv2

    out = np.ascontiguousarray(gray).copy()
    v = np.array([-u[1], u[0]])
    for half, level in ((4.5, 255), (3.5, 0), (2.5, 255), (1.5, 0)):
        pts = [centre + (sx * u + sy * v) * half * m
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        cv2.fillConvexPoly(out, np.round(np.array(pts)).astype(np.int32), level)
    return out


def read_washed(read: Reader, gray: Image, skip: Sequence[Corners] = ()) -> list[Detection]:
    """The codes in ``gray`` (a crop) with one finder washed out, read by ``read`` once the
    missing finder is drawn back; ``skip``: codes read already (their finders are no
    other code's)."""
    import cv2

    def in_read(f: Finder) -> bool:
        return any(point_in_polygon((float(f[0][0]), float(f[0][1])), q) for q in skip)

    # found at half size (a finder's middle square is 3 modules: 5 px at the smallest
    # modules the table reads, 3.5 px), drawn and read at full size
    half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                      interpolation=cv2.INTER_AREA)
    seen = [f for f in ((c * 2.0, m * 2.0) for c, m in finders(half)) if not in_read(f)]
    h, w = gray.shape[:2]
    tries = 0
    for i, a in enumerate(seen):
        for b in seen[i + 1:]:
            for centre, m, u in third_places(a, b):
                x, y, r = int(centre[0]), int(centre[1]), int(3.5 * m)
                if not (0 <= x < w and 0 <= y < h):
                    continue
                place = gray[max(0, y - r):y + r, max(0, x - r):x + r]
                if place.size == 0 or float(np.mean(place >= WHITE)) < WASHED:
                    continue
                if tries >= MAX_TRIES:
                    return []
                tries += 1
                # only the code read: its finders, its fourth corner (whichever of the
                # three is the corner one) and its quiet zone around them
                pa, pb = a[0], b[0]
                pts = np.array([pa, pb, centre, pa + pb - centre, pa + centre - pb,
                                pb + centre - pa])
                x0, y0 = (int(max(0, v)) for v in pts.min(axis=0) - MARGIN * m)
                x1, y1 = (int(v) for v in pts.max(axis=0) + MARGIN * m)
                code = paint(gray[y0:y1, x0:x1], centre - (x0, y0), m, u)
                hits = read(code)
                if hits:
                    return [Detection(d.text, tuple((x + x0, y + y0) for x, y in d.corners),
                                      d.backend, d.damaged, d.modules) for d in hits]
    return []


def glare_spots(gray: Image) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1, frame px) around each washed-out blob of ``gray`` at least
    ``SPOT_PX`` across, grown by ``REACH_PX`` (where a code a spot washed in part lies),
    the largest first."""
    import cv2

    small = np.ascontiguousarray(gray[::SHRINK, ::SHRINK])
    _, white = cv2.threshold(small, WHITE - 1, 255, cv2.THRESH_BINARY)
    contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = sorted(((cv2.contourArea(c), cv2.boundingRect(c)) for c in contours),
                   key=lambda b: -b[0])
    h, w = gray.shape[:2]
    return [(max(0, x * SHRINK - REACH_PX), max(0, y * SHRINK - REACH_PX),
             min(w, (x + bw) * SHRINK + REACH_PX), min(h, (y + bh) * SHRINK + REACH_PX))
            for _, (x, y, bw, bh) in blobs if max(bw, bh) * SHRINK >= SPOT_PX]
