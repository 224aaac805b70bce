"""A part of a card that was read, back in view when the fingertip on it lifts, is that
card (``vision.landrest.uncovered``; issue 36, round 10: tuning fingers 9, where the part
was asked about as a card 0.4 s after the card was read).

Drawn frames (``tests.vision.scenes``, shown to the watch twice as large: a fingertip is
then more than a crumb of cells) through the landing watch. X lands, its tag read on
every frame; a fingertip comes to rest on the right edge of X's picture after it, and
lifts; the next card, Y, lands beside X, touching the part that came back into view (Y's
tag is read 0.4 s later: a fingertip on it). That part is printed, too small for a card,
and touched by a later change: without the rule it was "the rest of a card Y covered", a
landing nobody made.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2

from tests.vision import scenes
from tests.vision.scenes import FPS, READ, card, tag_at
from vision.frames import Image
from vision.landing import LandingWatch

Draw = Callable[[int, Image], None]
Tags = Callable[[int], list[tuple[str, list[tuple[float, float]]]]]

X_AT = (120.0, 110.0)
Y_AT = (168.0, 128.0)
TIP_AT = (136.0, 112.0)  # the fingertip, on the right edge of X's picture
X_LANDS, TIP_COMES, TIP_LIFTS, Y_LANDS = 10, 16, 40, 52
FRAMES = 90


def landings(frames: int, draw: Draw, tags: Tags) -> tuple[list[float], LandingWatch]:
    """``scenes.landings``, each frame and tag twice as large."""
    return scenes.landings(frames, draw, tags, scale=2)  # type: ignore[arg-type]


def scene(tip: bool, next_card: bool = True) -> tuple[Draw, Tags]:
    def draw(i: int, image: Image) -> None:
        if i >= X_LANDS:
            card(image, X_AT, 0.0)
        if next_card and i >= Y_LANDS:
            card(image, Y_AT, 0.0, (225, 60))
        if tip and TIP_COMES <= i < TIP_LIFTS:
            cv2.ellipse(image, (int(TIP_AT[0]), int(TIP_AT[1])), (12, 16), 0, 0, 360, 150, -1)

    def tags(i: int) -> list[tuple[str, list[tuple[float, float]]]]:
        out = [READ]
        if i >= X_LANDS:
            out.append(("X", tag_at(X_AT)))
        if next_card and i >= Y_LANDS + 12:  # its tag under a fingertip until then
            out.append(("Y", tag_at(Y_AT)))
        return out

    return draw, tags


def test_a_fingertip_lifted_off_a_read_card_shows_that_card_not_a_new_one() -> None:
    draw, tags = scene(tip=True)
    found, watch = landings(FRAMES, draw, tags)
    assert found == []
    assert "X" in watch._zones["pile"].explained  # X's reads explained where it lies


def test_the_same_cards_with_no_fingertip() -> None:
    """The scene without the fingertip: nothing landed unread either (the scene itself
    invents nothing)."""
    draw, tags = scene(tip=False)
    found, _ = landings(FRAMES, draw, tags)
    assert found == []


def test_a_card_landing_on_the_read_card_is_still_asked_about() -> None:
    """Instead of Y, Z lands unread over X's lower end after the fingertip lifted (X's tag
    still in view): it reaches beyond what X's reads explained, so it is asked about, at
    its own time."""
    draw, tags = scene(tip=True, next_card=False)

    def with_z(i: int, image: Image) -> None:
        draw(i, image)
        if i >= Y_LANDS:
            card(image, (X_AT[0] + 4, X_AT[1] + 48), 0.0, (215, 40))

    found, _ = landings(FRAMES, with_z, tags)
    assert [round(t * FPS) for t in found] == [Y_LANDS]

