"""The pre-game check (``vision.check``): each question green, amber or red, with its fix."""

from __future__ import annotations

import numpy as np
import pytest

from vision.check import GLARE_WARN, CheckMeter, glare_parts, module_px
from vision.decoding import default_decoder
from vision.frames import Detection
from vision.synthetic import CardPlay, Patch, SyntheticTable

PILE = {"pile": [(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)]}


def code(side: float, text: str = "K7Q2M9XH0001", damaged: bool = False) -> Detection:
    return Detection("" if damaged else text,
                     ((10, 10), (10 + side, 10), (10 + side, 10 + side), (10, 10 + side)),
                     "test", damaged=damaged)


def verdicts(meter: CheckMeter) -> dict[str, tuple[str, str]]:
    return {v["what"]: (v["level"], v["sentence"]) for v in meter.report()["verdicts"]}


def test_a_well_lit_table_with_readable_cards_is_ready() -> None:
    meter = CheckMeter()
    for _ in range(30):
        meter.update(np.full((360, 640), 120, np.uint8), [code(105)], PILE)  # 5 px modules
    got = verdicts(meter)
    assert {k: level for k, (level, _) in got.items()} == \
        {"light": "green", "glare": "green", "reads": "green", "size": "green"}
    assert meter.report()["level"] == "green" and meter.warnings() == []
    assert got["reads"][1] == "100% of the codes in view are read."


def test_a_dark_table_and_glare_on_the_pile_say_what_to_do() -> None:
    meter = CheckMeter()
    image = np.full((360, 640), 30, np.uint8)
    image[120:200, 250:380] = 255  # a lamp's spot on the pile
    meter.update(image, [], PILE)
    got = verdicts(meter)
    assert got["light"] == ("red", "Too dark to read the cards: turn on a lamp over the table.")
    assert got["glare"][0] == "red" and "tilt or move the lamp" in got["glare"][1]
    assert got["reads"][0] == "amber" and "lay the calibration card" in got["reads"][1]
    assert meter.report()["level"] == "red"
    (warning,) = meter.warnings()
    assert warning.startswith("Glare over the pile (")


def test_unread_codes_and_small_modules_lower_the_verdicts() -> None:
    meter = CheckMeter()
    for i in range(20):
        found = [code(63)] + ([code(80, damaged=True)] if i % 2 else [])  # 3 px modules
        meter.update(np.full((360, 640), 120, np.uint8), found, PILE)
    got = verdicts(meter)
    assert got["reads"] == ("red", "Only 67% of the codes in view are read: add light, or "
                            "lower the camera closer to the table.")
    assert got["size"][0] == "amber" and "3.0 px" in got["size"][1]
    assert module_px(code(84).corners) == 4.0


# -- the glare verdict: would a tag read there? (synthetic frames, the real decoder) -----

CARDS = [f"K7Q2M9XH{i:04d}" for i in range(4)]
SPOT = Patch("glare", 0.0, 60.0, (0.63, 0.66), 0.06)  # a lamp's reflection, bottom-right
TABLE_PILE = {"pile": [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]}


def table_frame(seed: int, patches: list[Patch]) -> np.ndarray:
    """Three cards on the pile, one of them (CARDS[1]) where the spot falls."""
    plays = [CardPlay(CARDS[0], at=0.0, position=(0.38, 0.38), tag_px=90, angle=10.0,
                      slide_s=0.01),
             CardPlay(CARDS[1], at=0.0, position=(0.62, 0.65), tag_px=90, angle=-15.0,
                      slide_s=0.01),
             CardPlay(CARDS[2], at=0.0, position=(0.45, 0.66), tag_px=90, angle=5.0,
                      slide_s=0.01)]
    table = SyntheticTable(CARDS, plays, seed=seed, zones=TABLE_PILE, realtime=False,
                           patches=patches)
    image: np.ndarray = table.render(3).image
    return image


def checked(image: np.ndarray) -> tuple[CheckMeter, set[str]]:
    found = default_decoder().decode(image)
    meter = CheckMeter()
    meter.update(image, found, TABLE_PILE)
    return meter, {d.text for d in found if d.text}


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_reflection_that_hides_a_tag_is_red_and_named(seed: int) -> None:
    meter, read = checked(table_frame(seed, [SPOT]))
    assert CARDS[1] not in read  # the tag under the spot is really lost
    assert verdicts(meter)["glare"] == (
        "red", "A tag would not read in the lamp's glare over the bottom-right of the pile: "
        "tilt or move the lamp until it is gone.")
    assert meter.report()["glare"]["pile"]["bottom-right"] == "lost"
    assert "top-left" not in meter.report()["glare"]["pile"]
    assert meter.warnings() == ["Glare over the pile (bottom-right) would hide a card's tag: "
                                "tilt or move the lamp so it does not shine into the camera."]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_same_table_without_the_reflection_is_green(seed: int) -> None:
    meter, read = checked(table_frame(seed, []))
    assert CARDS[1] in read
    assert verdicts(meter)["glare"] == ("green", "No glare over the play area.")
    assert meter.warnings() == [] and meter.report()["glare"] == {}


@pytest.mark.parametrize("seed", [1, 3, 5])
def test_a_bright_lamp_without_a_reflection_is_green(seed: int) -> None:
    """A lamp's pool of light: the table 3.5 times brighter, white card stock washed out
    to white, black print still dark. Every tag reads, so glare is green, although the
    share of white pixels alone (the old rule) would have said otherwise."""
    meter, read = checked(table_frame(seed, [Patch("lamp", 0.0, 60.0, (0.5, 0.5), 0.3, 2.5)]))
    assert {CARDS[1], CARDS[2]} <= read
    assert meter.glare["pile"] >= GLARE_WARN  # washed-out pixels: brightness alone
    assert verdicts(meter)["glare"] == ("green", "No glare over the play area.")


def test_a_tag_read_where_the_glare_is_clears_that_part() -> None:
    """The model is a model: a code read right at the brightest spot of a part says a tag
    does read there."""
    image = table_frame(1, [SPOT])
    small = np.asarray(image.mean(axis=2), np.float32)
    parts = glare_parts(small, TABLE_PILE, 4.3)
    assert parts["pile"]["bottom-right"] == "lost"
    x0, x1 = (0.3 + 0.4 * 2 / 3) * 1280, 0.7 * 1280  # the pile's bottom-right part
    y0, y1 = (0.25 + 0.5 * 2 / 3) * 720, 0.75 * 720
    everywhere = [((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    assert "bottom-right" not in glare_parts(small, TABLE_PILE, 4.3, read=everywhere)["pile"]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_white_card_whose_tag_is_not_read_is_no_reflection(seed: int) -> None:
    """A plain white card (no print the camera sees) lies over the pile's top-left, as
    white as the stock around the codes read: its brightness is a card's, not a lamp's
    reflection, which washes out to white. No part is lost and the verdict is not red;
    the same card washed out to white is (one picture cannot tell it from a reflection)."""
    import cv2

    image = table_frame(seed, [])
    meter, read = checked(image)
    assert meter.report()["glare"] == {}
    black, white = np.median(list(meter._levels), axis=0)  # the codes' print and stock
    assert white < 250
    box = np.round(cv2.boxPoints(((0.37 * 1280, 0.33 * 720), (150, 200), 20.0)))
    card = image.copy()
    cv2.fillPoly(card, [box.astype(np.int32)], (white, white, white))
    parts = glare_parts(np.asarray(card.mean(axis=2), np.float32), TABLE_PILE,
                        meter.module_px(), (black, white))["pile"]
    assert "lost" not in parts.values()
    washed = image.copy()
    cv2.fillPoly(washed, [box.astype(np.int32)], (255, 255, 255))
    parts = glare_parts(np.asarray(washed.mean(axis=2), np.float32), TABLE_PILE,
                        meter.module_px(), (black, white))["pile"]
    assert parts.get("top-left") == "lost"
