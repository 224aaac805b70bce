"""The pipeline's live view: the newest frame labelled, and a zone around the cards.

``LiveView`` is a part of ``vision.pipeline.VisionPipeline`` (a mixin: it shares the
pipeline's newest frame, zones, tracker and lock, declared below). ``live_jpeg`` is the
newest frame with the zones and each tag's label (``vision.liveview`` draws them;
calibration codes say which ``--size`` to print, ``vision.calibration``), re-encoded
at most ``live_fps`` times a second; ``watching`` says whether a live view is open (the
source makes full-size pictures only then); ``_cards_box`` is a zone around the cards
read in the newest frame (the camera page draws the pile from it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from vision.calibration import SizeAdvice, advise
from vision.frames import Detection, Frame
from vision.tracking import TagTracker, Zones

#: how far a zone drawn around the cards in view reaches beyond their codes (code sides)
CARD_REACH = 1.5
#: the card name the resolver gives the calibration card (``companion.decks``; the
#: pipeline does not import the decks, which load every game's engine)
CALIBRATION_CARD = "calibration"
#: a live view that has not asked for a picture for this long is closed
WATCH_S = 3.0


class LiveView:
    """The live view's picture and the cards' box (a part of ``VisionPipeline``)."""

    # shared with ``VisionPipeline``, which sets them
    zones: Zones
    tracker: TagTracker
    info: Callable[[str], Any]
    _clock: Callable[[], float]
    _lock: threading.Lock
    _latest: tuple[Frame, list[Detection]] | None
    _jpeg: tuple[int, float, bytes] | None  # (frame index, made at, bytes)
    _watched_at: float | None  # when a live view last asked for a picture
    _live_period: float

    def _cards_box(self) -> list[list[float]] | None:
        """A zone around the cards read in the newest frame (normalised corners), grown by
        ``CARD_REACH`` code sides each way (a card reaches beyond its tag): the camera
        page draws the pile from the cards the host laid there. Called under the lock."""
        if self._latest is None:
            return None
        frame, detections = self._latest
        h, w = frame.image.shape[:2]
        quads = [d.corners for d in detections if d.text and not d.damaged]
        if not quads:
            return None
        xs = [x / w for q in quads for x, _ in q]
        ys = [y / h for q in quads for _, y in q]
        side = max(max(x for x, _ in q) - min(x for x, _ in q) for q in quads) / w
        x0, x1 = max(0.0, min(xs) - CARD_REACH * side), min(1.0, max(xs) + CARD_REACH * side)
        y0 = max(0.0, min(ys) - CARD_REACH * side * w / h)
        y1 = min(1.0, max(ys) + CARD_REACH * side * w / h)
        return [[round(x0, 4), round(y0, 4)], [round(x1, 4), round(y0, 4)],
                [round(x1, 4), round(y1, 4)], [round(x0, 4), round(y1, 4)]]

    def watching(self) -> bool:
        """True while a live view is open: it asked for a picture in the last ``WATCH_S``."""
        at = self._watched_at
        return at is not None and self._clock() - at < WATCH_S

    def live_jpeg(self) -> bytes | None:
        """The newest frame as JPEG with zones and labelled tags; None before the first.

        Re-encoded at most ``live_fps`` times a second, whoever asks. Asking opens the
        live view: the source makes full-size pictures (``Frame.display``) for
        ``WATCH_S`` seconds; until the first one comes, the decoded (gray) frame is shown.
        """
        from vision.liveview import annotate, encode_jpeg

        self._watched_at = self._clock()
        with self._lock:
            latest, cached = self._latest, self._jpeg
        if latest is None:
            return None
        now = self._clock()
        frame, detections = latest
        if cached is not None and (cached[0] == frame.index or now - cached[1] < self._live_period):
            return cached[2]
        calibration = advise([d.corners for d in detections if self._is_calibration(d)])
        labelled = [(d, *self._label(d, calibration)) for d in detections]
        picture = frame.display if frame.display is not None else frame.image
        size = (frame.image.shape[1], frame.image.shape[0])
        jpeg = encode_jpeg(annotate(picture, labelled, self.zones.polygons, size))
        with self._lock:
            self._jpeg = (frame.index, now, jpeg)
        return jpeg

    def _is_calibration(self, d: Detection) -> bool:
        return bool(d.text) and getattr(self.info(d.text), "card", None) == CALIBRATION_CARD

    def _label(self, d: Detection, calibration: SizeAdvice | None = None) -> tuple[str, bool]:
        if d.damaged or not d.text:
            return "unreadable", False
        if calibration is not None and self._is_calibration(d):
            size = calibration.size_mm
            return ("camera too far for stickers" if size is None
                    else f"print --size {size:g}"), size is not None
        info = self.info(d.text)
        if info is None or getattr(info, "status", None) != "ok":
            return "unknown", False
        name = getattr(info, "name", None) or getattr(info, "card", None) or "card"
        if self.zones.polygons and self.tracker.zone_of(d) is None:  # shown, never dropped
            return f"{name}: outside every zone", True
        return str(name), True
