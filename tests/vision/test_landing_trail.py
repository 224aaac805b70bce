"""The landing watch and what a card passes over as it slides in (issue 36, round 6: a
card that landed unread, cond-tune glare video 2 #21, was never asked about: the cells it
slid over on its way, back as they were but not as the reference had them, settled with
it and made it larger than a card).

Small drawn frames (``tests.vision.scenes``, 320x240), delivered one by one; frame ``i`` is
at ``i / FPS`` seconds: no clock.
"""

from __future__ import annotations

import numpy as np
import pytest

import vision.landing
import vision.landmemory
from tests.vision.scenes import FPS, PILE, READ, card, table
from vision.landing import LandingWatch


def sleeve_and_card(i: int, image: np.ndarray) -> None:
    """A dark, flat strip (a sleeve's shadow: never a card) lies right of the pile's middle
    from frame 5 on; a card slides in from the right across it from frame 15 and lands at
    frame 30 left of it, its tag unread."""
    if i >= 5:
        image[104:136, 126:238] = 40
    if i >= 15:
        card(image, (100 + 8 * max(30 - i, 0), 120), 90)


def landings(frames: int = 90) -> list[float]:
    watch = LandingWatch()
    out = []
    for i in range(frames):
        image = table(i)
        sleeve_and_card(i, image)
        out += [x.at for x in watch.update(i / FPS, image, {"pile": PILE}, [READ])]
    return out


def test_a_card_that_slid_over_something_not_yet_taken_in_is_still_a_card() -> None:
    landed = landings()
    assert len(landed) == 1 and landed[0] == pytest.approx(30 / FPS, abs=1.5 / FPS)


def test_without_keeping_the_older_time_the_trail_joins_the_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same frames with no cell ever settling back (``PASSED`` below zero): the trail
    settles with the card, and the two are larger than a card's box. Since round 12 such a
    group is still asked about, as a card and what settled with it
    (``landmemory.card_and_more``); without that too, nothing is asked."""
    monkeypatch.setattr(vision.landing, "PASSED", -1.0)
    assert len(landings()) == 1
    monkeypatch.setattr(vision.landmemory, "MORE", 1.0)
    assert landings() == []
