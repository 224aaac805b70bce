"""A part of a card that was read, back in view when what lay on it lifts, is that card
(``vision.landrest.uncovered``; issue 36, round 10: tuning fingers 9, where
the part was asked about as a card 0.4 s after the card was read, and hands 7 and 8,
where a hand had hidden the card's tag too).

Drawn frames (``tests.vision.scenes``, shown to the watch twice as large: a fingertip is
then more than a crumb of cells) through the landing watch. X lands, its tag read; a
fingertip (or a hand, over its tag) comes to rest on it after it, and lifts; the next
card, Y, lands beside X, touching the part that came back into view. That part is
printed, too small for a card, and touched by a later change: without the rules it was
"the rest of a card Y covered", a landing nobody made.
"""

from __future__ import annotations

import cv2

from tests.vision.scenes import FPS, PILE, READ, card, table, tag_at
from vision.frames import Image
from vision.landing import LandingWatch

X_AT = (120.0, 110.0)
Y_AT = (168.0, 128.0)
TIP_AT = (136.0, 112.0)  # the fingertip, on the right edge of X's picture
X_LANDS, TIP_COMES, TIP_LIFTS, Y_LANDS = 10, 16, 40, 52
FRAMES = 90


def landings(frames: int, draw: object, tags: object) -> tuple[list[float], LandingWatch]:
    """``scenes.landings``, each frame and tag twice as large."""
    watch = LandingWatch()
    out: list[float] = []
    for i in range(frames):
        image = table(i)
        draw(i, image)  # type: ignore[operator]
        large = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
        read = [(text, [(2 * x, 2 * y) for x, y in quad]) for text, quad in tags(i)]  # type: ignore[operator]
        out += [x.at for x in watch.update(i / FPS, large, {"pile": PILE}, read)]
    return out, watch


def scene(tip: bool, next_card: bool = True) -> tuple[object, object]:
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
        draw(i, image)  # type: ignore[operator]
        if i >= Y_LANDS:
            card(image, (X_AT[0] + 4, X_AT[1] + 48), 0.0, (215, 40))

    found, _ = landings(FRAMES, with_z, tags)
    assert [round(t * FPS) for t in found] == [Y_LANDS]


HAND_COMES, HAND_LIFTS = 12, 50
Y_BESIDE = (X_AT[0] + 40, X_AT[1] + 14)


def hand_scene(i: int, image: Image) -> None:
    """X lands (``X_LANDS``); a hand comes to rest on it over its tag and its lower half two
    frames later and lifts at ``HAND_LIFTS``; Y lands beside X 10 frames after, touching
    the part of X that came back into view (too small for a card)."""
    if i >= X_LANDS:
        card(image, X_AT, 0.0)
    if i >= HAND_LIFTS + 10:
        card(image, Y_BESIDE, 0.0, (225, 60))
    if HAND_COMES <= i < HAND_LIFTS:
        cv2.ellipse(image, (int(X_AT[0]), int(X_AT[1] + 8)), (20, 16), 0, 0, 360, 150, -1)


def hand_tags(i: int) -> list[tuple[str, list[tuple[float, float]]]]:
    """X's tag is read until the hand covers it and again 0.6 s after it lifts (past the
    watch's ``WAIT_S``: the tag blurred, a finger's shadow on it); Y's from 12 frames
    after it landed (a fingertip on it until then)."""
    out = [READ]
    if X_LANDS <= i < HAND_COMES or i >= HAND_LIFTS + 18:
        out.append(("X", tag_at(X_AT)))
    if i >= HAND_LIFTS + 22:
        out.append(("Y", tag_at(Y_BESIDE)))
    return out


def test_a_hand_lifted_off_a_read_cards_tag_shows_that_card_not_a_new_one() -> None:
    """Tuning hands 7 and 8: the part of X the hand hid comes back into view with X's tag
    in it, and the tag is read only 0.6 s later, past the watch's wait. Its tag looks as
    it did at its last read (``landrest.uncovered``): X's part, not a new card."""
    found, _ = landings(FRAMES + 20, hand_scene, hand_tags)
    assert found == []

