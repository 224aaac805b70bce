"""A video through the table's own camera path: frames at their video times, the shipped
decoder, the tracker and zones, and the ``TagSeen``/``TagLeft`` events the table would get
(and ``CardLanded``: a card that landed on the pile with no tag read, ``"landed"``;
``PileSight``: glare hides tags over the pile from then on, ``"blind"``, or no longer,
``"clear"``).

``video_events(path, config)`` decodes every frame in turn (lockstep: however slow the
machine, no frame is dropped, so the events are the same on every machine); frame ``i``
is captured at ``i / fps`` seconds (the file's own frame rate).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.config import Config
from vision.frames import Decoder, Frame, Image
from vision.pipeline import CameraEvent, VisionPipeline
from vision.sources import iter_video

#: a video whose file does not say its frame rate is taken to be this fast
DEFAULT_FPS = 30.0
#: a generous safety net (real seconds) for one video: never a pace the test relies on
SAFETY_S = 3600.0


class VideoFrames:
    """A ``FrameSource`` over a video file: frame ``i`` captured at ``i / fps``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fps = video_fps(path)
        self._frames: Iterator[Image] = iter_video(path)
        self._index = 0
        self._closed = threading.Event()

    def read(self) -> Frame | None:
        if self._closed.is_set():
            return None
        image = next(self._frames, None)
        if image is None:
            return None
        index, self._index = self._index, self._index + 1
        return Frame(image, index / self.fps, index)

    def close(self) -> None:
        self._closed.set()


def video_fps(path: Path) -> float:
    """The frame rate the file states (``DEFAULT_FPS`` when it states none);
    ``ValueError`` when the file is no video OpenCV can open."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    try:
        if not cap.isOpened():
            raise ValueError(f"{path} is not a video OpenCV can open (mp4, mkv, avi, webm)")
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    finally:
        cap.release()
    return fps if 1.0 <= fps <= 1000.0 else DEFAULT_FPS


def video_events(path: Path, config: Config, decoder: Decoder,
                 resolve: Callable[[str], Any] | None = None) -> list[CameraEvent]:
    """Every event the table would get from ``path``, in order, with video times."""
    events: list[CameraEvent] = []
    source = VideoFrames(path)
    pipeline = VisionPipeline(source, decoder, config.tracking, config.zones, events.append,
                              resolve=resolve, lockstep=True,
                              decode_zones=config.camera.decode == "zones",
                              card_sides=config.camera.card_sides)
    with pipeline:
        if not pipeline.wait_ended(SAFETY_S):
            raise ValueError(f"{path}: decoding did not finish within {SAFETY_S:.0f} s")
    return events


def event_record(event: CameraEvent) -> dict[str, Any]:
    """One event as ``companion scan --events --json`` prints it."""
    from companion.inputs import CardLanded, PileSight, TagSeen

    if isinstance(event, CardLanded):
        return {"event": "landed", "t": round(event.at, 3), "zone": event.zone,
                "status": "unread", "game": None, "card": None, "serial": None, "payload": ""}
    if isinstance(event, PileSight):  # the pile's zones, whatever their names
        return {"event": "blind" if event.blind else "clear", "t": round(event.at, 3),
                "zone": "pile", "status": "glare" if event.blind else "readable",
                "game": None, "card": None, "serial": None, "payload": ""}
    return {
        "event": "seen" if isinstance(event, TagSeen) else "left",
        "t": round(event.at, 3),
        "zone": event.zone,
        "status": event.status,
        "game": event.game,
        "card": event.card,
        "serial": event.serial,
        "payload": event.payload,
    }
