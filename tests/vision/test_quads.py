"""Phantom reads: codes inside codes, refused texts over accepted cards, empty outlines."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest
import segno

from tests.vision.conftest import qr_image
from vision.frames import Corners, Detection, Image
from vision.quads import area, drop_inner, drop_phantoms, inside, is_real, overlap
from vision.retry import RetryDecoder


def square(x: float, y: float, side: float) -> Corners:
    return ((x, y), (x + side, y), (x + side, y + side), (x, y + side))


def det(text: str, corners: Corners, modules: int = 21, backend: str = "zxing") -> Detection:
    return Detection(text, corners, backend, modules=modules)


def test_geometry() -> None:
    big, small, apart = square(0, 0, 100), square(40, 40, 10), square(200, 0, 10)
    assert area(big) == 10_000 and area(()) == 0
    assert inside(small, big) and not inside(big, small) and not inside(apart, big)
    assert overlap(small, big) and overlap(big, small) and not overlap(apart, big)
    assert not is_real(((0.0, 0.0),) * 4)
    assert not inside(((0.0, 0.0),) * 4, big)  # zxing-cpp's "no position" is nowhere


def test_a_code_made_of_the_outer_codes_modules_is_dropped() -> None:
    outer = det("OUTER", square(0, 0, 570), modules=57)  # 10 px a module
    phantom = det("353", square(200, 200, 210), modules=21)  # 10 px a module: the same grid
    apart = det("OTHER", square(700, 0, 210))
    assert drop_inner([outer, phantom, apart]) == [outer, apart]


def test_a_code_printed_over_another_with_finer_modules_is_kept() -> None:
    outer = det("OUTER", square(0, 0, 250), modules=25)  # 10 px a module
    printed = det("INNER", square(100, 100, 63), modules=21)  # 3 px a module (a double QR)
    unknown = det("PYZBAR", square(20, 20, 40), modules=0, backend="pyzbar")
    assert drop_inner([outer, printed, unknown]) == [outer, printed]


def test_a_refused_text_over_an_accepted_card_is_dropped() -> None:
    card = det("CARD", square(0, 0, 100))
    over = det("http://x", square(50, 50, 100))
    elsewhere = det("http://y", square(500, 500, 100))
    damaged_over = Detection("", square(10, 10, 80), "auto", damaged=True)
    kept = drop_phantoms([card, over, elsewhere, damaged_over], lambda t: t == "CARD")
    assert kept == [card, elsewhere]


def phantom_code(border: int = 1, module: int = 6) -> tuple[Image, str, str]:
    """A version-10 code whose own modules, in the middle, form a valid version-1 code.

    The small pattern is written into the large code's module grid (same module size,
    one module of quiet zone), and error correction level H still reads the large one.
    """
    outer_text, inner_text = "OUTER CODE WITH A SMALL ONE IN ITS MODULES", "353"
    outer = np.array(segno.make(outer_text, error="h", version=10, boost_error=False).matrix,
                     np.uint8)
    inner = np.array(segno.make(inner_text, error="l", micro=False).matrix, np.uint8)
    k = inner.shape[0] + 2 * border
    patch = np.zeros((k, k), np.uint8)
    patch[border:-border, border:-border] = inner
    at = outer.shape[0] // 2 - k // 2 + 4
    outer[at : at + k, at : at + k] = patch
    img = np.where(outer == 1, 0, 255).astype(np.uint8)
    img = cv2.resize(img, None, fx=module, fy=module, interpolation=cv2.INTER_NEAREST)
    q = 4 * module
    img = cv2.copyMakeBorder(img, q, q, q, q, cv2.BORDER_CONSTANT, value=255)
    return img, outer_text, inner_text


def test_a_large_code_whose_modules_contain_a_small_code_is_read_once() -> None:
    img, outer_text, inner_text = phantom_code()
    import zxingcpp

    raw = {r.text for r in zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)}
    assert raw == {outer_text, inner_text}  # zxing-cpp alone reads the phantom too
    assert [d.text for d in RetryDecoder().decode(img)] == [outer_text]


def test_a_double_qr_keeps_both_codes() -> None:
    outer = np.array(segno.make("OUTER CODE 0001", error="h", micro=False).matrix, np.uint8)
    img = cv2.resize(np.where(outer == 1, 0, 255).astype(np.uint8), None, fx=12, fy=12,
                     interpolation=cv2.INTER_NEAREST)
    img = cv2.copyMakeBorder(img, 48, 48, 48, 48, cv2.BORDER_CONSTANT, value=255)
    small = qr_image("IN1", module=3, border=1)
    c = img.shape[0] // 2 - small.shape[0] // 2
    img[c : c + small.shape[0], c : c + small.shape[0]] = small
    assert sorted(d.text for d in RetryDecoder().decode(img)) == ["IN1", "OUTER CODE 0001"]


def test_a_retry_read_inside_a_read_code_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The retry of a located code returns the big code and a short one inside it."""
    img = qr_image("BIGCODE0001", module=8)
    decoder = RetryDecoder()
    big = square(32, 32, 168)
    located = SimpleNamespace(valid=False, text="", extra=None, position=_pos(square(60, 60, 40)))

    def read(gray: Image, errors: bool) -> list[Any]:
        return [located]

    def retry(gray: Image, corners: Corners, order: object = None) -> list[Detection]:
        return [det("BIGCODE0001", big, 57, "retry-upscale"),  # ~3 px a module
                det("353", square(80, 80, 60), 21, "retry-upscale")]  # ~3 px a module

    monkeypatch.setattr(decoder._zx, "read", read)
    monkeypatch.setattr(decoder, "retry", retry)
    assert [d.text for d in decoder.decode(img)] == ["BIGCODE0001"]


def _pos(q: Corners) -> SimpleNamespace:
    p = [SimpleNamespace(x=x, y=y) for x, y in q]
    return SimpleNamespace(top_left=p[0], top_right=p[1], bottom_right=p[2], bottom_left=p[3])


def test_damaged_entries_have_real_corners_or_are_not_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoder = RetryDecoder(report_damaged=True)
    nowhere = SimpleNamespace(valid=False, text="", extra=None, position=_pos(((0.0, 0.0),) * 4))
    located = SimpleNamespace(valid=False, text="", extra=None,
                              position=_pos(square(20, 20, 60)))
    monkeypatch.setattr(decoder._zx, "read", lambda gray, errors: [nowhere, located])
    found = decoder.decode(np.full((120, 120), 255, np.uint8))
    assert [(d.damaged, d.corners) for d in found] == [(True, square(20, 20, 60))]
