from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import TagLeft, TagSeen
from tests.vision.conftest import FakeClock
from vision.capture import _Slot
from vision.frames import Detection, Frame, Image
from vision.pipeline import VisionPipeline
from vision.sources import CameraError
from vision.synthetic import CardPlay, SyntheticTable

QUAD = ((600.0, 320.0), (680.0, 320.0), (680.0, 400.0), (600.0, 400.0))  # in the pile


class ScriptedSource:
    """Frames numbered 0..n-1 at 30 fps; raises CameraError at the indices in ``fail_at``.

    It hands out a frame only after the decoder took the previous one (``lockstep``), so
    no frame is dropped and the tests do not depend on the machine's load. The frame
    index is written into the image's first two pixels for ``IndexDecoder``.
    """

    def __init__(self, n: int, fail_at: tuple[int, ...] = ()) -> None:
        self.n, self.fail_at = n, set(fail_at)
        self.i = 0
        self.closed = 0
        self.lockstep = threading.Semaphore(1)

    def read(self) -> Frame | None:
        if self.i in self.fail_at:
            self.fail_at.discard(self.i)
            raise CameraError("camera 0 stopped delivering frames")
        if self.i >= self.n:
            return None
        closed, waited = self.closed, 0.0
        while not self.lockstep.acquire(timeout=0.05):  # the decoder took the last frame
            waited += 0.05
            if self.closed != closed:  # closed while it waited: the pipeline stops
                return None
            assert waited < 5, "the decoder never took the last frame"
        image = np.zeros((72, 128), np.uint8)
        image[0, 0], image[0, 1] = divmod(self.i, 256)
        self.i += 1
        return Frame(image, 100.0 + (self.i - 1) / 30, self.i - 1, display=None)

    def close(self) -> None:
        self.closed += 1


class IndexDecoder:
    """Sees a tag in every frame whose index is in ``frames`` (corners in the pile)."""

    name = "fake"

    def __init__(self, frames: range, text: str = "A", source: ScriptedSource | None = None) -> None:
        self.frames, self.text, self.source = frames, text, source
        self.count = 0

    def decode(self, image: Image) -> list[Detection]:
        self.count += 1
        index = int(image[0, 0]) * 256 + int(image[0, 1])
        if self.source is not None:
            self.source.lockstep.release()
        scale = image.shape[1] / 1280
        quad = tuple((x * scale, y * scale) for x, y in QUAD)
        return [Detection(self.text, quad, "fake")] if index in self.frames else []


@dataclass(frozen=True)
class Info:
    status: str
    game: str | None = None
    card: str | None = None
    serial: int | None = None
    name: str | None = None


#: one leave time everywhere (the pile's own 3 s is not what these tests are about)
LEAVE_1S = TrackingConfig(left_after_zone={})
#: a pile drawn in the middle of the frame (the default covers the whole play area)
PILE = [(0.35, 0.3), (0.65, 0.3), (0.65, 0.7), (0.35, 0.7)]


def run(pipeline: VisionPipeline) -> None:
    pipeline.start()
    assert pipeline.wait_ended(timeout=120)  # a safety net, not a speed limit
    pipeline.stop()


def collect() -> tuple[list[TagSeen | TagLeft], object]:
    events: list[TagSeen | TagLeft] = []
    return events, events.append


def test_events_carry_capture_time_zone_and_registry_fields() -> None:
    events, on_event = collect()
    source = ScriptedSource(60)
    info = Info("ok", "nasty7", "seven", 12, "Seven")
    pipeline = VisionPipeline(source, IndexDecoder(range(5, 20), source=source), LEAVE_1S, ZonesConfig(),
                              on_event, resolve=lambda p: info)  # type: ignore[arg-type]
    run(pipeline)
    assert events == [
        TagSeen("A", at=100.0 + 5 / 30, zone="pile", status="ok", game="nasty7", card="seven",
                serial=12),
        TagLeft("A", at=100.0 + 19 / 30, zone="pile", status="ok", game="nasty7", card="seven",
                serial=12),
    ]


def test_malformed_is_reported_as_unknown() -> None:
    events, on_event = collect()
    source = ScriptedSource(10)
    pipeline = VisionPipeline(source, IndexDecoder(range(0, 10), "http://x", source),
                              TrackingConfig(), ZonesConfig(), on_event,  # type: ignore[arg-type]
                              resolve=lambda p: Info("malformed"))
    run(pipeline)
    assert [(e.payload, e.status) for e in events] == [("http://x", "unknown")]


def test_camera_failure_is_retried_and_no_event_is_lost() -> None:
    events, on_event = collect()
    source = ScriptedSource(80, fail_at=(10, 10, 25))
    pipeline = VisionPipeline(source, IndexDecoder(range(8, 30), source=source), LEAVE_1S,
                              ZonesConfig(),
                              on_event, backoff=(0.01, 0.05))  # type: ignore[arg-type]
    run(pipeline)
    assert [type(e).__name__ for e in events] == ["TagSeen", "TagLeft"]
    assert source.closed >= 2
    status = pipeline.status()
    assert status["last_error"] == "camera 0 stopped delivering frames"
    assert status["state"] == "stopped"


def test_status_while_reconnecting_shows_attempt_and_next_retry() -> None:
    class Unplugged:
        def read(self) -> Frame | None:
            raise CameraError("cannot open camera 0: check that it is plugged in")

        def close(self) -> None:
            pass

    pipeline = VisionPipeline(Unplugged(), IndexDecoder(range(0)), TrackingConfig(),
                              ZonesConfig(), lambda e: None, backoff=(0.05, 0.2))
    pipeline.start()
    deadline = time.monotonic() + 60  # a safety net only: attempts come after 0.05 + 0.1 s
    while pipeline.status()["attempt"] < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    status = pipeline.status()
    pipeline.stop()
    assert status["state"] == "reconnecting"
    assert status["attempt"] >= 3
    assert 0 <= status["next_retry_in_s"] <= 0.2
    assert "plugged in" in status["last_error"]


def test_a_raising_decoder_or_handler_does_not_stop_the_pipeline() -> None:
    class Flaky(IndexDecoder):
        def decode(self, image: Image) -> list[Detection]:
            found = super().decode(image)
            if self.count == 3:
                raise RuntimeError("boom")
            return found

    calls: list[object] = []

    def handler(event: object) -> None:
        calls.append(event)
        raise RuntimeError("handler bug")

    source = ScriptedSource(30)
    pipeline = VisionPipeline(source, Flaky(range(0, 30), source=source), TrackingConfig(),
                              ZonesConfig(), handler)  # type: ignore[arg-type]
    run(pipeline)
    assert len(calls) == 1
    assert pipeline.status()["frames"] == 29


def test_slot_keeps_only_the_newest_frame() -> None:
    slot = _Slot()
    img = np.zeros((2, 2), np.uint8)
    for i in range(3):
        slot.put(Frame(img, float(i), i))
    frame = slot.take(timeout=0.1)
    assert frame is not None and frame.index == 2
    assert slot.dropped == 2
    assert slot.take(timeout=0.01) is None


def test_live_jpeg_shows_the_frame_with_labels() -> None:
    source = ScriptedSource(5)
    pipeline = VisionPipeline(source, IndexDecoder(range(0, 5), source=source), TrackingConfig(),
                              ZonesConfig(), lambda e: None,
                              resolve=lambda p: Info("ok", "nasty7", "seven", 1, "Seven"))
    assert pipeline.live_jpeg() is None
    run(pipeline)
    jpeg = pipeline.live_jpeg()
    assert jpeg is not None
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (72, 128, 3)
    # the tag outline is drawn in green along the scaled top edge y = 320 * 0.1
    b, g, r = image[32, 64]
    assert g > 120 and r < 120


def test_synthetic_feed_end_to_end(payloads: list[str]) -> None:
    """The real decoder on a synthetic feed, frame by frame (lockstep: none dropped, on any
    machine): each played card is seen once, in its zone, at the frame time it was read."""
    script = [CardPlay(payloads[0], at=0.3, zone="pile"),
              CardPlay(payloads[1], at=0.6, position=(0.2, 0.7))]
    table = SyntheticTable(payloads, script, fps=30, seed=5, realtime=False, clock=FakeClock(0.0))
    events: list[TagSeen | TagLeft] = []
    from vision.decoding import default_decoder

    decoder = default_decoder()
    pipeline = VisionPipeline(table, decoder, TrackingConfig(), ZonesConfig(polygons={"pile": PILE}),
                              events.append, lockstep=True)
    run(pipeline)
    seen = sorted((e.payload, e.zone) for e in events if isinstance(e, TagSeen))
    assert seen == [(payloads[0], "pile"), (payloads[1], None)]
    assert pipeline.status()["dropped"] == 0
    assert pipeline.status()["frames"] == int(table.duration * 30) + 1
    # each TagSeen carries the capture time of the first frame of its confirming run:
    # no later than two frames after the card landed, never before it slid in
    for e, play in zip(sorted((e for e in events if isinstance(e, TagSeen)),
                              key=lambda e: e.at), script, strict=True):
        assert play.at - play.slide_s <= e.at <= play.at + 2 / 30


def test_lockstep_decodes_every_frame_of_a_fast_source() -> None:
    source = ScriptedSource(40)
    decoder = IndexDecoder(range(0), source=source)
    source.lockstep = threading.Semaphore(10**6)  # the source itself never waits
    pipeline = VisionPipeline(source, decoder, TrackingConfig(), ZonesConfig(), lambda e: None,
                              lockstep=True)
    run(pipeline)
    assert decoder.count == 40 and pipeline.status()["dropped"] == 0


@pytest.mark.parametrize("n", [1, 3])
def test_stop_is_safe_twice(n: int) -> None:
    pipeline = VisionPipeline(ScriptedSource(n), IndexDecoder(range(0)), TrackingConfig(),
                              ZonesConfig(), lambda e: None)
    pipeline.start()
    pipeline.stop()
    pipeline.stop()
    assert pipeline.status()["state"] == "stopped"


def test_a_refused_read_on_top_of_a_card_is_no_event() -> None:
    class CardAndPhantom(IndexDecoder):
        def decode(self, image: Image) -> list[Detection]:
            card = super().decode(image)
            s = image.shape[1] / 1280  # the frames are 128 px wide, QUAD is in 1280 px
            inner = tuple((x * s, y * s) for x, y in
                          ((620.0, 340.0), (660.0, 340.0), (660.0, 380.0), (620.0, 380.0)))
            away = tuple((x * s, y * s) for x, y in
                         ((100.0, 100.0), (140.0, 100.0), (140.0, 140.0), (100.0, 140.0)))
            return card + [Detection("353", inner, "fake"), Detection("http://x", away, "fake")]

    events, on_event = collect()
    source = ScriptedSource(10)
    pipeline = VisionPipeline(source, CardAndPhantom(range(0, 10), "CARD", source),
                              TrackingConfig(), ZonesConfig(), on_event,  # type: ignore[arg-type]
                              resolve=lambda p: Info("ok" if p == "CARD" else "malformed"))
    run(pipeline)
    # the refused text beside the card is a real stranger's code: reported as unknown
    assert sorted((e.payload, e.status) for e in events) == [("CARD", "ok"), ("http://x", "unknown")]


def test_the_live_view_says_which_card_is_outside_every_zone() -> None:
    """A card of ours beside the pile is labelled so on the host's picture, never hidden."""
    source = ScriptedSource(5)
    inside = VisionPipeline(source, IndexDecoder(range(0, 5), source=source), TrackingConfig(),
                            ZonesConfig(), lambda e: None,
                            resolve=lambda p: Info("ok", "nasty7", "seven", 1, "Seven"))
    run(inside)
    (d,) = inside._latest[1] if inside._latest else ()
    assert inside._label(d) == ("Seven", True)
    inside.set_zones({"pile": [(0.0, 0.9), (0.1, 0.9), (0.1, 1.0)]})  # far from the card
    assert inside._label(d) == ("Seven: outside every zone", True)
