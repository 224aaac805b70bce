"""The landing watch and the light (issue 36, round 6): a lamp's reflection that appears
over cards already read is no card, and a card that lands before any tag was read, or
whose size the tags read lately would misjudge, is still asked about.

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes import FPS, PILE, READ, TAG, H, W, card, landings, table, tag_at
from vision.calibration import MODULES, RELIABLE_MODULE_PX
from vision.landing import CARD_SIDES, DEFAULT_TAG_PX, LandingWatch


def reflection(centre: tuple[float, float], radius: float) -> np.ndarray:
    """A lamp's reflection's strength, 0-1 a pixel: a soft, tilted spot, 1 over its core."""
    flat = np.zeros((H, W), np.float32)
    axes = (int(radius), int(radius * 1.3))
    cv2.ellipse(flat, (int(centre[0]), int(centre[1])), axes, 20, 0, 360, 1.0, -1)
    out: np.ndarray = np.clip(cv2.GaussianBlur(flat, (0, 0), radius / 6) * 1.6, 0, 1)
    return out


def glare(image: np.ndarray, centre: tuple[float, float], radius: float) -> None:
    """A lamp's reflection as ``vision.synthetic`` paints one: a soft spot whose centre is
    washed out to pure white, over whatever lies there (the brighter of the two)."""
    spot = (reflection(centre, radius) * 255).astype(np.uint8)
    image[:] = np.maximum(image, spot)


def watch_run(frames: int, draw, tags, watch: LandingWatch | None = None  # type: ignore[no-untyped-def]
              ) -> list[float]:
    return landings(frames, draw, tags, watch)[0]


def test_a_reflection_appearing_over_a_card_already_read_is_no_landing() -> None:
    """A card lands and is read (its tag read on every frame after); 1 s later a lamp is
    switched on and its reflection washes out the card's other end and the table beside
    it: card-sized, with a spread of gray levels, no tag read in it, and no card."""
    centre = (100.0, 120.0)
    quad = tag_at(centre)

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, centre)
        if i >= 40:
            glare(image, (118.0, 168.0), 22.0)

    def tags(i: int) -> list:  # type: ignore[type-arg]
        return [READ, ("card", quad)] if i >= 11 else [READ]

    assert watch_run(100, draw, tags) == []


def test_a_reflection_appearing_on_an_empty_pile_is_no_landing() -> None:
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 20:
            glare(image, (120.0, 120.0), 24.0)

    assert watch_run(90, draw, lambda i: [READ]) == []


def test_a_card_landing_beside_a_reflection_that_is_there_is_still_a_landing() -> None:
    """The reflection was there from the start (part of the pile's look); a card lands
    half into it, its tag unread: asked about, at its landing time."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, (110.0, 120.0))
        glare(image, (110.0, 160.0), 16.0)

    landed = watch_run(70, draw, lambda i: [READ])
    assert len(landed) == 1 and landed[0] == pytest.approx(10 / FPS, abs=1.5 / FPS)


def test_a_card_that_lands_before_any_tag_was_read_is_a_landing() -> None:
    """No tag read yet: the card's size is the default tag's (here the scenes' tag, as a
    camera set up for them would see it), and the card is asked about."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, (100 + 8 * min(i - 15, 0), 120))

    landed = watch_run(60, draw, lambda i: [], LandingWatch(tag_px=TAG))
    assert len(landed) == 1 and landed[0] == pytest.approx(15 / FPS, abs=1.5 / FPS)


def test_the_default_tag_is_the_calibrations_reliable_module_size_until_a_tag_is_read() -> None:
    watch = LandingWatch()
    tag = RELIABLE_MODULE_PX * MODULES
    assert DEFAULT_TAG_PX == tag
    assert watch.card_px() == (tag * CARD_SIDES[0], tag * CARD_SIDES[1])
    watch.update(0.0, table(0), {"pile": PILE}, [READ])  # a tag of 24 px read: that size
    assert watch.card_px() == pytest.approx((TAG * CARD_SIDES[0], TAG * CARD_SIDES[1]))


def test_a_card_size_is_one_vote_a_card_not_one_a_frame() -> None:
    """Three cards were read with tags of the scenes' size; a small card has been read on
    every frame since (its tag 14 px): the card that lands unread is of the usual size
    and is asked about (one frame, one vote: the small tag alone set the size)."""
    small = ("small", [(20.0, 200.0), (34.0, 200.0), (34.0, 214.0), (20.0, 214.0)])
    others = [("a", tag_at((250.0, 200.0))), ("b", tag_at((280.0, 60.0)))]

    def draw(i: int, image: np.ndarray) -> None:
        if i >= 40:
            card(image, (110.0, 120.0))

    def tags(i: int) -> list:  # type: ignore[type-arg]
        return [READ, *others, small] if i < 2 else [small]

    landed = watch_run(100, draw, tags)
    assert len(landed) == 1 and landed[0] == pytest.approx(40 / FPS, abs=1.5 / FPS)


def lamp(image: np.ndarray, centre: tuple[float, float], radius: float, peak: float) -> None:
    """A lamp's reflection that adds light to what lies under it (``peak`` levels at its
    core): the table there is washed out to white, but a card's dark print in it is not."""
    level = reflection(centre, radius) * peak
    image[:] = np.clip(image.astype(np.float32) + level, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("where, radius, paper", [
    ((110.0, 120.0), 22.0, (240, 40)),
    ((110.0, 120.0), 26.0, (240, 40)),
    ((100.0, 115.0), 26.0, (240, 40)),
])
def test_a_card_landing_in_a_reflection_is_no_light(where: tuple[float, float],
                                                    radius: float,
                                                    paper: tuple[int, int]) -> None:
    """Tuning glare 205 #107: a card, unread, landed in a lamp's reflection that was there
    all along. Its paper washed out beside the core (cells newly white), and its print
    darkened a part of the core (cells no longer white): taken for the reflection moving,
    it went into the reference and was never asked about. A card-sized change that does
    both is a card (a lamp is seldom moved during a game)."""
    def draw(i: int, image: np.ndarray) -> None:
        if i >= 10:
            card(image, where, 20, paper)
        lamp(image, (110.0, 120.0), radius, 190.0)

    landed = watch_run(80, draw, lambda i: [READ])
    assert landed == [pytest.approx(10 / FPS, abs=1.5 / FPS)]
