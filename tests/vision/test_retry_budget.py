"""The shipped decoder's cost on video: what it skips, on a fake CPU clock (never the
machine's speed: every cost here is set by the test)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from tests.vision.conftest import qr_image
from vision.frames import Corners, Detection, Image
from vision.retry import RetryDecoder


class _Clock:
    """CPU time that moves only when the test says a step took some."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _unreadable(decoder: RetryDecoder, clock: _Clock, passes: list[float]) -> list[int]:
    """The whole-frame pass locates the code but cannot read it; each pass costs the next
    of ``passes`` (the last one again when they run out). Returns the retries' log."""
    real_read = decoder._zx.read
    full: list[tuple[int, ...]] = []

    def read(gray: Image, errors: bool) -> list[Any]:
        results = real_read(gray, errors)
        if not full or gray.shape == full[0]:  # the whole frame
            full.append(gray.shape)
            clock.now += passes[min(len(full), len(passes)) - 1]
            return [SimpleNamespace(valid=False, text="", position=r.position, extra=None)
                    for r in results]
        return results

    decoder._zx.read = read  # type: ignore[method-assign]
    return []


def _retries(decoder: RetryDecoder, clock: _Clock, cost: float) -> list[Corners]:
    log: list[Corners] = []

    def retry(gray: Image, corners: Corners, order: Any = None) -> list[Detection]:
        log.append(corners)
        clock.now += cost
        return []  # no retry reads it

    decoder.retry = retry  # type: ignore[method-assign]
    return log


def test_a_code_retried_in_vain_waits_while_it_stays_put(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    clock = _Clock()
    monkeypatch.setattr("vision.retry.time.thread_time", clock)
    # every frame whole: these frames are one picture, where only the moved parts of a
    # video frame would be decoded (nothing: the first frame's reads would stand)
    monkeypatch.setattr("vision.retry.WHOLE_EVERY", 1)
    monkeypatch.setattr("vision.retry.BUDGET", 1e9)
    frame = np.pad(qr_image("HOPELESS01", module=6), 40, constant_values=255)
    decoder = RetryDecoder(search=False)
    _unreadable(decoder, clock, [1.0])
    log = _retries(decoder, clock, 0.1)
    for _ in range(7):
        decoder.expect(frozenset())
        decoder.decode(frame)
    assert len(log) == 2  # frames 1 and 7 (HOPELESS_FOR): unmoved, it waited in between
    decoder.expect(frozenset())
    decoder.decode(np.roll(frame, 12, axis=1))  # moved: retried at once
    assert len(log) == 3
    decoder.decode(np.roll(frame, 12, axis=1))  # a photo (not told): always retried
    assert len(log) == 4


def test_a_retry_that_would_overrun_the_frames_budget_does_not_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr("vision.retry.time.thread_time", clock)
    # every frame whole: these frames are one picture, where only the moved parts of a
    # video frame would be decoded (nothing: the first frame's reads would stand)
    monkeypatch.setattr("vision.retry.WHOLE_EVERY", 1)
    monkeypatch.setattr("vision.retry.HOPELESS_FOR", 0)  # retried every frame
    frame = np.pad(qr_image("OVERRUN01", module=6), 40, constant_values=255)
    decoder = RetryDecoder(search=False)
    # passes of 10, 10, then 2 (a quiet frame); a retry costs 5; BUDGET 0.3
    _unreadable(decoder, clock, [10.0, 10.0, 2.0])
    log = _retries(decoder, clock, 5.0)
    decoder.expect(frozenset())
    decoder.decode(frame)
    assert len(log) == 1  # its cost was not known yet: it ran (and took 5, over 3)
    decoder.expect(frozenset())
    decoder.decode(frame)
    assert len(log) == 1  # 10 + 5 > 1.3 x 10: not started
    decoder.expect(frozenset())
    decoder.decode(frame)
    assert len(log) == 2  # a quick pass (2): room up to 1.3x the slow frames' pass (10)
    decoder.decode(frame)  # a photo: no budget
    assert len(log) == 3
