"""The pipeline says when glare hides the pile (``PileSight``, issue 36), from the check's
glare trials on its own frames.

Synthetic frames (``vision.synthetic``: two cards on a drawn pile, a lamp's reflection
``Patch("glare")`` drawn by its renderer), 640x360, each scene rendered once and served
frame after frame at 30 fps from 100 s (frame ``i`` at ``100 + i / 30``) in lockstep
through the real decoder and the real check: the same events on any machine. The check
tries a tag in the glare on frames 0, 30, 60, ... (``EVERY * TRY_EVERY``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import PileSight
from vision.check import EVERY, TRY_EVERY
from vision.decoding import default_decoder
from vision.frames import Frame
from vision.pipeline import CameraEvent, VisionPipeline
from vision.synthetic import CardPlay, Patch, SyntheticTable

FPS = 30.0
T0 = 100.0
#: frames between two glare trials of the check
TRIAL = EVERY * TRY_EVERY
PILE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]
SEAT = [(0.75, 0.55), (0.98, 0.55), (0.98, 0.95), (0.75, 0.95)]
ZONES = {"pile": PILE, "seat:0": SEAT}
CARDS = [f"K7Q2M9XH{i:04d}" for i in range(2)]
PLAYS = [CardPlay(CARDS[0], at=0.0, position=(0.4, 0.4), tag_px=90, angle=10.0, slide_s=0.01),
         CardPlay(CARDS[1], at=0.0, position=(0.58, 0.62), tag_px=90, angle=-15.0,
                  slide_s=0.01)]
#: a lamp's reflection over the pile's bottom-right (washed out: a tag there is lost) ...
ON_PILE = (0.62, 0.66)
#: ... over the seat's zone, right of the pile
ON_SEAT = (0.87, 0.75)


def scene(where: tuple[float, float] | None = None, strength: float | None = None) -> np.ndarray:
    """The table with its two cards, and a reflection at ``where`` (none: no glare);
    ``strength`` 0.7 veils without washing out: a tag there barely reads."""
    patches = [] if where is None else [Patch("glare", 0.0, 60.0, where, 0.07, strength)]
    table = SyntheticTable(CARDS, PLAYS, width=640, height=360, seed=3, zones=ZONES,
                           realtime=False, patches=patches)
    image: np.ndarray = table.render(3).image
    return image


class Frames:
    """A ``FrameSource`` serving ``pictures(i)`` for frames ``0..n-1`` at ``T0 + i / FPS``."""

    def __init__(self, n: int, pictures: Callable[[int], np.ndarray]) -> None:
        self.n, self.pictures, self.i = n, pictures, 0
        self.closed = threading.Event()

    def read(self) -> Frame | None:
        if self.closed.is_set() or self.i >= self.n:
            return None
        i, self.i = self.i, self.i + 1
        return Frame(self.pictures(i), T0 + i / FPS, i)

    def close(self) -> None:
        self.closed.set()


def at(frame: int) -> float:
    return T0 + frame / FPS


def watch(n: int, pictures: Callable[[int], np.ndarray]
          ) -> tuple[list[CameraEvent], dict[int, dict[str, dict[str, str]]], list[bool]]:
    """Frames ``0..n-1`` through a lockstep pipeline: its events, the check's glare parts
    of each trial (by frame), and ``status()["pile_blind"]`` at each ``PileSight``."""
    events: list[CameraEvent] = []
    blind_now: list[bool] = []
    pipeline: Any = None

    def on_event(event: CameraEvent) -> None:
        events.append(event)
        if isinstance(event, PileSight):
            blind_now.append(pipeline.status()["pile_blind"])

    pipeline = VisionPipeline(Frames(n, pictures), default_decoder(), TrackingConfig(),
                              ZonesConfig(polygons=ZONES), on_event, lockstep=True,
                              landings=False)
    trials: dict[int, dict[str, dict[str, str]]] = {}
    seen = [0]

    def on_frame(frame: Frame) -> None:
        if pipeline.check.trials != seen[0]:
            seen[0] = pipeline.check.trials
            trials[frame.index] = {k: dict(v) for k, v in pipeline.check.parts.items()}

    pipeline.on_frame = on_frame
    pipeline.start()
    assert pipeline.wait_ended(timeout=120)  # a safety net, not a speed limit
    pipeline.stop()
    assert pipeline.status()["dropped"] == 0
    return events, trials, blind_now


def sights(events: list[CameraEvent]) -> list[PileSight]:
    return [e for e in events if isinstance(e, PileSight)]


def plain_card(image: np.ndarray, where: tuple[float, float]) -> np.ndarray:
    """``image`` with a plain white card (no print: a blank, or a card whose print no
    camera sees) lying at ``where``, 70x100 px, as white as the stock around the codes
    read in this picture (the 90th percentile inside the first: a card's white in this
    light, not washed out)."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    code = default_decoder().decode(gray)[0]
    (x0, y0), (x1, y1) = np.min(code.corners, axis=0), np.max(code.corners, axis=0)
    white = float(np.percentile(gray[int(y0):int(y1), int(x0):int(x1)], 90))
    assert white < 250  # the card's stock is not washed out: a lamp's reflection would be
    out = image.copy()
    h, w = out.shape[:2]
    box = cv2.boxPoints(((where[0] * w, where[1] * h), (70, 100), 20.0))
    cv2.fillPoly(out, [np.round(box).astype(np.int32)], (white, white, white))
    return out


@pytest.fixture(scope="module")
def pictures() -> dict[str, np.ndarray]:
    clean = scene()
    return {"clean": clean, "pile": scene(ON_PILE), "veil": scene(ON_PILE, 0.7),
            "seat": scene(ON_SEAT), "card": plain_card(clean, (0.62, 0.35))}


def test_glare_over_the_pile_turns_it_blind_then_clear(pictures: dict[str, np.ndarray]) -> None:
    """The reflection shines from frame 35 to 94: the trials of frames 60 and 90 find the
    same part lost (blind at 90, that frame's time: two trials in a row, ``BLIND_AFTER``);
    those of frames 120 and 150 find none: clear at 150."""
    appears, goes = 35, 95
    events, trials, blind_now = watch(
        151, lambda i: pictures["pile" if appears <= i < goes else "clean"])
    assert sorted(trials) == [0, 30, 60, 90, 120, 150]
    assert "lost" in trials[60]["pile"].values() and "lost" in trials[90]["pile"].values()
    assert not any("lost" in trials[f]["pile"].values() for f in (0, 30, 120, 150))
    assert sights(events) == [PileSight(at(90), True), PileSight(at(150), False)]
    assert at(appears) <= at(90) < at(appears + 2 * TRIAL)  # within two trials of appearing
    assert blind_now == [True, False]
    # after that frame's tag events: the PileSight is the last event of its frame
    blind = events.index(PileSight(at(90), True))
    assert all(e.at <= at(90) for e in events[:blind])
    assert all(not isinstance(e, PileSight) or e.at == at(150) for e in events[blind + 1:])


def test_a_glare_that_flickers_between_lost_and_barely_turns_once(
        pictures: dict[str, np.ndarray]) -> None:
    """Lost at the trials of frames 30 and 60 (blind at 60), barely at 90, lost at 120,
    barely at 150, gone at 180: one good trial between lost ones is not enough to clear,
    two are: blind once, clear once."""
    def picture(i: int) -> np.ndarray:
        if i < 15 or i >= 165:
            return pictures["clean"]
        if i < 75 or 105 <= i < 135:
            return pictures["pile"]
        return pictures["veil"]

    events, trials, _ = watch(181, picture)
    states = {f: set(trials[f]["pile"].values()) for f in (30, 60, 90, 120, 150, 180)}
    assert states == {30: {"lost"}, 60: {"lost"}, 90: {"barely"}, 120: {"lost"},
                      150: {"barely"}, 180: set()}
    assert sights(events) == [PileSight(at(60), True), PileSight(at(180), False)]


def test_a_plain_white_card_over_the_pile_is_no_glare(pictures: dict[str, np.ndarray]) -> None:
    """A white card whose print the camera cannot see lies over the pile's top right for
    four trials in a row: its stock is as bright as a card's in this light, not washed
    out as a reflection is, so no part is lost and the pile is never said blind (before:
    four parts lost on every trial, blind from the second: a held-apart ``beside`` video
    had its clock off for 3 s with no glare at all)."""
    events, trials, _ = watch(91, lambda i: pictures["card"])
    assert sorted(trials) == [0, 30, 60, 90]
    assert not any("lost" in trials[f]["pile"].values() for f in trials)
    assert sights(events) == []


def test_glare_over_a_seat_only_says_nothing(pictures: dict[str, np.ndarray]) -> None:
    events, trials, _ = watch(31, lambda i: pictures["seat"])
    assert sorted(trials) == [0, 30]
    assert "lost" in trials[30]["seat:0"].values() and trials[30]["pile"] == {}
    assert sights(events) == []


def test_scan_events_print_the_piles_sight() -> None:
    """``companion scan --events``: blind and clear, with no card."""
    from vision.replay import event_record

    assert event_record(PileSight(4.25, True)) == {
        "event": "blind", "t": 4.25, "zone": "pile", "status": "glare", "game": None,
        "card": None, "serial": None, "payload": ""}
    cleared = event_record(PileSight(6.0, False))
    assert (cleared["event"], cleared["status"]) == ("clear", "readable")
