"""Small drawn scenes for the landing watch: a gray table with a little noise, cards as
bright rectangles with a dark picture, a hand as a flat ellipse (320x240 frames)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.landing import CARD_SIDES, LandingWatch

W, H, FPS = 320, 240, 30.0
PILE = [(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)]
TAG = 24.0  # the tag side read on the table, px: a card is 48 x 67 px
READ = ("far", [(200.0, 30.0), (224.0, 30.0), (224.0, 54.0), (200.0, 54.0)])  # a tag read (its size)


GRAIN = cv2.resize(np.random.default_rng(99).normal(0, 14, (H // 12, W // 12)), (W, H),
                   interpolation=cv2.INTER_CUBIC)  # the table top's grain: fixed


def table(seed: int) -> np.ndarray:
    """The empty table, with this frame's own sensor noise."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0, 2.0, (H, W))
    return np.clip(70 + GRAIN + noise, 0, 255).astype(np.uint8)


def card(image: np.ndarray, centre: tuple[float, float], angle: float = 20.0,
         print_: tuple[int, int] = (235, 90)) -> None:
    """A card (its sides ``CARD_SIDES`` tag sides) with a dark picture on it (``print_``:
    the card's paper and its picture, gray levels: cards of a deck differ)."""
    short, long = TAG * CARD_SIDES[0], TAG * CARD_SIDES[1]
    box = cv2.boxPoints((centre, (short, long), angle)).astype(np.int32)
    cv2.fillPoly(image, [box], print_[0])
    inner = cv2.boxPoints((centre, (short * 0.6, long * 0.35), angle)).astype(np.int32)
    cv2.fillPoly(image, [inner], print_[1])


def hand(image: np.ndarray, centre: tuple[float, float]) -> None:
    """A resting hand, as ``vision.synthetic`` draws one beside a card of 4-5 px modules: a
    flat ellipse 0.65 x 0.6 of the card's sides (a third of its area)."""
    axes = (int(TAG * CARD_SIDES[0] * 0.65 / 2), int(TAG * CARD_SIDES[1] * 0.6 / 2))
    cv2.ellipse(image, (int(centre[0]), int(centre[1])), axes, 0, 0, 360, 160, -1)


def tag_at(centre: tuple[float, float]) -> list[tuple[float, float]]:
    """The corners of a tag of ``READ``'s size read at ``centre``."""
    x, y = centre
    return [(x - 12, y - 12), (x + 12, y - 12), (x + 12, y + 12), (x - 12, y + 12)]


def landings(frames: int, draw: Callable[[int, np.ndarray], None],
             tags: Callable[[int], Sequence[Sequence[tuple[float, float]]]],
             watch: LandingWatch | None = None, scale: int = 1) -> tuple[list[float], LandingWatch]:
    """Frames ``0..frames-1`` (``draw(i, image)`` draws frame ``i`` on the table, at ``i /
    FPS`` seconds; ``tags(i)`` the tags read in it) through a landing watch, each frame and
    tag ``scale`` times as large: the times of the landings it reported, and the watch."""
    watch = watch or LandingWatch()
    out = []
    for i in range(frames):
        image = table(i)
        draw(i, image)
        read = tags(i)
        if scale != 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            read = [(text, [(scale * x, scale * y) for x, y in quad])  # type: ignore[misc]
                    for text, quad in read]
        out += [x.at for x in watch.update(i / FPS, image, {"pile": PILE}, read)]
    return out, watch
