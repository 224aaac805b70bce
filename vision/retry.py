"""The shipped decoder: zxing-cpp on the whole frame, a local retry only where it failed.

zxing-cpp (``return_errors=True``) also reports codes it located but could not read.
Only those regions are cropped (with a margin), upscaled 1.5x and decoded again, by
zxing-cpp and then pyzbar. Whole-frame retries cost about 3x the time for the few tags
they rescue; local ones cost a fraction of that (see ``vision/bench.py``).
Built from the backends in ``vision.backends``; ``vision.decoding`` hands it out as
``default_decoder("auto")`` (this module never imports ``vision.decoding``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.backends import (
    DecoderUnavailableError,
    PyzbarDecoder,
    ZxingDecoder,
    to_gray,
    zx_corners,
)
from vision.frames import Corners, Detection, Image

#: how much the crop reaches beyond the located code, as a share of its size
MARGIN = 0.35
#: the upscale factor of a retry
SCALE = 1.5


class RetryDecoder:
    """zxing-cpp, then a zxing-cpp/pyzbar retry on 1.5x crops of located-but-unread codes.

    ``report_damaged``: return a code that no retry could read as a ``Detection`` with
    ``damaged=True`` and ``text=""`` (``companion scan`` does; the table does not).
    """

    name = "auto"

    def __init__(self, report_damaged: bool = False) -> None:
        self._zx = ZxingDecoder()
        self.report_damaged = report_damaged
        self._pz: PyzbarDecoder | None
        try:
            self._pz = PyzbarDecoder()
        except DecoderUnavailableError:
            self._pz = None

    def decode(self, image: Image) -> list[Detection]:
        gray = to_gray(image)
        found: list[Detection] = []
        failed: list[Corners] = []
        for r in self._zx.read(gray, errors=True):
            corners = zx_corners(r.position)
            if r.valid:
                found.append(Detection(r.text, corners, "zxing"))
            else:
                failed.append(corners)
        for corners in failed:
            if any(_overlaps(corners, d.corners) for d in found):
                continue  # the same code, read (or reported) on another pass
            rescued = self.retry(gray, corners)
            if rescued:
                found.extend(d for d in rescued if d.text not in {f.text for f in found})
            elif self.report_damaged:
                found.append(Detection("", corners, "auto", damaged=True))
        return found

    def retry(self, gray: Image, corners: Corners) -> list[Detection]:
        """Codes read in an upscaled crop around ``corners``, mapped back to ``gray``."""
        crop, (x0, y0) = _crop(gray, corners)
        if crop.size == 0:
            return []
        big: Image = cv2.resize(crop, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_CUBIC)
        decoders = [self._zx] + ([self._pz] if self._pz is not None else [])
        for decoder in decoders:
            hits = [d for d in decoder.decode(big) if not d.damaged]
            if hits:
                return [_shift(d, x0, y0) for d in hits]
        return []


def _crop(gray: Image, corners: Corners) -> tuple[Image, tuple[int, int]]:
    pts = np.array(corners, dtype=np.float32)
    x_min, y_min = pts.min(axis=0)
    x_max, y_max = pts.max(axis=0)
    pad = MARGIN * max(x_max - x_min, y_max - y_min, 8.0)
    h, w = gray.shape[:2]
    x0, y0 = max(0, int(x_min - pad)), max(0, int(y_min - pad))
    x1, y1 = min(w, int(x_max + pad) + 1), min(h, int(y_max + pad) + 1)
    return gray[y0:y1, x0:x1], (x0, y0)


def _shift(d: Detection, x0: int, y0: int) -> Detection:
    corners = tuple((x / SCALE + x0, y / SCALE + y0) for x, y in d.corners)
    return Detection(d.text, corners, f"retry-{d.backend}")


def _overlaps(a: Corners, b: Corners) -> bool:
    """True when the centre of ``a`` lies inside the bounding box of ``b``."""
    cx = sum(p[0] for p in a) / len(a)
    cy = sum(p[1] for p in a) / len(a)
    xs = [p[0] for p in b]
    ys = [p[1] for p in b]
    return min(xs) <= cx <= max(xs) and min(ys) <= cy <= max(ys)
