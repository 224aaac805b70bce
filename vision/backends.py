"""The three QR decoder backends (zxing-cpp, pyzbar, OpenCV) and their small helpers.

Each backend imports its library when it is constructed and raises
``DecoderUnavailableError`` (saying what to install) when it is missing, so this module
imports without ``cv2``, ``zxingcpp`` or ``pyzbar``. ``vision.decoding`` picks among the
backends; ``vision.retry`` builds the shipped pipeline out of two of them.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from vision.frames import Corners, Detection, Image

log = logging.getLogger(__name__)


class DecoderUnavailableError(RuntimeError):
    """A decoder backend whose library is missing; the message says what to install."""


def to_gray(image: Image) -> Image:
    """A single-channel view of ``image`` (BGR or BGRA converted, gray returned as is)."""
    if image.ndim == 2:
        return image
    import cv2

    code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    out: Image = cv2.cvtColor(image, code)
    return out


def _bytes_text(data: bytes) -> str:
    """Payload bytes as text: UTF-8 when valid, else Latin-1 (one char per byte)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _quad(points: Any) -> Corners:
    return tuple((float(p[0]), float(p[1])) for p in points)


def zx_modules(result: Any) -> int:
    """Modules a side of a zxing-cpp QR result (17 + 4 x version), 0 when it does not say."""
    extra = getattr(result, "extra", None) or {}
    try:
        return 17 + 4 * int(extra.get("Version", ""))
    except (TypeError, ValueError):
        return 0


def zx_corners(pos: Any) -> Corners:
    """The corners of a zxing-cpp ``Position``, clockwise from the code's top-left."""
    return _quad(
        [(p.x, p.y) for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
    )


class ZxingDecoder:
    """zxing-cpp (``read_barcodes``), QR codes only, ``text_mode=Plain``."""

    name = "zxing"

    def __init__(self, report_damaged: bool = False, downscale: bool = True) -> None:
        self.downscale = downscale  # zxing-cpp's passes over downscaled copies too
        try:
            import zxingcpp
        except ImportError as exc:
            raise DecoderUnavailableError(
                "zxing-cpp is not installed: run `.venv/bin/pip install zxing-cpp`"
            ) from exc
        self._zx = zxingcpp
        self.report_damaged = report_damaged

    def read(self, gray: Image, errors: bool) -> list[Any]:
        """The raw zxing-cpp results (with located-but-unread codes when ``errors``)."""
        if gray.size == 0:
            return []  # zxing-cpp raises on an empty picture; there is nothing in it
        zx = self._zx
        results: list[Any] = zx.read_barcodes(
            gray, formats=zx.BarcodeFormat.QRCode, text_mode=zx.TextMode.Plain,
            return_errors=errors, try_downscale=self.downscale,
        )
        return results

    def decode(self, image: Image) -> list[Detection]:
        out = []
        for r in self.read(to_gray(image), self.report_damaged):
            corners = zx_corners(r.position)
            if r.valid:
                out.append(Detection(r.text, corners, self.name, modules=zx_modules(r)))
            else:
                out.append(Detection("", corners, self.name, damaged=True))
        return out


class PyzbarDecoder:
    """pyzbar on the grayscale image (it reads only the first channel of a colour one)."""

    name = "pyzbar"

    def __init__(self) -> None:
        try:
            from pyzbar import pyzbar
        except ImportError as exc:  # also raised when Debian's libzbar0 is missing
            raise DecoderUnavailableError(
                f"pyzbar cannot load ({exc}): run `sudo apt-get install libzbar0` "
                "and `.venv/bin/pip install pyzbar`"
            ) from exc
        self._pz = pyzbar

    def decode(self, image: Image) -> list[Detection]:
        gray = np.ascontiguousarray(to_gray(image))
        try:
            found = self._pz.decode(gray, symbols=[self._pz.ZBarSymbol.QRCODE])
        except ValueError as exc:  # pyzbar 0.1.9 fails on an "unknown" orientation
            log.debug("pyzbar could not decode: %s", exc)
            return []
        out = []
        for d in found:
            poly = [(p.x, p.y) for p in d.polygon]
            if len(poly) != 4:  # zbar gives the convex hull; fall back to the box
                x, y, w, h = d.rect
                poly = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            out.append(Detection(_bytes_text(d.data), _quad(poly), self.name))
        return out


class OpenCVDecoder:
    """OpenCV's ``QRCodeDetector`` (the ``...Bytes`` calls: non-UTF-8 payloads do not raise)."""

    name = "opencv"

    def __init__(self) -> None:
        try:
            import cv2
        except ImportError as exc:
            raise DecoderUnavailableError(
                "OpenCV is not installed: run `.venv/bin/pip install opencv-python-headless`"
            ) from exc
        self._detector = cv2.QRCodeDetector()

    def decode(self, image: Image) -> list[Detection]:
        import cv2

        gray = to_gray(image)
        try:
            ok, texts, points, _ = self._detector.detectAndDecodeBytesMulti(gray)
        except cv2.error as exc:  # e.g. "mode 13 not implemented" (structured append, ...)
            log.debug("OpenCV could not decode: %s", exc)
            return []
        if not ok or points is None:
            return []
        out = []
        for data, quad in zip(texts, points, strict=False):
            if data:
                out.append(Detection(_bytes_text(bytes(data)), _quad(quad), self.name))
        return out
