"""Choosing a QR decoder: the shipped pipeline or one backend, with fallback.

``default_decoder()`` returns the shipped decoder (``"auto"``, ``vision.retry``): zxing-cpp
on the whole frame, then, only where zxing-cpp located a code but could not read it, a
retry on a 1.5x upscaled crop (zxing-cpp, then pyzbar). The backends themselves live in
``vision.backends``; the shared types in ``vision.frames`` (both re-exported here, as
this module's public names). Every decoder accepts a grayscale or BGR ``numpy`` image
and returns ``Detection`` values with corners in that image's pixels. A decoder never
guesses: a code that cannot be read is left out (or, with ``report_damaged``, returned
with ``damaged=True`` and an empty text).
"""

from __future__ import annotations

import logging

from vision.backends import (
    DecoderUnavailableError,
    OpenCVDecoder,
    PyzbarDecoder,
    ZxingDecoder,
    to_gray,
)
from vision.frames import Corners, Decoder, Detection, Image

__all__ = [
    "BACKENDS",
    "Corners",
    "Decoder",
    "DecoderUnavailableError",
    "Detection",
    "Image",
    "OpenCVDecoder",
    "PyzbarDecoder",
    "ZxingDecoder",
    "default_decoder",
    "to_gray",
]

log = logging.getLogger(__name__)

#: backend names in the order ``default_decoder`` falls back through them
BACKENDS: tuple[str, ...] = ("zxing", "pyzbar", "opencv")


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
