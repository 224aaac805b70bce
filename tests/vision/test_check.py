"""The pre-game check (``vision.check``): each question green, amber or red, with its fix."""

from __future__ import annotations

import numpy as np

from vision.check import CheckMeter, module_px
from vision.frames import Detection

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
