"""Cards that land unread (``vision.landing``): small drawn frames, delivered one by one.

Each scene is a gray table with a little noise; cards are bright rectangles with a dark
picture, a hand is a flat ellipse. Frame ``i`` is at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

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


def card(image: np.ndarray, centre: tuple[float, float], angle: float = 20.0) -> None:
    """A card (its sides ``CARD_SIDES`` tag sides) with a dark picture on it."""
    short, long = TAG * CARD_SIDES[0], TAG * CARD_SIDES[1]
    box = cv2.boxPoints((centre, (short, long), angle)).astype(np.int32)
    cv2.fillPoly(image, [box], 235)
    inner = cv2.boxPoints((centre, (short * 0.6, long * 0.35), angle)).astype(np.int32)
    cv2.fillPoly(image, [inner], 90)


def hand(image: np.ndarray, centre: tuple[float, float]) -> None:
    """A resting hand, as ``vision.synthetic`` draws one beside a card of 4-5 px modules: a
    flat ellipse 0.65 x 0.6 of the card's sides (a third of its area)."""
    axes = (int(TAG * CARD_SIDES[0] * 0.65 / 2), int(TAG * CARD_SIDES[1] * 0.6 / 2))
    cv2.ellipse(image, (int(centre[0]), int(centre[1])), axes, 0, 0, 360, 160, -1)


def tag_at(centre: tuple[float, float]) -> list[tuple[float, float]]:
    """The corners of a tag of ``READ``'s size read at ``centre``."""
    x, y = centre
    return [(x - 12, y - 12), (x + 12, y - 12), (x + 12, y + 12), (x - 12, y + 12)]


def run(frames: int, draw, tags=lambda i: [READ]) -> list[float]:  # type: ignore[no-untyped-def]
    """Deliver ``frames`` frames (``draw(i, image)`` draws frame ``i``): the landing times."""
    watch = LandingWatch()
    out = []
    for i in range(frames):
        image = table(i)
        draw(i, image)
        out += [x.at for x in watch.update(i / FPS, image, {"pile": PILE}, tags(i))]
    return out


def test_a_card_that_lands_and_settles_unread_is_a_landing_at_its_landing_time() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:  # slides in over frames 10-14, lies still from frame 15
            card(image, (100 + 8 * min(i - 15, 0), 120))

    landed = run(60, draw)
    assert len(landed) == 1
    assert landed[0] == pytest.approx(15 / FPS, abs=1.5 / FPS)


def test_nothing_is_said_before_a_tag_was_read_there_is_no_card_size_yet() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, (100, 120))

    assert run(60, draw, tags=lambda i: []) == []


def test_a_card_whose_tag_is_read_is_no_unread_landing() -> None:
    centre = (100.0, 120.0)
    quad = tag_at(centre)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, centre)

    assert run(60, draw, tags=lambda i: [READ, ("card", quad)] if i >= 12 else [READ]) == []


def test_a_finger_on_the_tag_that_lifts_before_long_is_no_landing() -> None:
    """The card lands under a fingertip; the finger lifts 0.3 s later and the tag reads."""
    centre = (100.0, 120.0)
    quad = tag_at(centre)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, centre)
        if 5 <= i < 19:
            cv2.circle(image, (100, 120), 9, 160, -1)

    assert run(60, draw, tags=lambda i: [READ, ("card", quad)] if i >= 20 else [READ]) == []


def test_a_resting_hand_is_never_a_landing() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if 10 <= i < 100:  # 3 s at rest, then gone
            hand(image, (150, 120))

    assert run(160, draw) == []


def test_a_hand_passing_over_the_pile_is_never_a_landing() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if 10 <= i < 40:
            hand(image, (40 + 8 * (i - 10), 120))
            card(image, (40 + 8 * (i - 10), 150))  # holding a card, moving all the time

    assert run(80, draw) == []


def test_a_knocked_camera_is_never_a_landing() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        card(image, (110, 110))
        card(image, (190, 140), 60)
        if i >= 20:  # the whole picture shifted and turned from frame 20 on
            m = cv2.getRotationMatrix2D((W / 2, H / 2), 2.5, 1.0)
            m[:, 2] += (18, -11)
            image[:] = cv2.warpAffine(image, m, (W, H), borderMode=cv2.BORDER_REFLECT)

    assert run(80, draw) == []


def test_a_card_beside_the_pile_is_not_the_piles() -> None:
    small = [(0.1, 0.1), (0.5, 0.1), (0.5, 0.9), (0.1, 0.9)]
    watch = LandingWatch()
    found = []
    for i in range(60):
        image = table(i)
        if i >= 10:
            card(image, (270, 120))  # right of the pile's box
        found += watch.update(i / FPS, image, {"pile": small}, [READ])
    assert found == []


def test_two_cards_landing_one_after_the_other_are_two_landings() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, (90, 110), 10)
        if i >= 40:
            card(image, (170, 140), 75)

    landed = run(90, draw)
    assert len(landed) == 2
    assert [round(t * FPS) for t in landed] == [10, 40]


def test_the_landing_time_is_frame_time_not_when_it_was_noticed() -> None:
    """Frames 1 s apart in time but the same pictures: the time scales with them."""
    watch = LandingWatch()
    out = []
    for i in range(60):
        image = table(i)
        if i >= 10:
            card(image, (100, 120))
        out += [x.at for x in watch.update(100.0 + i / FPS, image, {"pile": PILE}, [READ])]
    assert len(out) == 1 and math.isclose(out[0], 100.0 + 10 / FPS, abs_tol=1e-6)
