"""A code one of whose finder patterns a lamp's glare washed out (``vision.washed``).

A version 1 code of the demo deck's length, printed dark on light paper, tilted on a dark
table; a lamp's reflection (pure white, a soft rim) over its top-left finder. No decoder
locates it; drawn back from the two finders left in view, it is read. Each test fails with
its rule off: the shipped decoder without ``washed`` reads nothing, a finder hidden by
print (a fingertip) is never drawn back, and a video looks at a spot once its picture
settled, once.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.retry as retry_module
from tests.vision.conftest import qr_image
from vision.frames import Detection, Image
from vision.retry import RetryDecoder
from vision.washed import glare_spots, read_washed

PAYLOAD = "TTRCVFMTCSEC4HFQSOMK"  # 20 characters: a tag of our decks, version 1, level M
MODULE, BORDER = 5, 4
ORIGIN = (170.0, 90.0)  # where the code's picture (quiet zone included) lies on the table
ANGLE = 17.0


def table(cover: int | None = 255, radius: float = 6.0) -> tuple[Image, tuple[float, float]]:
    """The table (480 x 360, gray) with the code on it, and where its top-left finder's
    centre lies; ``cover``: the level of a disc of ``radius`` modules over that finder (255:
    a lamp's reflection, with a soft rim; None: nothing)."""
    code = qr_image(PAYLOAD, module=MODULE, border=BORDER)
    paper = np.where(code == 0, 35, 215).astype(np.uint8)  # ink and lit paper, not white
    side = paper.shape[0]
    m = cv2.getRotationMatrix2D((side / 2, side / 2), ANGLE, 1.0)
    m[:, 2] += ORIGIN
    out = cv2.warpAffine(paper, m, (480, 360), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=80)
    finder = (BORDER + 3.5) * MODULE
    cx, cy = m @ np.array([finder, finder, 1.0])
    if cover is not None:
        disc = np.zeros_like(out)
        cv2.circle(disc, (round(cx), round(cy)), round(radius * MODULE), 255, -1)
        rim = cv2.GaussianBlur(disc, (0, 0), MODULE / 2).astype(np.float32) / 255
        out = np.round(out * (1 - rim) + cover * rim).astype(np.uint8)
        out[disc > 0] = cover
    return out, (float(cx), float(cy))


def texts(found: list[Detection]) -> set[str]:
    return {d.text for d in found if not d.damaged}


def test_a_code_with_a_finder_washed_out_is_read_from_the_other_two() -> None:
    frame, _ = table()
    assert texts(RetryDecoder(washed=False).decode(frame)) == set()
    assert texts(RetryDecoder().decode(frame)) == {PAYLOAD}
    clean, _ = table(cover=None)  # the same code in full view: read as ever
    assert texts(RetryDecoder(washed=False).decode(clean)) == {PAYLOAD}


def test_a_finder_hidden_by_print_is_never_drawn_back() -> None:
    """A dark disc (a fingertip) over the finder: nothing there is washed out, so nothing
    is drawn over it and no read is tried."""
    frame, _ = table(cover=60)
    tried: list[Image] = []

    def reader(picture: Image) -> list[Detection]:
        tried.append(picture)
        return []

    assert read_washed(reader, frame) == []
    assert tried == []


def test_glare_spots_are_the_washed_out_blobs_with_the_table_around_them() -> None:
    frame, (cx, cy) = table()
    spots = glare_spots(frame)
    assert len(spots) == 1
    x0, y0, x1, y1 = spots[0]
    assert x0 < cx < x1 and y0 < cy < y1
    specks = np.full((360, 480), 80, np.uint8)
    specks[100:102, 100:102] = 255  # a glint on a button: no spot
    assert glare_spots(specks) == []


def test_in_a_video_a_spot_is_looked_at_once_its_picture_settled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames of a still table: the first look at the spot only notes its picture; the
    next one (``WASHED_EVERY`` frames on), the same picture, reads the code, which then
    stands; later looks at the same picture read nothing again (no cost on a still
    table). A card that lands by the spot changes its picture: looked at again once it
    settles."""
    calls: list[int] = []
    real = retry_module.read_washed

    def counted(read: object, gray: Image, skip: object = ()) -> list[Detection]:
        calls.append(decoder._video_frames)
        return real(read, gray, skip)  # type: ignore[arg-type]

    monkeypatch.setattr(retry_module, "read_washed", counted)
    decoder = RetryDecoder()
    frame, (cx, cy) = table()
    read: list[set[str]] = []
    for _ in range(3 * retry_module.WASHED_EVERY):
        decoder.expect(frozenset(read[-1]) if read else frozenset())
        read.append(texts(decoder.decode(frame)))
    looks = [n for n in range(1, 3 * retry_module.WASHED_EVERY + 1)
             if n % retry_module.WASHED_EVERY == 1]
    assert calls == [looks[1]]  # the second look, once
    assert PAYLOAD not in set().union(*read[:looks[1] - 1])
    assert all(PAYLOAD in r for r in read[looks[1] - 1:])
    landed = frame.copy()
    landed[int(cy) + 60:int(cy) + 110, int(cx) - 120:int(cx) - 60] = 200  # a card beside
    for _ in range(2 * retry_module.WASHED_EVERY):
        decoder.expect(frozenset(read[-1]))
        read.append(texts(decoder.decode(landed)))
    assert len(calls) == 2  # looked at again once the new picture settled
