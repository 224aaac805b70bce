from __future__ import annotations

import logging
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from tests.vision.conftest import qr_image
from vision import backends, decoding, frames
from vision.backends import DecoderUnavailableError, OpenCVDecoder, PyzbarDecoder, ZxingDecoder
from vision.decoding import default_decoder
from vision.frames import Decoder, Image
from vision.retry import RetryDecoder

BACKENDS = [ZxingDecoder, PyzbarDecoder, OpenCVDecoder, RetryDecoder]


@pytest.mark.parametrize("cls", BACKENDS)
@pytest.mark.parametrize("colour", [False, True])
def test_reads_the_payload_exactly_with_corners(cls: type, colour: bool) -> None:
    img = qr_image("K7Q2M9XH4T1R", module=8, border=4)
    if colour:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        img[:, :, 2] = 255 - img[:, :, 2] // 4  # a red cast: the first channel is not enough
    found = cls().decode(img)
    assert [d.text for d in found] == ["K7Q2M9XH4T1R"]
    corners = np.array(found[0].corners)
    assert corners.shape == (4, 2)
    # the code spans modules 4..25 of 29 at 8 px a module
    assert corners.min() == pytest.approx(32, abs=6)
    assert corners.max() == pytest.approx(200, abs=6)


@pytest.mark.parametrize("cls", BACKENDS)
def test_blank_image_reads_nothing(cls: type) -> None:
    assert cls().decode(np.full((240, 320), 200, np.uint8)) == []


@pytest.mark.parametrize("cls", [ZxingDecoder, OpenCVDecoder, RetryDecoder])
def test_non_utf8_payload_does_not_raise(cls: type) -> None:
    found = cls().decode(qr_image(b"\xff\xfe K7", module=8))
    assert len(found) <= 1  # read (as Latin-1) or not, but never an exception


def test_several_codes_in_one_frame() -> None:
    left, right = qr_image("AAAA1111", module=6), qr_image("BBBB2222", module=6)
    frame = np.hstack([left, np.full((left.shape[0], 50), 255, np.uint8), right])
    assert sorted(d.text for d in default_decoder().decode(frame)) == ["AAAA1111", "BBBB2222"]


def test_default_is_the_retry_pipeline() -> None:
    assert default_decoder().name == "auto"
    assert default_decoder("pyzbar").name == "pyzbar"


def test_decoding_still_exports_the_moved_names() -> None:
    for name in ("DecoderUnavailableError", "ZxingDecoder", "PyzbarDecoder", "OpenCVDecoder",
                 "to_gray"):
        assert getattr(decoding, name) is getattr(backends, name)
    for name in ("Detection", "Decoder", "Image", "Corners"):
        assert getattr(decoding, name) is getattr(frames, name)


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="choose one of"):
        default_decoder("tesseract")


def test_missing_library_falls_back_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = decoding._make

    def without_zxing(name: str) -> Decoder:
        if name in ("auto", "zxing"):
            raise DecoderUnavailableError("zxing-cpp is not installed")
        return real(name)

    monkeypatch.setattr(decoding, "_make", without_zxing)
    with caplog.at_level(logging.WARNING):
        decoder = default_decoder()
    assert decoder.name == "pyzbar"
    assert "unavailable" in caplog.text and "pyzbar" in caplog.text


def test_no_library_at_all_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(name: str) -> Decoder:
        raise DecoderUnavailableError(f"{name} missing")

    monkeypatch.setattr(decoding, "_make", nothing)
    with pytest.raises(DecoderUnavailableError, match="Install zxing-cpp"):
        default_decoder()


def test_retry_reads_a_code_zxing_located_but_could_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    img = qr_image("RETRY0001", module=8)
    decoder = RetryDecoder()
    calls: list[tuple[int, ...]] = []
    real_read = decoder._zx.read

    def first_pass_fails(gray: Image, errors: bool) -> list[object]:
        calls.append(gray.shape)
        results = real_read(gray, errors)
        if len(calls) == 1:  # the whole frame: pretend the checksum failed
            return [SimpleNamespace(valid=False, text="", position=r.position, extra=None)
                    for r in results]
        return results

    monkeypatch.setattr(decoder._zx, "read", first_pass_fails)
    found = decoder.decode(img)
    assert [d.text for d in found] == ["RETRY0001"]
    assert found[0].backend == "retry-upscale2"  # the first variant of the shipped order
    assert len(calls) >= 2 and calls[1] != calls[0]  # the retry ran on an upscaled crop
