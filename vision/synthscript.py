"""What happens on a synthetic table, and when: the parts of its script.

``CardPlay`` (a card slides in, lands, may be removed), ``Patch`` (a hand, a lamp's glare
or its pool of light over the table for a while), ``Bump`` (the camera knocked), and
``demo_script`` (the ``--demo`` camera's plays). ``vision.synthetic.SyntheticTable``
plays them out; ``vision.synthrender`` draws the patches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import Image, Point
from vision.synthcard import Matrix


@dataclass(frozen=True)
class CardPlay:
    """One card in a script: it slides in and lands at ``at`` seconds, and may be removed.

    Where it lands: ``position`` (normalised image x, y) if given, else the centre of
    ``zone`` (with a little jitter), else a random spot. ``angle`` in degrees (random
    when None); ``tag_px`` the side of the code in pixels at 1280 wide (random when None).
    """

    payload: str
    at: float
    zone: str | None = None
    position: Point | None = None
    angle: float | None = None
    tag_px: float | None = None
    removed_at: float | None = None
    slide_s: float = 0.25


@dataclass(frozen=True)
class Patch:
    """Something over the table from ``at`` to ``until`` seconds: a resting ``hand`` (a
    skin-coloured blob that hides what is under it), a lamp's ``glare`` (a reflection:
    a spot washed out to white, black print as white as the rest) or a ``lamp``'s pool of
    light (the table and the cards under it brighter, black print still dark: no
    reflection). ``center`` is normalised; ``radius`` a share of the frame's width.
    ``strength``: for ``glare``, how far past white its centre is (1.6 when None; under 1
    a veil that washes nothing out to white); for ``lamp``, how much brighter the table is
    at its centre (0.8 when None: 1.8 times).
    """

    kind: str
    at: float
    until: float
    center: Point
    radius: float = 0.08
    strength: float | None = None

    def active(self, t: float) -> bool:
        return self.at <= t < self.until

    def polygon(self, width: int, height: int) -> np.ndarray:
        """The patch's outline in pixels (an ellipse, a little taller than wide)."""
        c = (int(self.center[0] * width), int(self.center[1] * height))
        r = int(self.radius * width)
        points = np.asarray(cv2.ellipse2Poly(c, (r, int(r * 1.3)), 20, 0, 360, 10))
        out: np.ndarray = points.astype(np.float64)
        return out


@dataclass(frozen=True)
class Bump:
    """The camera knocked at ``at`` seconds: from then on the table is seen shifted by
    ``shift`` pixels and turned by ``angle`` degrees about the frame's centre (the pose
    of the latest bump holds; the lamp's glare and a hand stay where the camera sees them).
    """

    at: float
    shift: Point = (0.0, 0.0)
    angle: float = 0.0

    def matrix(self, width: int, height: int) -> Matrix:
        """Image before the bump -> image after it (3x3)."""
        m: Image = cv2.getRotationMatrix2D((width / 2, height / 2), self.angle, 1.0)
        m[:, 2] += np.asarray(self.shift)
        out: Matrix = np.vstack([m, [0.0, 0.0, 1.0]]).astype(np.float64)
        return out


def demo_script(payloads: Sequence[str], interval: float = 1.5, pile_size: int = 7) -> list[CardPlay]:
    """Cards played one by one onto the pile; every ``pile_size`` cards the pile is cleared."""
    plays = []
    for i, payload in enumerate(payloads):
        clear = (i // pile_size + 1) * pile_size * interval + interval / 2
        plays.append(CardPlay(payload, at=(i + 1) * interval, zone="pile", removed_at=clear))
    return plays

