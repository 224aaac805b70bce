"""The pipeline's capture thread: frames from the camera into a one-frame slot.

``_Slot`` is a one-frame mailbox between the capture thread and the decode thread (the
newest frame wins; a frame the decoder had no time for is dropped and counted, never
queued). ``CameraCapture`` is the capture thread of ``vision.pipeline.VisionPipeline``
(a mixin: it shares the pipeline's source, slot, lock and state, declared below): it
reads the source into the slot and, when the camera fails, closes it and retries with
exponential backoff (``status()`` shows the attempt and the next retry). Nothing in
here lets an exception end the thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from vision.frames import Frame, FrameSource

log = logging.getLogger(__name__)


class _Slot:
    """A one-frame mailbox: ``put`` replaces what is there, ``take`` waits for a frame."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._ended = False
        self.dropped = 0

    def put(self, frame: Frame) -> None:
        with self._cond:
            if self._frame is not None:
                self.dropped += 1
            self._frame = frame
            self._cond.notify()

    def end(self) -> None:
        with self._cond:
            self._ended = True
            self._cond.notify_all()

    def take(self, timeout: float) -> Frame | None:
        """The newest frame, or None after ``timeout`` or once ended and empty."""
        with self._cond:
            if self._frame is None and not self._ended:
                self._cond.wait(timeout)
            frame, self._frame = self._frame, None
            return frame

    @property
    def ended(self) -> bool:
        with self._cond:
            return self._ended and self._frame is None


class CameraCapture:
    """The capture thread and its backoff (a part of ``VisionPipeline``)."""

    # shared with ``VisionPipeline``, which sets them
    source: FrameSource
    _slot: _Slot
    _turn: threading.Semaphore | None
    _stop: threading.Event
    _lock: threading.Lock
    _clock: Callable[[], float]
    _backoff: tuple[float, float]
    _state: str
    _attempt: int
    _next_retry: float | None
    _last_error: str | None

    def _set_state(self, state: str, error: str | None = None) -> None:
        with self._lock:
            self._state = state
            if error is not None:
                self._last_error = error

    def _capture_loop(self) -> None:
        while not self._stop.is_set():
            if self._turn is not None and not self._turn.acquire(timeout=0.2):
                continue  # the decoder is still on the previous frame
            try:
                frame = self.source.read()
            except Exception as exc:  # a camera error, or any bug in an adapter
                if self._turn is not None:
                    self._turn.release()  # no frame went out: the turn is still ours
                self._camera_failed(exc)
                continue
            if frame is None:
                break
            with self._lock:
                self._state, self._attempt, self._next_retry = "running", 0, None
            self._slot.put(frame)
        self._slot.end()

    def _camera_failed(self, exc: Exception) -> None:
        log.warning("camera failed: %s", exc)
        try:
            self.source.close()
        except Exception:
            log.exception("closing the failed camera raised")
        with self._lock:
            self._attempt += 1
            first, cap = self._backoff
            delay = min(cap, first * 2 ** (self._attempt - 1))
            self._next_retry = self._clock() + delay
            self._state, self._last_error = "reconnecting", str(exc)
        self._stop.wait(delay)
