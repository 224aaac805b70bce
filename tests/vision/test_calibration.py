"""The calibration card says which --size to print, from what the camera reads of it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.decks import CALIBRATION_SERIAL, demo_deck, encode_payload
from tests.vision.conftest import qr_image
from vision.calibration import CALIBRATION_SIZES, RELIABLE_MODULE_PX, advise


def square(side: float, x: float = 0.0) -> tuple[tuple[float, float], ...]:
    return ((x, 0.0), (x + side, 0.0), (x + side, side), (x, side))


def test_the_largest_codes_read_give_pixels_a_millimetre() -> None:
    # 5 px a mm: the 50, 40, 30, 25, 20 and 16 mm codes are read, the smaller ones are not
    outlines = [square(5 * mm, x=300 * i) for i, mm in enumerate((16, 50, 30, 20, 40, 25))]
    advice = advise(outlines)
    assert advice is not None and advice.px_per_mm == pytest.approx(5.0)
    # 4 px modules of a 21-module code need 16.8 mm at 5 px a mm: the next size up is 20
    assert RELIABLE_MODULE_PX == 4.0 and advice.size_mm == 20
    assert "--size 20" in advice.sentence()


def test_a_camera_too_far_away_is_told_so() -> None:
    advice = advise([square(1.0 * max(CALIBRATION_SIZES))])  # 1 px a mm
    assert advice is not None and advice.size_mm is None
    assert "mount the camera lower" in advice.sentence()


def test_nothing_read_or_two_cards_give_no_advice() -> None:
    assert advise([]) is None
    assert advise([square(10.0)] * (len(CALIBRATION_SIZES) + 1)) is None


def test_scan_of_a_calibration_card_photo_says_which_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = encode_payload(demo_deck("nasty7"), CALIBRATION_SERIAL)
    photo = np.full((420, 1400), 255, np.uint8)
    x = 20
    for mm in (50, 40, 30, 25, 20, 16):  # printed sizes at 5 px a mm, quiet zone included
        code = qr_image(payload, module=1, border=4)
        side = round(5 * mm * code.shape[0] / 21)
        code = cv2.resize(code, (side, side), interpolation=cv2.INTER_NEAREST)
        photo[20 : 20 + side, x : x + side] = code
        x += side + 10
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), photo)
    assert main(["scan", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["tags"]) == 6
    assert record["calibration"]["size_mm"] == 20
    assert record["calibration"]["px_per_mm"] == pytest.approx(5.0, abs=0.3)
    assert main(["scan", str(path)]) == 0
    assert "print the stickers with --size 20" in capsys.readouterr().out
