"""The pile in the camera pipeline: cards that land on it unread, cards that land beside it.

Two things the tracker alone does not say, both about the zones where cards are played
(the zones that grow, ``vision.zonegrow.GROWS``: the pile):

- **Landed unread** (``vision.landing``, issue 36: a tag under a lamp's glare). The
  ``LandingWatch`` looks at the pile's picture on every frame and reports a card-sized
  change that settled with no tag read in it: a ``CardLanded`` event. A tag read later
  where such a landing lay gets that landing's time (``TagSeen.landed``). Watched only
  for a game that asks about unread landings: ``landings`` is a bool or a callable asked
  on every frame (``companion serve``: does the running game have the
  ``unread_landings`` feature?). While it answers no the watch costs nothing, and it is
  started afresh when it answers yes again: nothing seen before (a reference, a landing
  waiting for its read) can be reported then.
- **Landed beside** (``vision.zonegrow``). A card of the game that settled outside every
  zone is remembered (the host may count it: ``count_beside``) and, lying over a card on
  the pile, grows the pile to take it in; ``undo_growth`` puts the zones back as drawn
  and ``grown_zones`` gives those that grew. A zone grows in the frame's coordinates and
  is kept in the drawing's (the table's motion, ``vision.tablewatch``, undone).

``PileCards`` is a part of ``vision.pipeline.VisionPipeline`` (a mixin: it shares the
pipeline's zones, tracker, table watch and zones lock, declared below). Its per-frame
methods run on the decode thread; ``count_beside`` and ``undo_growth`` are called from
the web's threads and take the zones lock.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from companion.inputs import CardLanded, TagSeen
from vision.frames import Detection, Frame, Point
from vision.landing import CARD_SIDES, LandingWatch
from vision.tablewatch import STILL_PX, Matrix, TableWatch, displacement, warp_points
from vision.tracking import TagEvent, TagTracker, Zones
from vision.zonegrow import ZoneGrower, card_box

__all__ = ["Landings", "PileCards"]

log = logging.getLogger(__name__)

#: whether cards landed unread are watched: always, never, or while a callable says so
Landings = bool | Callable[[], bool]
#: a tag read in a landing's place is linked to it for this many payloads at most
KEEP_READ_LATER = 32
#: how many cards seen beside the pile are remembered for the host to count
KEEP_BESIDE = 32

Polygons = dict[str, list[Point]]


class PileCards:
    """The pipeline's pile: cards landed unread (``landings``) and beside it (``grower``)."""

    # shared with ``VisionPipeline``, which sets them
    zones: Zones
    tracker: TagTracker
    watch: TableWatch
    _moved: Matrix
    _table_zones: Polygons
    _zones_lock: threading.Lock
    _clock: Callable[[], float]
    _resolve: Callable[[str], Any] | None
    on_zones: Callable[[Polygons], None] | None

    def _init_pile(self, landings: Landings,
                   card_sides: tuple[float, float] = CARD_SIDES) -> None:
        """Called once by the pipeline, once its zones are set."""
        #: zones grown as cards land (``vision.zonegrow``); ``on_zones`` is called with
        #: every grown set of zones (on the decode thread, or the thread of
        #: ``count_beside``) to save them like the host's
        self.grower = ZoneGrower(self.zones.polygons)
        #: a card's sides in tag sides (``[camera] card_sides``), for the landing watch
        self.card_sides = card_sides
        #: cards that land in a zone that grows (the pile) with no tag read
        #: (``vision.landing``): ``CardLanded`` events; ``landings=False``: not watched
        self.landings = LandingWatch(card_sides) if landings else None
        self._asks_landings = landings if callable(landings) else None
        self._landings_on = True  # the watch has been fed since it was made
        self._asks_failed = False
        #: text -> (when its card landed, frames yet to wait): the watch's settled reads
        #: waiting for the tracker to confirm them itself (``_settled``)
        self._settling: dict[str, tuple[float | None, int]] = {}
        self._beside: dict[str, list[Point]] = {}  # payload -> card box
        self._last_beside: str | None = None
        #: (zone, when) of the last growth: the live view and the status say so
        self.grown: tuple[str, float] | None = None

    # -- landed unread -----------------------------------------------------------------

    def _watching_landings(self) -> bool:
        """Whether the landing watch looks at this frame; turned off, it is made afresh."""
        if self.landings is None:
            return False
        if self._asks_landings is None:
            return True
        try:
            wanted = bool(self._asks_landings())
        except Exception:
            if not self._asks_failed:
                log.exception("asking whether the game watches unread landings failed")
            self._asks_failed, wanted = True, False
        if not wanted and self._landings_on:  # nothing it saw may be reported later
            self.landings = LandingWatch(self.card_sides)
            self._settling.clear()
        self._landings_on = wanted
        return wanted

    def _landed_unread(self, frame: Frame, detections: Sequence[Detection]) -> list[CardLanded]:
        """Cards that landed in the pile and settled with no tag read there."""
        if not self._watching_landings():
            return []
        assert self.landings is not None
        piles = self._piles()
        tags = [(d.text, d.corners) for d in detections if d.text and not d.damaged]
        found = self.landings.update(frame.at, frame.image, piles, tags)
        for landing in found:
            log.info("a card landed in %s at %.2f and its tag was not read", landing.zone,
                     landing.at)
        return [CardLanded(landing.at, landing.zone) for landing in found]

    def _piles(self) -> Polygons:
        """The pile's zones (those that grow) as drawn now."""
        with self._zones_lock:
            return {n: list(p) for n, p in self.zones.polygons.items() if self.grower.grows(n)}

    def _settled(self) -> list[TagEvent]:
        """Tags read in a card-sized group that the landing watch saw settle on the pile
        (``LandingWatch.settled_reads``, issue 36: a fingertip lifts off a card's tag and
        the next card covers it a frame later, so it is read once): the tracker confirms
        each that it still holds as read, not yet seen, in a pile zone, at the time the
        card landed. Each waits ``of_last - 1`` frames first: a tag read again meanwhile
        is the tracker's own (two reads of three, timed by its reads), so a read that the
        watch gave to another card's group changes nothing. A tag already seen gives
        nothing (one ``TagSeen`` a card); a tag glimpsed in a hand over the pile never
        settles card-sized there."""
        reads = self.landings.settled_reads if self.landings is not None else None
        while reads:
            text = next(iter(reads))
            landed = reads.pop(text)
            if text not in self._settling:  # the first word on a read stands
                self._settling[text] = (landed, self.tracker.config.of_last - 1)
        if not self._settling:
            return []
        piles = self._piles()
        out: list[TagEvent] = []
        for text, (landed, frames) in list(self._settling.items()):
            if frames > 0 and text not in self.tracker.visible():
                self._settling[text] = (landed, frames - 1)
                continue
            del self._settling[text]
            # one read books only a card of our decks: a stray decode of glare or print
            # is left to the tracker's two reads of three (tuning glare 74: "409519")
            if landed is not None and (self._resolve is None or self._is_ok(text)):
                out += self.tracker.confirm(text, landed, piles)
        for event in out:
            log.info("%s read once on a card that settled in %s at %.2f: seen", event.payload,
                     event.zone, event.at)
        return out

    def _dated(self, events: list[TagEvent | CardLanded]) -> list[TagEvent | CardLanded]:
        """A tag the landing watch read where a card it had reported unread lay: its
        ``TagSeen`` says when that card landed (``landed``), so the game answers that
        question with it instead of booking a second card."""
        later = self.landings.read_later if self.landings is not None else None
        if not later:
            return events
        out: list[TagEvent | CardLanded] = []
        for event in events:
            if isinstance(event, TagSeen) and event.payload in later:
                event = dataclasses.replace(event, landed=later.pop(event.payload))
            out.append(event)
        while len(later) > KEEP_READ_LATER:  # read, never confirmed: forgotten in time
            later.pop(next(iter(later)))
        return out

    # -- landed beside, and the pile's growth ------------------------------------------

    def _is_ok(self, payload: str) -> bool:
        """Whether ``payload`` is one of our cards (the pipeline's resolver says)."""
        raise NotImplementedError

    def _landed_beside(self, events: Sequence[TagEvent | CardLanded],
                       detections: Sequence[Detection], size: tuple[int, int],
                       at: float) -> None:
        """A card of the game settled outside every zone: remembered (the host may count
        it) and, at a zone's edge, counted towards growing that zone."""
        for event in events:
            if not isinstance(event, TagSeen) or event.zone is not None:
                continue
            if self._resolve is not None and not self._is_ok(event.payload):
                continue
            found = next((d for d in detections if d.text == event.payload), None)
            if found is None:
                continue
            box = card_box(found.corners, size)
            on_piles: dict[str, list[list[Point]]] = {}
            for d in detections:  # the cards lying in a zone that grows (the pile)
                zone = self.tracker.locate(d, size) if d.text and not d.damaged else None
                if zone is not None and self.grower.grows(zone):
                    on_piles.setdefault(zone, []).append(card_box(d.corners, size))
            self._beside[event.payload] = box
            self._last_beside = event.payload
            if len(self._beside) > KEEP_BESIDE:
                self._beside.pop(next(iter(self._beside)))
            with self._zones_lock:
                grown = self.grower.landed(self.zones.polygons, box, on_piles,
                                           self._drawn_now())
                if grown is not None:
                    self._grow(*grown, at)

    def count_beside(self, payload: str | None = None) -> str | None:
        """The host counted the card seen outside every zone (``payload``, else the last
        one seen there): the pile nearest it grows to take it in, never a seat's zone or the
        discard, and short of them. Returns the zone grown."""
        payload = payload or self._last_beside
        box = self._beside.pop(payload, None) if payload else None
        if box is None:
            return None
        with self._zones_lock:
            grown = self.grower.counted(self.zones.polygons, box, self._drawn_now())
            if grown is None:
                return None
            self._grow(*grown, self._clock())
        return grown[0]

    def _drawn_now(self) -> Polygons:
        """The zones as the host drew them, where the camera sees them now (moved with the
        table when the camera was knocked and followed; under ``_zones_lock``)."""
        drawn = self.grower.undo()
        size = self.watch.size
        if size is None or displacement(self._moved, size) < STILL_PX:
            return drawn
        return {n: warp_points(self._moved, p, size) for n, p in drawn.items()}

    def _grow(self, name: str, polygon: list[Point], at: float) -> None:
        """One zone grown (under ``_zones_lock``): used from the next frame on, the cards
        already seen there are in it without a new event, and ``on_zones`` saves it."""
        polygons = {n: list(p) for n, p in self.zones.polygons.items()}
        polygons[name] = polygon
        size = self.watch.size
        back: Matrix = np.asarray(np.linalg.inv(self._moved), np.float64)
        self._table_zones[name] = polygon if size is None else warp_points(back, polygon, size)
        self._use(polygons)
        self.tracker.rezone()
        self.grown = (name, at)
        log.info("zone %s grown to take in a card landed beside it", name)
        self._save(polygons)

    def undo_growth(self) -> Polygons:
        """The host undoes every growth: the zones as drawn (moved with the table when the
        camera was knocked) from the next frame on, saved. Returns them."""
        with self._zones_lock:
            self._table_zones = self.grower.undo()
            size = self.watch.size
            polygons = (dict(self._table_zones) if size is None else
                        {n: warp_points(self._moved, p, size) for n, p in self._table_zones.items()})
            self._use(polygons)
            self.grown = None
        self._save(polygons)
        return polygons

    def grown_zones(self) -> Polygons:
        """The zones that grew since the drawing, as used now (the live view draws them)."""
        drawn = self.grower.undo()
        return {n: list(p) for n, p in self.zones.polygons.items()
                if n in self._table_zones and self._table_zones[n] != drawn.get(n)}

    def _use(self, polygons: Polygons) -> None:
        """Zones in the frame's coordinates, from the next frame on (under ``_zones_lock``)."""
        zones = Zones(polygons)
        self.zones = zones
        self.tracker.zones = zones

    def _save(self, polygons: Polygons) -> None:
        if self.on_zones is not None:
            try:
                self.on_zones(polygons)
            except Exception:
                log.exception("saving the grown zones failed")
