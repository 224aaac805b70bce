"""A video frame is decoded only where its picture moved (``vision.retry``, issue 36's
cost): the reads elsewhere stand, a new code where the picture moved is read, and every
``WHOLE_EVERY`` frames the whole frame is decoded again. Drawn frames, no clock.

The tests set ``WHOLE_EVERY`` to 6 themselves (the product's value may change)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.conftest import qr_image
from vision.retry import RECENT, RetryDecoder

#: the regions as measured
WHOLE_EVERY = 6


@pytest.fixture(autouse=True)
def regions_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.retry.WHOLE_EVERY", WHOLE_EVERY)


def frame(*codes: tuple[str, int, int]) -> np.ndarray:
    """A gray 640x360 table with each code (text, x, y) pasted on a white sticker."""
    image = np.full((360, 640), 90, np.uint8)
    for text, x, y in codes:
        code = np.pad(qr_image(text, module=4), 16, constant_values=255)
        image[y:y + code.shape[0], x:x + code.shape[1]] = code
    return image


def decoded(monkeypatch: pytest.MonkeyPatch, decoder: RetryDecoder) -> list[tuple[int, int]]:
    """The shapes zxing-cpp's passes are given (the whole frame, or a part)."""
    shapes: list[tuple[int, int]] = []
    read = decoder._zx.read

    def spy(image: Any, **kw: Any) -> Any:
        shapes.append(image.shape[:2])
        return read(image, **kw)

    monkeypatch.setattr(decoder._zx, "read", spy)
    return shapes


def texts(decoder: RetryDecoder, image: np.ndarray, last: set[str]) -> list[str]:
    decoder.expect(frozenset(last))
    return sorted(d.text for d in decoder.decode(image))


def test_a_new_code_is_read_where_the_picture_moved_and_the_rest_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    decoder = RetryDecoder(search=False)
    shapes = decoded(monkeypatch, decoder)
    one = frame(("AAAA0001", 40, 40))
    two = frame(("AAAA0001", 40, 40), ("BBBB0002", 420, 180))
    assert texts(decoder, one, set()) == ["AAAA0001"]
    assert shapes == [(360, 640)]  # the first frame: whole
    assert texts(decoder, two, {"AAAA0001"}) == ["AAAA0001", "BBBB0002"]
    assert len(shapes) == 2 and shapes[1][0] * shapes[1][1] < 360 * 640 / 2  # a part
    for _ in range(RECENT + 1):
        assert texts(decoder, two, {"AAAA0001", "BBBB0002"}) == ["AAAA0001", "BBBB0002"]
    # where it moved is decoded for ``RECENT`` frames more, then nothing moved: no pass
    assert len(shapes) == 2 + RECENT and all(s == shapes[1] for s in shapes[1:])


def test_a_code_covered_is_no_longer_read(monkeypatch: pytest.MonkeyPatch) -> None:
    decoder = RetryDecoder(search=False)
    two = frame(("AAAA0001", 40, 40), ("BBBB0002", 420, 180))
    covered = two.copy()
    covered[170:330, 410:600] = 200  # a hand over the second
    assert texts(decoder, two, set()) == ["AAAA0001", "BBBB0002"]
    assert texts(decoder, covered, {"AAAA0001", "BBBB0002"}) == ["AAAA0001"]


def test_the_whole_frame_is_decoded_every_whole_every_frames(
        monkeypatch: pytest.MonkeyPatch) -> None:
    decoder = RetryDecoder(search=False)
    shapes = decoded(monkeypatch, decoder)
    one = frame(("AAAA0001", 40, 40))
    for _ in range(2 * WHOLE_EVERY):
        assert texts(decoder, one, {"AAAA0001"} if shapes else set()) == ["AAAA0001"]
    assert shapes == [(360, 640), (360, 640)]


def test_a_photo_is_always_decoded_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    decoder = RetryDecoder(search=False)
    shapes = decoded(monkeypatch, decoder)
    one = frame(("AAAA0001", 40, 40))
    for _ in range(3):
        assert sorted(d.text for d in decoder.decode(one)) == ["AAAA0001"]
    assert shapes == [(360, 640)] * 3


def test_a_code_the_whole_frame_pass_missed_stands_while_its_pixels_do_not_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Casablanca rig's frames (tests/games/casablanca/test_browser_game.py): now and
    then a whole-frame pass reads none of the still codes (the camera's noise). That miss
    must not stand for the frames after it, where nothing moved: a code read before, whose
    pixels have not changed since, is still there. A code whose pixels changed is not."""
    decoder = RetryDecoder(search=False)
    read = decoder._zx.read
    blind = [False]

    def flaky(image: Any, **kw: Any) -> Any:
        return [] if blind[0] else read(image, **kw)

    monkeypatch.setattr(decoder._zx, "read", flaky)
    two = frame(("AAAA0001", 40, 40), ("BBBB0002", 420, 180))
    got = [texts(decoder, two, set())]
    for i in range(1, 2 * WHOLE_EVERY):
        blind[0] = i == WHOLE_EVERY  # the second whole-frame pass reads nothing
        got.append(texts(decoder, two, set(got[-1])))
    assert all(g == ["AAAA0001", "BBBB0002"] for g in got), got
    covered = two.copy()
    covered[170:330, 410:600] = 200  # a hand over the second: its pixels changed
    blind[0] = True
    assert texts(decoder, covered, {"AAAA0001", "BBBB0002"}) == ["AAAA0001"]
