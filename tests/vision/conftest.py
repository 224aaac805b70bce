"""Helpers for the vision tests: rendered codes and fake frame sources."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import segno

from vision.frames import Image


def qr_image(payload: str | bytes, module: int = 8, border: int = 4, size: int = 0) -> Image:
    """A clean grayscale picture of a QR code of ``payload`` (padded to ``size`` if given)."""
    qr = segno.make(payload, error="m", micro=False)
    matrix = np.array(qr.matrix, dtype=np.uint8)
    img = np.where(matrix == 1, 0, 255).astype(np.uint8)
    img = cv2.resize(img, None, fx=module, fy=module, interpolation=cv2.INTER_NEAREST)
    img = cv2.copyMakeBorder(img, border * module, border * module, border * module,
                             border * module, cv2.BORDER_CONSTANT, value=255)
    if size:
        canvas = np.full((size, size), 255, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        img = canvas
    return img


@pytest.fixture
def payloads() -> list[str]:
    return [f"K7Q2M9XH{i:04d}" for i in range(12)]


class FakeClock:
    """A clock that moves only when told: ``sleep`` and ``advance`` add seconds.

    Injected as ``clock=fake`` (it is callable) and ``sleep=fake.sleep``, so pacing and
    frame times are the same on a fast laptop and on a loaded Raspberry Pi.
    """

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds
