"""The pipeline's side of the landing watch's settled reads (``vision.pile``, ``_settled``):
a tag the watch says was read on a card that lay on the pile is confirmed by the tracker
only once the tracker's own two reads of three can no longer book it, and only if it is
still read once, not yet seen, in a pile zone.

Plain gray frames through ``VisionPipeline._process``; the decoder reads what the test
says on each frame, and the watch's word (``LandingWatch.settled_reads``) is set by hand
between two frames, as the watch sets it while it looks at a frame.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import TagSeen
from tests.vision.scenes import FPS, PILE, tag_at
from vision.frames import Detection, Frame, Image
from vision.pipeline import CameraEvent, VisionPipeline

T0 = 100.0
PILE_AT = (160.0, 120.0)
BESIDE = (10.0, 10.0)  # outside the pile's zone (0.1-0.9 of the frame)


class Script:
    name = "script"

    def __init__(self, reads: dict[int, tuple[str, tuple[float, float]]]) -> None:
        self.reads, self.frame = reads, 0

    def decode(self, image: Image) -> list[Detection]:
        read = self.reads.get(self.frame)
        self.frame += 1
        return [] if read is None else [Detection(read[0], tuple(tag_at(read[1])), "script")]  # type: ignore[arg-type]


def run(reads: dict[int, tuple[str, tuple[float, float]]], said: dict[int, dict[str, float | None]],
        frames: int = 20, resolve: Any = None) -> list[tuple[int, TagSeen]]:
    """``frames`` frames; before frame ``i`` the watch says ``said[i]``: each ``TagSeen``
    with the frame it came on."""
    events: list[CameraEvent] = []
    out: list[tuple[int, TagSeen]] = []
    pipeline = VisionPipeline(None, Script(reads), TrackingConfig(),  # type: ignore[arg-type]
                              ZonesConfig(polygons={"pile": PILE}), events.append, landings=True,
                              resolve=resolve)
    image = np.full((240, 320), 90, np.uint8)
    for i in range(frames):
        if i in said:
            assert pipeline.landings is not None
            pipeline.landings.settled_reads.update(said[i])
        done = len(events)
        pipeline._process(Frame(image, T0 + i / FPS, i))
        out += [(i, e) for e in events[done:] if isinstance(e, TagSeen)]
    return out


def test_read_once_it_is_seen_two_frames_later_at_its_landing_time() -> None:
    """Read on frame 10 only: the tracker could book it by a read on frame 11 or 12; on
    frame 12 it cannot any more, and the watch's time stands."""
    assert run({10: ("X", PILE_AT)}, {10: {"X": T0 + 5 / FPS}}) == [
        (12, TagSeen("X", at=T0 + 5 / FPS, zone="pile", status="unknown"))]


def test_read_again_the_tracker_books_it_by_its_own_reads() -> None:
    """The watch gave the read to a group that settled before the card (another card's,
    around it) on the frame of its first read; it is read again on the next frame: timed
    by its reads, once (cond-tune fingers video 9, #41: booked 0.45 s before it landed)."""
    assert run({10: ("X", PILE_AT), 11: ("X", PILE_AT)}, {10: {"X": T0}}) == [
        (11, TagSeen("X", at=T0 + 10 / FPS, zone="pile", status="unknown"))]


def test_no_time_from_the_watch_is_no_card() -> None:
    """The read explained a group that is no card lying there (None): nothing, and a time
    given for it on the next frame does not override that first word."""
    assert run({10: ("X", PILE_AT)}, {10: {"X": None}, 11: {"X": T0}}) == []


def test_a_tag_read_outside_the_pile_is_not_confirmed() -> None:
    assert run({10: ("X", BESIDE)}, {10: {"X": T0}}) == []


def test_one_read_books_only_a_card_of_our_decks() -> None:
    """Tuning glare 74: a stray decode of the lamp's glare ("409519", printed for no deck)
    read once where a card lay was confirmed, and the table refused it. One read books
    only a tag the decks know; an unknown one is left to the tracker's two reads of three."""
    def resolve(payload: str) -> Any:
        return SimpleNamespace(status="ok" if payload.startswith("TTRCV") else "unknown")

    assert run({10: ("409519", PILE_AT)}, {10: {"409519": T0}}, resolve=resolve) == []
    seen = run({10: ("TTRCVX", PILE_AT)}, {10: {"TTRCVX": T0}}, resolve=resolve)
    assert [(i, e.payload, e.at) for i, e in seen] == [(12, "TTRCVX", T0)]
