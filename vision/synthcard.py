"""The synthetic table's card: its canvas (a coloured card with a QR sticker) and where
the canvas lands in the picture.

``card_image`` draws a card canvas for a payload; ``tag_corners_canvas`` is where its
code lies on the canvas; ``_similarity`` and ``_apply`` carry canvas points into the
picture (a homography: ``Matrix``). Read by the renderer (``vision.synthrender``) and
the benches' generators (through ``vision.synthetic``).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.frames import Image, Point

Matrix = npt.NDArray[np.float64]  # 3x3 homography

CARD_W, CARD_H = 250, 350  # card canvas, pixels
MODULE = 6  # canvas pixels per QR module
QUIET = 2  # quiet-zone modules around the code on the sticker
TAG_X, TAG_Y = 50, 170  # top-left of the sticker on the card canvas


def _similarity(center: Point, angle_deg: float, scale: float) -> Matrix:
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    to_origin = np.array([[1, 0, -CARD_W / 2], [0, 1, -CARD_H / 2], [0, 0, 1]], float)
    rot = np.array([[c, -s, center[0]], [s, c, center[1]], [0, 0, 1]], float)
    out: Matrix = rot @ to_origin
    return out


def _apply(h: Matrix, pts: Sequence[Point]) -> list[Point]:
    arr = np.array(pts, dtype=np.float64).reshape(-1, 1, 2)
    out = np.asarray(cv2.perspectiveTransform(arr, h)).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in out]


def tag_corners_canvas() -> list[Point]:
    """The code's corners (quiet zone excluded) on the card canvas, clockwise from top-left."""
    x0, y0 = TAG_X + QUIET * MODULE, TAG_Y + QUIET * MODULE
    side = 21 * MODULE
    return [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]


def card_image(payload: str) -> Image:
    """A card canvas: coloured art, a title bar and a white sticker with the payload's QR."""
    import segno

    crc = zlib.crc32(payload.encode("utf-8"))
    hue = crc % 180
    img = np.full((CARD_H, CARD_W, 3), 245, np.uint8)
    art = np.full((130, CARD_W - 30, 3), (hue, 140, 200), np.uint8)
    img[15:145, 15:-15] = cv2.cvtColor(art, cv2.COLOR_HSV2BGR)
    cv2.circle(img, (60 + crc % 120, 80), 30, (40, 40, 40), -1)
    cv2.putText(img, payload[:6], (20, 162), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 1)
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), (60, 60, 60), 3)
    qr = segno.make(payload, error="m", micro=False, boost_error=False)
    matrix = np.array(qr.matrix, dtype=np.uint8)
    n = matrix.shape[0]
    side = (n + 2 * QUIET) * MODULE
    sticker = np.full((side, side), 255, np.uint8)
    dark = np.where(matrix == 1, 0, 255).astype(np.uint8)
    code = cv2.resize(dark, (n * MODULE, n * MODULE), interpolation=cv2.INTER_NEAREST)
    q, e = QUIET * MODULE, QUIET * MODULE + n * MODULE
    sticker[q:e, q:e] = code
    scale = (21 + 2 * QUIET) * MODULE / side  # larger versions shrink into the same sticker
    sticker = cv2.resize(sticker, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    s = sticker.shape[0]
    img[TAG_Y : TAG_Y + s, TAG_X : TAG_X + s] = sticker[:, :, None]
    return img


def _card_quad() -> list[Point]:
    return [(0, 0), (CARD_W, 0), (CARD_W, CARD_H), (0, CARD_H)]

