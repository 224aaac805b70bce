"""The camera pipeline: a capture thread, a decode thread, tracking, events, a live view.

The capture thread (``vision.capture``) puts each frame into a one-frame slot (the
newest wins; a frame the decoder had no time for is dropped and counted, never queued).
The decode thread decodes the newest frame, feeds the tracker and calls ``on_event``
with every ``TagSeen``/``TagLeft``, then with the pile's news (``vision.pile``:
``CardLanded``, a card that landed unread; zones grown as cards land beside the pile)
and whether glare hides the pile (``vision.sight``: ``PileSight``, after a glare trial
of the check). A camera that fails is closed and reopened with exponential backoff;
``status()`` shows it. The live view's picture and the cards' box are
``vision.pipeview``'s. Nothing in here lets an exception end a thread.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import CardLanded, PileSight, TagLeft, TagSeen, TagStatus
from vision.capture import CameraCapture, _Slot
from vision.check import EVERY, CheckMeter
from vision.frames import Decoder, Detection, Frame, FrameSource
from vision.landing import CARD_SIDES
from vision.pile import Landings, PileCards
from vision.pipeview import LiveView
from vision.quads import drop_phantoms
from vision.sight import PileSightWatch
from vision.tablewatch import EVERY as WATCH_EVERY
from vision.tablewatch import MOVED, STILL_PX, Matrix, TableWatch, displacement, warp_points
from vision.tracking import TagEvent, TagTracker, Zones
from vision.zonecrop import ZoneDecoder

log = logging.getLogger(__name__)

#: see ``VisionPipeline.delay_s`` (measured: the slowest reads came 11 frames at 30 fps
#: after the landing, 0-1 frames after the hand left the tag)
DELAY_S = 1.0

Resolver = Callable[[str], Any]
#: what the pipeline tells the table: tags seen and left, cards landed unread, and
#: whether glare hides the pile
CameraEvent = TagEvent | CardLanded | PileSight
#: the deck registry's verdicts that the table tells apart
_TABLE_STATUS: dict[str, TagStatus] = {"ok": "ok", "forged": "forged", "unknown": "unknown"}


class VisionPipeline(CameraCapture, LiveView, PileCards):
    """Frames from ``source`` -> ``decoder`` -> tracker -> ``on_event`` (on the decode thread).

    ``resolve(payload)`` (optional, e.g. ``companion.decks.resolve_tag``) returns an object
    with ``.status``, ``.game``, ``.card``, ``.serial`` (and optionally ``.name``) that fill
    the events and the live-view labels; it is called once per payload and cached.
    ``on_event`` must return quickly (hand the event to the table loop).
    ``landings``: whether cards that land on the pile unread are watched (``vision.pile``):
    a bool, or a callable asked on every frame (is the running game one that asks about
    them?); ``card_sides``: a card's sides in tag sides, for that watch.
    """

    def __init__(
        self,
        source: FrameSource,
        decoder: Decoder,
        tracker_config: TrackingConfig,
        zones: ZonesConfig,
        on_event: Callable[[CameraEvent], None],
        resolve: Resolver | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        backoff: tuple[float, float] = (0.5, 10.0),
        live_fps: float = 4.0,
        on_frame: Callable[[Frame], None] | None = None,
        lockstep: bool = False,
        decode_zones: bool = False,
        on_zones: Callable[[dict[str, list[tuple[float, float]]]], None] | None = None,
        landings: Landings = True,
        card_sides: tuple[float, float] = CARD_SIDES,
    ) -> None:
        self.source, self.decoder, self.on_event = source, decoder, on_event
        if decode_zones:  # full-resolution crops of the zones only (a whole-table camera)
            self.decoder = ZoneDecoder(decoder, lambda: self.zones.polygons)
        #: called with every decoded frame on the decode thread (e.g. a clip recorder);
        #: must return quickly and must not keep a reference to ``frame.image`` it mutates
        self.on_frame = on_frame
        self.zones = Zones.from_config(zones)
        self.tracker = TagTracker(tracker_config, self.zones)
        self._init_pile(landings, card_sides)  # ``vision.pile``: landed unread, beside, grown
        #: the zones on the table as drawn (and grown), in the drawing's frame; ``zones``
        #: is them moved with the table (``vision.tablewatch``: a knocked camera)
        self._table_zones: dict[str, list[tuple[float, float]]] = dict(self.zones.polygons)
        self.watch = TableWatch()
        self._moved: Matrix = np.eye(3)  # the table's motion the zones follow
        self._rereference = True
        self.on_zones = on_zones
        self._zones_lock = threading.Lock()
        #: how long after a card landed its ``TagSeen`` may reach the table: a hand
        #: sliding it in covers the tag for a few frames, then ``seen_in`` frames confirm it
        self.delay_s = DELAY_S
        #: the pre-game check's figures (light, glare, reads, sizes), on the decode thread
        self.check = CheckMeter()
        self._check: dict[str, Any] = self.check.report()
        #: whether glare hides the pile, from the check's glare trials (``vision.sight``)
        self.sight = PileSightWatch()
        self._resolve, self._clock = resolve, clock
        self._backoff, self._live_period = backoff, 1.0 / live_fps
        self._resolved: dict[str, Any] = {}
        self._slot = _Slot()
        #: ``lockstep``: the next frame is read only once the previous one is decoded, so
        #: every frame is decoded and none dropped, however slow the machine (files, tests)
        self._turn = threading.Semaphore(1) if lockstep else None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._state = "stopped"
        self._attempt = 0
        self._next_retry: float | None = None
        self._last_error: str | None = None
        self._decoded: deque[float] = deque(maxlen=60)  # capture times of decoded frames
        self._decode_s: deque[float] = deque(maxlen=60)
        self._decode_cpu_s: deque[float] = deque(maxlen=60)  # CPU time of the decode thread
        self._frames = 0
        self._latest: tuple[Frame, list[Detection]] | None = None
        self._jpeg: tuple[int, float, bytes] | None = None  # (frame index, made at, bytes)
        self._watched_at: float | None = None  # when a live view last asked for a picture
        if hasattr(source, "want_display"):  # full-size pictures only while someone watches
            source.want_display = self.watching

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the capture and decode threads (daemon threads; ``stop()`` joins them)."""
        if self._threads:
            return
        self._stop.clear()
        self._set_state("starting")
        self._threads = [
            threading.Thread(target=self._capture_loop, name="vision-capture", daemon=True),
            threading.Thread(target=self._decode_loop, name="vision-decode", daemon=True),
        ]
        for t in self._threads:
            t.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop both threads and close the source; safe to call twice."""
        self._stop.set()
        self._slot.end()
        try:
            self.source.close()
        except Exception:
            log.exception("closing the frame source failed")
        for t in self._threads:
            t.join(timeout)
        self._threads = []
        self._set_state("stopped")

    def __enter__(self) -> VisionPipeline:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_ended(self, timeout: float | None = None) -> bool:
        """For a file source: wait until every frame is decoded; True when it ended.

        ``timeout`` is real (wall-clock) seconds, a safety net, never frame time.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not (self._slot.ended and not self._threads[1].is_alive()):
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    # -- decode ------------------------------------------------------------------------

    def _decode_loop(self) -> None:
        while not self._stop.is_set():
            frame = self._slot.take(timeout=0.2)
            if frame is None:
                if self._slot.ended:
                    break
                continue
            try:
                self._process(frame)
            except Exception as exc:
                log.exception("decoding a frame failed")
                self._set_state(self._state, f"decoder: {exc}")
            finally:
                if self._turn is not None:
                    self._turn.release()

    def _process(self, frame: Frame) -> None:
        t0, cpu0 = time.perf_counter(), time.thread_time()
        expect = getattr(self.decoder, "expect", None)
        if expect is not None and self._latest is not None:  # what the last frame read
            expect(frozenset(d.text for d in self._latest[1] if d.text and not d.damaged))
        if self._frames % WATCH_EVERY == 0 or self._rereference:
            self._watch_table(frame.image)
        detections = self.decoder.decode(frame.image)
        if self._resolve is not None:  # a text refused right on top of a card is no tag
            detections = drop_phantoms(detections, self._is_ok)
        size = (frame.image.shape[1], frame.image.shape[0])
        found: list[TagEvent | CardLanded] = list(self.tracker.update(frame.at, detections, size))
        self._landed_beside(found, detections, size, frame.at)
        landed = self._landed_unread(frame, detections)  # the watch: this frame's reads too
        found += [*self._settled(), *landed]  # read once and lay on the pile; landed unread
        trials = self.check.trials
        self.check.update(frame.image, detections, self.zones.polygons)
        events: list[CameraEvent] = [*self._dated(found), *self._sight(frame.at, trials)]
        check = self._check_report() if self._frames % EVERY == 0 else None
        with self._lock:
            self._decode_s.append(time.perf_counter() - t0)
            self._decode_cpu_s.append(time.thread_time() - cpu0)
            self._decoded.append(frame.at)
            self._frames += 1
            self._latest = (frame, detections)
            if check is not None:
                self._check = check
        if self.on_frame is not None:
            try:
                self.on_frame(frame)
            except Exception:
                log.exception("the frame hook raised")
        for event in events:
            self._emit(event)

    def _sight(self, at: float, trials: int) -> list[PileSight]:
        """Whether glare hides the pile, when the check tried a tag in the glare on this
        frame (``trials``: its count before): a ``PileSight`` when the pile turned."""
        if self.check.trials == trials:
            return []
        sight = self.sight.trial(at, self.check.parts)
        if sight is None:
            return []
        log.info("glare %s the pile from %.2f", "hides" if sight.blind else "no longer hides",
                 sight.at)
        return [sight]

    def _check_report(self) -> dict[str, Any]:
        """The check, with the camera's own news first: knocked, the zones must be drawn again."""
        report = self.check.report()
        last = self.watch.last
        if last is not None and last.state == "moved":
            report["level"] = "red"
            report["warnings"] = [MOVED, *report["warnings"]]
        return report

    def _watch_table(self, image: Any) -> None:
        """Is the table where the zones were drawn on it? Followed: the zones move with it
        (and are saved); lost: they are left as they are, and the status says so."""
        size = (image.shape[1], image.shape[0])
        with self._zones_lock:
            if self._rereference:
                self.watch.reference(image)
                self._rereference = False
                return
            table = [list(p) for p in self._table_zones.values()]
        found = self.watch.check(image, table)
        if found.state == "moved":
            return
        with self._zones_lock:
            if displacement(found.transform @ np.linalg.inv(self._moved), size) < STILL_PX:
                return
            self._moved = found.transform
            polygons = {n: warp_points(self._moved, p, size) for n, p in self._table_zones.items()}
            self._use(polygons)
            log.info("the camera moved %.0f px: the zones moved with the table", found.shift_px)
        self._save(polygons)

    def info(self, payload: str) -> Any:
        """What ``resolve`` says about ``payload`` (cached), or None without a resolver."""
        if self._resolve is None or not payload:
            return None
        if payload not in self._resolved:
            try:
                self._resolved[payload] = self._resolve(payload)
            except Exception:
                log.exception("resolving a tag failed")
                self._resolved[payload] = None
        return self._resolved[payload]

    def _is_ok(self, payload: str) -> bool:
        return str(getattr(self.info(payload), "status", "")) == "ok"

    def _emit(self, event: CameraEvent) -> None:
        if isinstance(event, TagSeen | TagLeft):  # a tag: what the deck registry says of it
            event = self._resolved_event(event)
        try:
            self.on_event(event)
        except Exception:
            log.exception("the event handler raised on %s", event)

    def _resolved_event(self, event: TagEvent) -> TagEvent:
        info = self.info(event.payload)
        if info is None:
            return event
        # anything else the registry says ("malformed": not a tag at all) is unknown
        status = _TABLE_STATUS.get(str(getattr(info, "status", "")), "unknown")
        return dataclasses.replace(
            event, status=status,
            game=getattr(info, "game", None), card=getattr(info, "card", None),
            serial=getattr(info, "serial", None),
        )

    # -- views -------------------------------------------------------------------------

    def set_zones(self, polygons: Mapping[str, Sequence[tuple[float, float]]]) -> None:
        """Use new zone polygons from the next frame on (the dashboard's zone editor).

        One object swap: the decode thread sees either the old zones or the new ones.
        """
        zones = Zones({name: list(points) for name, points in polygons.items()})
        with self._zones_lock:
            self.zones = zones
            self.tracker.zones = zones
            self.grower.reset(zones.polygons)  # the host's drawing: the new base
            self._table_zones = dict(zones.polygons)
            self._moved = np.eye(3)
            self._rereference = True  # drawn on the table as the camera sees it now
            self.grown = None

    def status(self) -> dict[str, Any]:
        """Camera state for the dashboard and ``doctor``.

        ``state``: starting | running | reconnecting | stopped; ``attempt`` and
        ``next_retry_in_s`` while reconnecting; ``fps`` of decoded frames (last ~2 s);
        ``decode_ms`` (median of recent frames, wall time), ``decode_cpu_ms`` (the same in
        CPU time of the decode thread), ``frames``, ``dropped``, ``last_error``; ``check``:
        the pre-game check (``vision.check``: ``level``, ``verdicts``, ``warnings``);
        ``grown``: the zone that last grew (``zone``, ``ago_s``, its ``polygon`` now);
        ``table``: the last look for a knocked camera (``vision.tablewatch``: ``state``
        steady | followed | moved, ``shift_px``, ``turn_deg``, ``score``, ``sentence``);
        ``pile_blind``: whether glare would hide a tag over part of the pile now
        (``vision.sight``: from the last glare trials; false with no pile zone drawn).
        """
        with self._lock:
            now = self._clock()
            recent = [t for t in self._decoded if now - t <= 2.0]
            fps = (len(recent) - 1) / (recent[-1] - recent[0]) if len(recent) > 2 and recent[-1] > recent[0] else 0.0
            retry = None if self._next_retry is None else max(0.0, self._next_retry - now)
            return {
                "state": self._state,
                "attempt": self._attempt,
                "next_retry_in_s": None if retry is None else round(retry, 2),
                "fps": round(fps, 1),
                "decode_ms": round(statistics.median(self._decode_s) * 1000, 1)
                if self._decode_s else None,
                "decode_cpu_ms": round(statistics.median(self._decode_cpu_s) * 1000, 1)
                if self._decode_cpu_s else None,
                "frames": self._frames,
                "dropped": self._slot.dropped,
                "last_error": self._last_error,
                "tags": self.tracker.visible(),
                "check": self._check,
                "cards_box": self._cards_box(),
                "grown": None if self.grown is None else
                {"zone": self.grown[0], "ago_s": round(max(0.0, now - self.grown[1]), 1),
                 "polygon": [list(p) for p in self.zones.polygons.get(self.grown[0], [])]},
                "table": None if self.watch.last is None else self.watch.last.to_json(),
                "pile_blind": self.sight.blind,
            }
