"""QR decoding behind one small interface, with three backends and the shipped pipeline.

``default_decoder()`` returns the shipped decoder (``"auto"``): zxing-cpp on the whole
frame, then, only where zxing-cpp located a code but could not read it, a retry on a
1.5x upscaled crop (zxing-cpp, then pyzbar). Every decoder accepts a grayscale or BGR
``numpy`` image and returns ``Detection`` values with corners in that image's pixels.
A decoder never guesses: a code that cannot be read is left out (or, with
``report_damaged``, returned with ``damaged=True`` and an empty text).
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

Image = npt.NDArray[Any]  # uint8, HxW (gray) or HxWx3 (BGR); cv2's stubs are looser
Corners = tuple[tuple[float, float], ...]

#: backend names in the order ``default_decoder`` falls back through them
BACKENDS: tuple[str, ...] = ("zxing", "pyzbar", "opencv")


@dataclass(frozen=True)
class Detection:
    """One QR code read in an image.

    ``text`` is the payload exactly as encoded; ``corners`` are four points (x, y) in
    pixels, clockwise from the code's top-left; ``backend`` says who read it.
    ``damaged`` marks a code that was located but could not be read (``text`` is "").
    """

    text: str
    corners: Corners
    backend: str
    damaged: bool = False

    def center(self) -> tuple[float, float]:
        """The mean of the corners, in pixels."""
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


class Decoder(Protocol):
    """Anything that finds QR codes in a gray or BGR image."""

    name: str

    def decode(self, image: Image) -> list[Detection]: ...


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


class ZxingDecoder:
    """zxing-cpp (``read_barcodes``), QR codes only, ``text_mode=Plain``."""

    name = "zxing"

    def __init__(self, report_damaged: bool = False) -> None:
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
        zx = self._zx
        results: list[Any] = zx.read_barcodes(
            gray, formats=zx.BarcodeFormat.QRCode, text_mode=zx.TextMode.Plain,
            return_errors=errors,
        )
        return results

    def decode(self, image: Image) -> list[Detection]:
        out = []
        for r in self.read(to_gray(image), self.report_damaged):
            corners = _zx_corners(r.position)
            if r.valid:
                out.append(Detection(r.text, corners, self.name))
            else:
                out.append(Detection("", corners, self.name, damaged=True))
        return out


def _zx_corners(pos: Any) -> Corners:
    return _quad(
        [(p.x, p.y) for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
    )


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


def _make(name: str) -> Decoder:
    if name == "zxing":
        return ZxingDecoder()
    if name == "pyzbar":
        return PyzbarDecoder()
    if name == "opencv":
        return OpenCVDecoder()
    if name == "auto":
        from vision.retry import RetryDecoder

        return RetryDecoder()
    raise ValueError(f"unknown decoder {name!r}: choose one of auto, {', '.join(BACKENDS)}")


def available_backends() -> list[str]:
    """The backends whose libraries import here (pyzbar also needs ``libzbar0``)."""
    out = []
    for name in BACKENDS:
        module = {"zxing": "zxingcpp", "pyzbar": "pyzbar", "opencv": "cv2"}[name]
        if importlib.util.find_spec(module) is None:
            continue
        try:
            _make(name)
        except DecoderUnavailableError:
            continue
        out.append(name)
    return out


def default_decoder(name: str = "auto") -> Decoder:
    """The decoder called ``name`` ("auto" = the shipped pipeline, or a backend name).

    When its library is missing, logs a warning and falls back to the next backend in
    ``BACKENDS``; raises ``DecoderUnavailableError`` only when none is usable.
    """
    order = [name] + [b for b in BACKENDS if b != name]
    problems = []
    for candidate in order:
        try:
            decoder = _make(candidate)
        except DecoderUnavailableError as exc:
            problems.append(str(exc))
            continue
        if candidate != name:
            log.warning("decoder %r unavailable (%s); using %r", name, problems[0], candidate)
        return decoder
    raise DecoderUnavailableError(
        "no QR decoder is usable:\n  " + "\n  ".join(problems)
        + "\nInstall zxing-cpp (recommended) into the virtual environment."
    )
