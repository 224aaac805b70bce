"""White paper washed out by the light is no reflection (``vision.check.glare_parts``).

Issue 36, round 8: on tuning ``beside-no-seats`` video 38 the pile turned blind for 1.4 s
with no lamp at all. Paper clipped to white in that light (the codes' own white read at
253), and one card on the pile had larger modules than the deck's median: its blank
corner, a little narrower than 12 of its own modules, was more than 12 of the median's,
so the light map kept it as a lamp's veil washed out to white and the tag tried there was
"lost" on three trials.

The scenes: cards of the demo deck's size (75 px codes at 1280 wide: 3.6 px modules) and
one larger card (105 px: 5 px modules) on a drawn pile, rendered by ``vision.synthetic``
and brightened as a camera's exposure does (every pixel times ``exposure``, clipped to
255), read by the real decoder and tried by the real check.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_check import TABLE_PILE, checked
from vision.check import SATURATED, CheckMeter
from vision.synthetic import CardPlay, Patch, SyntheticTable

CARDS = [f"K7Q2M9XH{i:04d}" for i in range(6)]
PILE = TABLE_PILE  # the check tests' pile
#: a lamp's reflection over the pile's top (between the cards)
SPOT = Patch("glare", 0.0, 60.0, (0.5, 0.36), 0.05)


def plays(big_px: float = 105.0, angle: float = 0.0) -> list[CardPlay]:
    """Two cards of the deck's size and a larger one (``big_px``) over the pile's
    bottom-right."""
    return [CardPlay(CARDS[0], at=0.0, position=(0.38, 0.38), tag_px=75, angle=10.0,
                     slide_s=0.01),
            CardPlay(CARDS[1], at=0.0, position=(0.62, 0.62), tag_px=big_px, angle=angle,
                     slide_s=0.01),
            CardPlay(CARDS[2], at=0.0, position=(0.45, 0.66), tag_px=75, angle=5.0,
                     slide_s=0.01)]


def picture(seed: int, script: list[CardPlay], exposure: float = 1.2,
            patches: tuple[Patch, ...] = (), index: int = 3) -> np.ndarray:
    """Frame ``index`` of ``script`` in gray, every pixel times ``exposure`` (clipped)."""
    table = SyntheticTable(CARDS, script, seed=seed, zones=PILE, realtime=False,
                           patches=list(patches))
    gray = cv2.cvtColor(table.render(index).image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    out: np.ndarray = np.clip(gray * exposure, 0, 255).astype(np.uint8)
    return out


def lost(meter: CheckMeter) -> list[str]:
    return sorted(p for p, s in meter.parts.get("pile", {}).items() if s == "lost")


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_larger_cards_margin_washed_out_is_no_reflection(seed: int) -> None:
    """Every code reads, paper clips to white in this light (the codes' white >= 250),
    the larger card's blank margin is wider than 12 of the deck's median modules: no part
    is lost (before: 2-4 parts lost on each of these seeds)."""
    meter, read = checked(picture(seed, plays()))
    assert set(CARDS[:3]) <= read
    assert np.median(list(meter._levels), axis=0)[1] >= SATURATED  # paper clips
    assert lost(meter) == []


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_reflection_over_the_same_table_is_still_lost(seed: int) -> None:
    """The guard: the same cards, the same light, and a lamp's reflection over the
    pile's top: the parts under it are lost."""
    meter, _ = checked(picture(seed, plays(), patches=(SPOT,)))
    assert "top" in lost(meter)
    assert meter.warnings()[0].startswith("Glare over the pile (")


def fanned(exposure: float) -> np.ndarray:
    """Five cards of one size fanned over the pile, each half over the last."""
    script = [CardPlay(CARDS[i], at=0.0, position=(0.42 + 0.035 * i, 0.45 + 0.03 * i),
                       tag_px=90, angle=8.0 * i - 12, slide_s=0.01) for i in range(5)]
    return picture(1, script, exposure)


def sliding(exposure: float) -> np.ndarray:
    """A card sliding onto the pile (0.4 s slide, frame 24 of 30: motion-blurred), its
    tag not read yet, beside one lying still."""
    script = [CardPlay(CARDS[0], at=0.0, position=(0.38, 0.38), tag_px=90, angle=10.0,
                       slide_s=0.01),
              CardPlay(CARDS[1], at=1.0, position=(0.55, 0.55), tag_px=90, angle=0.0,
                       slide_s=0.4)]
    return picture(1, script, exposure, index=24)


def jpeg(gray: np.ndarray, quality: int = 15) -> np.ndarray:
    """``gray`` through a coarse JPEG (8x8 blocks, ringing at every edge)."""
    _, data = cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out: np.ndarray = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    return out


@pytest.mark.parametrize("scene", [
    "exposure 1.2", "exposure 1.5", "exposure 1.8 (a bright cloth)", "fanned 1.3",
    "fanned 1.6", "coarse jpeg", "sliding"])
def test_paper_in_a_bright_light_is_no_glare(scene: str) -> None:
    """Things that are not a lamp, in a light where paper clips to white: cards of one
    size brightened by the camera's exposure (1.8: the cloth too, the picture's median 165), five
    cards fanned half over each other, a coarse JPEG, a card sliding in (motion blur,
    its tag unread). No part of the pile is lost (each passed before this round too)."""
    one_size = plays(big_px=75.0)
    gray = {"exposure 1.2": lambda: picture(1, one_size, 1.2),
            "exposure 1.5": lambda: picture(2, one_size, 1.5),
            "exposure 1.8 (a bright cloth)": lambda: picture(1, one_size, 1.8),
            "fanned 1.3": lambda: fanned(1.3),
            "fanned 1.6": lambda: fanned(1.6),
            "coarse jpeg": lambda: jpeg(picture(1, one_size, 1.4)),
            "sliding": lambda: sliding(1.4)}[scene]()
    assert (gray >= SATURATED).mean() > 0.01  # paper washed out to white
    meter, read = checked(gray)
    assert read
    assert lost(meter) == []


def test_the_pile_is_never_blind_for_a_larger_cards_washed_out_margin() -> None:
    """The scene of seed 1 served for three glare trials (frames 0, 30 and 60) through the
    real pipeline: no ``PileSight`` (before: the same parts lost on every trial, blind
    from frame 30: the 3-second clock off with no lamp)."""
    from tests.vision.test_pipeline_sight import sights, watch

    still = picture(1, plays())
    events, trials, _ = watch(61, lambda i: still)
    assert sorted(trials) == [0, 30, 60]
    assert not any("lost" in trials[f]["pile"].values() for f in trials)
    assert sights(events) == []


def test_the_same_table_under_a_reflection_still_turns_blind() -> None:
    """The guard through the pipeline: the same cards and light with a lamp's reflection
    over the pile's top: blind at the second trial (frame 30), as before this round."""
    from companion.inputs import PileSight
    from tests.vision.test_pipeline_sight import at, sights, watch

    shining = picture(1, plays(), patches=(SPOT,))
    events, trials, _ = watch(61, lambda i: shining)
    assert all("lost" in trials[f]["pile"].values() for f in (0, 30, 60))
    assert sights(events) == [PileSight(at(30), True)]
