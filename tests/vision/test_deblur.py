"""The search for codes zxing-cpp did not locate (``vision.deblur``, ``RetryDecoder._search``).

The scenes are drawn here, not taken from the benchmark set: a card with a version-1 code
of 3 px modules on a noisy table, smeared by a line blur as a sliding card is.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.conftest import qr_image
from vision.backends import ZxingDecoder
from vision.deblur import blur_direction, blur_length, code_blobs, look, wiener
from vision.frames import Image
from vision.quads import overlap
from vision.retry import RetryDecoder

PAYLOAD = "K7Q2M9XH0001"


def line_blur(image: Image, length: int, degrees: float) -> Image:
    """``image`` smeared along ``degrees`` by a ``length`` px line (as a sliding card)."""
    k = np.zeros((length + 2, length + 2), np.float32)
    c, a = (length + 1) / 2, math.radians(degrees)
    cv2.line(k, (round(c - c * math.cos(a)), round(c - c * math.sin(a))),
             (round(c + c * math.cos(a)), round(c + c * math.sin(a))), 1.0, 1)
    out: Image = cv2.filter2D(image, -1, k / k.sum())
    return out


def scene(blur: int = 0, degrees: float = 0.0, module: int = 3, disc: bool = False,
          seed: int = 1) -> tuple[Image, tuple[int, int, int, int]]:
    """A 640x360 table frame with one card; returns it and the code's box (x, y, w, h)."""
    rng = np.random.default_rng(seed)
    frame = (np.full((360, 640), 70.0) + rng.normal(0, 6, (360, 640))).clip(0, 255)
    frame = frame.astype(np.uint8)
    code = qr_image(PAYLOAD, module=module, border=2)
    h, w = code.shape
    x, y = 260, 120
    cv2.rectangle(frame, (x - 20, y - 20), (x + w + 20, y + h + 20), 235, -1)
    frame[y:y + h, x:x + w] = np.where(code < 128, 30, 235)
    if disc:  # a card's dark picture touching the code's quiet zone
        cv2.circle(frame, (x + 2, y + h // 2), 22, 40, -1)
    if blur:
        frame = line_blur(frame, blur, degrees)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.6)
    frame = (frame + rng.normal(0, 3, frame.shape)).clip(0, 255).astype(np.uint8)
    return frame, (x, y, w, h)


def texts(decoder: object, image: Image) -> list[str]:
    return [d.text for d in decoder.decode(image) if not d.damaged]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("blur", "degrees"), [(5, 0), (6, 0), (7, 0), (5, 30), (7, 60)])
def test_a_smeared_code_zxing_cannot_locate_is_read_once(blur: int, degrees: float) -> None:
    frame, (x, y, w, h) = scene(blur, degrees)
    assert ZxingDecoder(report_damaged=True).decode(frame) == []  # the case: not even located
    found = RetryDecoder().decode(frame)
    assert [d.text for d in found] == [PAYLOAD]
    assert found[0].backend == "search-smeared"
    truth = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    assert overlap(found[0].corners, truth)  # where the code is, in frame pixels


def test_without_the_search_the_same_smear_is_missed() -> None:
    """The search is what reads it (the test above fails without it)."""
    frame, _ = scene(6, 0)
    assert texts(RetryDecoder(search=False), frame) == []


def test_a_code_whose_quiet_zone_a_picture_touches_is_read_binarised() -> None:
    frame, _ = scene(module=4, disc=True)
    assert texts(ZxingDecoder(), frame) == []
    found = RetryDecoder().decode(frame)
    assert [(d.text, d.backend) for d in found] == [(PAYLOAD, "search-sharp")]


@pytest.mark.parametrize("degrees", [0, 30, 60, 100, 135])
def test_the_smears_direction_is_measured(degrees: float) -> None:
    frame, (x, y, w, h) = scene(7, degrees)
    angle, anisotropy = blur_direction(frame[y:y + h, x:x + w])
    off = abs((math.degrees(angle) - degrees + 90) % 180 - 90)
    assert off <= 15
    assert look(frame[y:y + h, x:x + w])[0] == "smeared"
    assert anisotropy < 0.62


def test_a_sharp_code_and_a_straight_edge_are_not_smeared() -> None:
    frame, (x, y, w, h) = scene()
    assert look(frame[y:y + h, x:x + w])[0] == "sharp"
    edge = np.zeros((80, 80), np.uint8)
    edge[:, 40:] = 220
    assert look(edge)[0] == "edge"


def test_the_smears_length_is_estimated_along_it() -> None:
    """The cepstrum's dip sits near the smear's length (the drawn line covers length+1 px)."""
    frame, (x, y, w, h) = scene(7, 135)
    box = frame[y:y + h, x:x + w]
    angle, length = blur_length(box, blur_direction(box)[0])
    assert 6.0 <= length <= 9.5
    assert abs((math.degrees(angle) - 135 + 90) % 180 - 90) <= 15


def test_wiener_undoes_a_known_blur() -> None:
    code = cv2.copyMakeBorder(qr_image(PAYLOAD, module=3, border=2), 20, 20, 20, 20,
                              cv2.BORDER_CONSTANT, value=255)
    smeared = line_blur(code, 6, 0)
    sharp = wiener(smeared, 7.0, 0.0)

    def likeness(image: Image) -> float:  # the best correlation within a pixel's shift
        return max(float(np.corrcoef(np.roll(image, (dy, dx), (0, 1)).ravel().astype(float),
                                     code.ravel().astype(float))[0, 1])
                   for dy in (-1, 0, 1) for dx in (-1, 0, 1))

    assert likeness(sharp) > likeness(smeared) + 0.04
    assert likeness(wiener(smeared, 7.0, math.pi / 2)) < likeness(sharp)  # the wrong way


def test_code_blobs_finds_the_code_and_not_the_empty_table() -> None:
    frame, (x, y, w, h) = scene()
    truth = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    assert any(overlap(q, truth) for q in code_blobs(frame))
    table = scene()[0]
    table[100:300, 200:500] = 70  # the card taken away: only the noisy cloth
    assert code_blobs(cv2.GaussianBlur(table, (0, 0), 1.0)) == []


@pytest.mark.parametrize("shape", [(1, 1), (2, 50), (30, 30), (36, 200), (0, 0)])
def test_tiny_images_give_nothing_and_never_raise(shape: tuple[int, int]) -> None:
    image = np.full(shape, 128, np.uint8)
    assert RetryDecoder().decode(image) == []
    assert code_blobs(image) == []
    assert look(image)[0] == "edge"


def test_noise_and_pictures_give_no_reads() -> None:
    """The search never invents a code: textures, edges and pictures read as nothing."""
    rng = np.random.default_rng(7)
    frame = rng.integers(0, 256, (360, 640), dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    for i in range(12):  # card corners, pictures, text-like stripes
        cv2.rectangle(frame, (20 + 50 * i, 40), (60 + 50 * i, 90), 255 * (i % 2), -1)
        cv2.circle(frame, (30 + 50 * i, 200), 12, 40, -1)
        cv2.putText(frame, "K7Q2", (10 + 50 * i, 300), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 255, 1)
    assert RetryDecoder().decode(frame) == []
    assert RetryDecoder().decode(line_blur(frame, 6, 45)) == []


class _Ticks:
    """A thread clock that moves one second a call: budgets become exact."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def _searches(monkeypatch: pytest.MonkeyPatch, decoder: RetryDecoder) -> list[int]:
    calls: list[int] = []
    original = decoder._search

    def counted(gray: Image, found: list[Any]) -> list[Any]:
        calls.append(len(found))
        return original(gray, found)

    monkeypatch.setattr(decoder, "_search", counted)
    return calls


def test_a_video_frame_that_reads_every_expected_code_is_not_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frame, _ = scene()  # a sharp code zxing-cpp reads
    decoder = RetryDecoder()
    calls = _searches(monkeypatch, decoder)
    monkeypatch.setattr("vision.retry.BUDGET", 1e9)
    monkeypatch.setattr("vision.retry.SEARCH_EVERY", 1)
    decoder.expect(frozenset({PAYLOAD}))
    assert texts(decoder, frame) == [PAYLOAD] and calls == []  # the table has not changed
    decoder.expect(frozenset({PAYLOAD, "K7Q2M9XH0002"}))  # a code the last frame read is gone
    assert texts(decoder, frame) == [PAYLOAD] and calls == [1]
    assert texts(decoder, frame) == [PAYLOAD] and calls == [1, 1]  # a photo: always searched


def test_a_video_frames_search_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries and the search may take ``BUDGET`` times the whole-frame pass, no more."""
    frame, _ = scene(6, 0)  # only the search reads it
    monkeypatch.setattr("vision.retry.time.thread_time", _Ticks())
    monkeypatch.setattr("vision.retry.BUDGET", 0.0)
    monkeypatch.setattr("vision.retry.SEARCH_EVERY", 1)
    decoder = RetryDecoder()
    decoder.expect(frozenset({"K7Q2M9XH0002"}))
    assert texts(decoder, frame) == []  # no time left for the search
    monkeypatch.setattr("vision.retry.BUDGET", 1e9)
    decoder.expect(frozenset({"K7Q2M9XH0002"}))
    assert texts(decoder, frame) == [PAYLOAD]


def test_a_video_is_searched_on_one_frame_in_search_every(monkeypatch: pytest.MonkeyPatch,
                                                          ) -> None:
    frame, _ = scene(6, 0)  # only the search reads it
    monkeypatch.setattr("vision.retry.BUDGET", 1e9)
    monkeypatch.setattr("vision.retry.WHOLE_EVERY", 1)  # one picture: every frame whole
    decoder = RetryDecoder()
    calls = _searches(monkeypatch, decoder)
    for _ in range(6):
        decoder.expect(frozenset())
        decoder.decode(frame)
    assert len(calls) == 2  # frames 3 and 6
