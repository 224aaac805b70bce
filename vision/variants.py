"""The retry variants: ways to read a code zxing-cpp located in a frame but could not read.

Each variant (``VARIANTS``) takes a gray crop around the located code and its corners in
crop pixels, and returns the codes it read, in crop pixels: an upscaled crop, a sharpened
one, a binarised one, the located quad rectified, a smeared code deblurred along its
smear (``vision.deblur``), pyzbar. ``vision.retry.RetryDecoder`` tries them in its order
(``ORDER``), and its search reuses ``sharpened`` and ``binarised``; ``companion bench
vision`` measures each one's gain and cost. Also the crop geometry they share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

import cv2
import numpy as np

from vision.deblur import look, smears, wiener
from vision.frames import Corners, Detection, Image

#: how much the crop reaches beyond the located code, as a share of its size
MARGIN = 0.35
#: the upscale factor of the plain retry
SCALE = 1.5
#: a rectified code is warped to this many pixels a side (plus the margin)
RECTIFIED = 120


class Reader(Protocol):
    """What a variant reads its picture with (``RetryDecoder``)."""

    def zx(self, image: Image) -> list[Detection]:
        """zxing-cpp's readable codes in ``image``."""
        ...

    def pz(self, image: Image) -> list[Detection]:
        """pyzbar's codes in ``image`` (none where pyzbar is not installed)."""
        ...


#: a variant: (gray crop, located corners in crop pixels) -> codes read, in crop pixels
Variant = Callable[[Reader, Image, Corners], list[Detection]]


def crop_box(corners: Corners, w: int, h: int, margin: float = MARGIN
              ) -> tuple[int, int, int, int]:
    pts = np.array(corners, dtype=np.float32)
    x_min, y_min = pts.min(axis=0)
    x_max, y_max = pts.max(axis=0)
    pad = margin * max(x_max - x_min, y_max - y_min, 8.0)
    return (max(0, int(x_min - pad)), max(0, int(y_min - pad)),
            min(w, int(x_max + pad) + 1), min(h, int(y_max + pad) + 1))


def around(gray: Image, corners: Corners, margin: float = MARGIN
          ) -> tuple[Image, tuple[int, int]]:
    h, w = gray.shape[:2]
    x0, y0, x1, y1 = crop_box(corners, w, h, margin)
    return gray[y0:y1, x0:x1], (x0, y0)


def moved(d: Detection, x0: float, y0: float, backend: str) -> Detection:
    return replace(d, corners=tuple((x + x0, y + y0) for x, y in d.corners), backend=backend)


def scaled(found: list[Detection], scale: float) -> list[Detection]:
    return [replace(d, corners=tuple((x / scale, y / scale) for x, y in d.corners))
            for d in found]


def up(crop: Image, scale: float) -> Image:
    out: Image = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return out


def upscale(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """The crop upscaled 1.5x (bicubic): small modules get whole pixels."""
    return scaled(dec.zx(up(crop, SCALE)), SCALE)


def upscale2(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """The crop upscaled 2x (bicubic)."""
    return scaled(dec.zx(up(crop, 2.0)), 2.0)


def sharpen(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """The crop upscaled 2x and unsharp-masked: undoes some blur (motion, focus)."""
    big = up(crop, 2.0)
    soft = cv2.GaussianBlur(big, (0, 0), 2.0)
    sharp: Image = cv2.addWeighted(big, 2.0, soft, -1.0, 0)
    return scaled(dec.zx(sharp), 2.0)


def binarise(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """The crop upscaled 2x, then thresholded locally (uneven light, glare)."""
    big = up(crop, 2.0)
    block = max(15, (min(big.shape[:2]) // 4) | 1)
    bw: Image = cv2.adaptiveThreshold(big, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                      cv2.THRESH_BINARY, block, 5)
    return scaled(dec.zx(bw), 2.0)


def rectify(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """The located quad warped to a square (perspective, curl and tilt undone)."""
    m = RECTIFIED * MARGIN
    side = RECTIFIED + 2 * m
    dst = np.array([[m, m], [m + RECTIFIED, m], [m + RECTIFIED, m + RECTIFIED],
                    [m, m + RECTIFIED]], np.float32)
    h = cv2.getPerspectiveTransform(np.array(corners, np.float32), dst)
    warped = cv2.warpPerspective(crop, h, (int(side), int(side)), flags=cv2.INTER_CUBIC,
                                 borderMode=cv2.BORDER_REPLICATE)
    back = np.linalg.inv(h)
    out = []
    for d in dec.zx(warped):
        pts = np.array(d.corners, np.float64).reshape(-1, 1, 2)
        mapped = cv2.perspectiveTransform(pts, back).reshape(-1, 2)
        out.append(replace(d, corners=tuple((float(x), float(y)) for x, y in mapped)))
    return out


def sharpened(dec: Reader, crop: Image, patch: Image, angle: float
               ) -> list[Detection]:
    """``crop`` sharpened for each guess at its smear (``vision.deblur.smears``) until one reads."""
    for turn, length in smears(patch, angle):
        found = scaled(dec.zx(up(wiener(crop, length, turn), 2.0)), 2.0)
        if found:
            return found
    return []


def binarised(crop: Image) -> Image:
    """``crop`` thresholded against its local (Gaussian) mean, ~4 modules across."""
    bw: Image = cv2.adaptiveThreshold(crop, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C,
                                      cv2.THRESH_BINARY, 15, 3)
    return bw


def deblur(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """A smeared code (``vision.deblur``): the line blur along its smear undone, 2x."""
    box, _ = around(crop, corners, 0.0)
    kind, angle, _ = look(box)
    return sharpened(dec, crop, box, angle) if kind == "smeared" else []


def pyzbar(dec: Reader, crop: Image, corners: Corners) -> list[Detection]:
    """pyzbar on the crop upscaled 1.5x (it reads some codes zxing-cpp does not)."""
    return scaled(dec.pz(up(crop, SCALE)), SCALE)


VARIANTS: dict[str, Variant] = {
    "upscale": upscale, "upscale2": upscale2, "sharpen": sharpen, "binarise": binarise,
    "rectify": rectify, "deblur": deblur, "pyzbar": pyzbar,
}
