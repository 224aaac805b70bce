"""The values every vision module shares: images, frames, detections and two interfaces.

A ``FrameSource`` (``vision.sources``, ``vision.synthetic``) delivers ``Frame`` values; a
``Decoder`` (``vision.decoding``, ``vision.backends``, ``vision.retry``) turns an
``Image`` into ``Detection`` values. This module imports no other vision module (and no
``cv2``), so every vision module can import it without creating a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy.typing as npt

Image = npt.NDArray[Any]  # uint8, HxW (gray) or HxWx3 (BGR); cv2's stubs are looser
#: a patch of the picture this bright on average (gray levels) is clipped: every pixel in
#: it saturated the sensor, as a lamp's reflection does. A white card's paper, grain and
#: all, averages 245-254 over a patch: as white to the eye, and not the light
CLIPPED = 254.5
Point = tuple[float, float]
Corners = tuple[Point, ...]


@dataclass(frozen=True)
class Detection:
    """One QR code read in an image.

    ``text`` is the payload exactly as encoded; ``corners`` are four points (x, y) in
    pixels, clockwise from the code's top-left; ``backend`` says who read it.
    ``damaged`` marks a code that was located but could not be read (``text`` is "").
    ``modules``: modules a side (21 for version 1), 0 when the backend does not say.
    """

    text: str
    corners: Corners
    backend: str
    damaged: bool = False
    modules: int = 0

    def center(self) -> tuple[float, float]:
        """The mean of the corners, in pixels."""
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


@dataclass(frozen=True)
class Frame:
    """One picture: ``at`` is its capture time on the monotonic clock, ``index`` counts up.

    ``display`` is an optional larger picture of the same moment for the live view
    (picamera2's main stream); ``image`` is what is decoded.
    """

    image: Image
    at: float
    index: int
    display: Image | None = None


class Decoder(Protocol):
    """Anything that finds QR codes in a gray or BGR image."""

    name: str

    def decode(self, image: Image) -> list[Detection]: ...


class FrameSource(Protocol):
    """Anything that delivers frames: a camera, a file, a synthetic table."""

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...
