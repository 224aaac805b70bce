"""Tag tracking: from per-frame decodes to ``TagSeen``/``TagLeft`` events, with zones.

A tag is *seen* once it is decoded in ``seen_in`` of the last ``of_last`` frames; the
event's ``at`` is the capture time of the first frame of that run, or, in a zone where
hands rest on the cards (one with its own time in ``left_after_zone``: the pile), of the
first of the sightings that came before it through the fingers: a card that landed
under a hand is read now and then (at least ``seen_in`` times, never more than the
zone's leave time apart) until the hand lifts, and its time is when it landed, not when
the hand lifted. It has *left* once
it has not been decoded for ``left_after_s`` seconds of frame time, or its zone's own
time in ``left_after_zone`` (a hand resting on the pile hides its top card for seconds;
only frames move the clock: a camera that stops delivering frames does not make cards
leave). A tag
that settles in another zone leaves the old zone and is seen in the new one. Pure:
no threads, no clock; the pipeline feeds it frames.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import TagLeft, TagSeen
from vision.frames import Detection, Point
from vision.quads import point_in_polygon

__all__ = ["TagEvent", "TagTracker", "Zones", "point_in_polygon"]

TagEvent = TagSeen | TagLeft


class Zones:
    """Named polygons in normalised coordinates; ``zone_of`` picks the first that holds a point."""

    def __init__(self, polygons: Mapping[str, Sequence[Point]]) -> None:
        self.polygons: dict[str, list[Point]] = {
            name: [(float(p[0]), float(p[1])) for p in pts] for name, pts in polygons.items()
        }

    @classmethod
    def from_config(cls, config: ZonesConfig) -> Zones:
        return cls(config.polygons)

    def zone_of(self, p: Point) -> str | None:
        for name, polygon in self.polygons.items():
            if point_in_polygon(p, polygon):
                return name
        return None


@dataclass
class _Track:
    payload: str
    hits: deque[float | None]  # capture time of each recent frame it was in, else None
    seen: bool = False
    zone: str | None = None
    last_at: float = 0.0  # last frame it was decoded in
    zone_at: float = 0.0  # last frame it was decoded in its current zone
    moving_to: str | None = None  # another zone it is being decoded in, not yet settled
    moves: list[float] = field(default_factory=list)  # capture times in ``moving_to``
    point: Point = (0.0, 0.0)  # its centre in the last frame it was decoded in (normalised)
    #: a candidate's sightings in one zone where hands rest, none more than that zone's
    #: leave time after the one before (the fingers hid it in between); with the zone
    trail: list[float] = field(default_factory=list)
    trail_zone: str | None = None


class TagTracker:
    """Debounces decodes into events; one tracker per camera.

    ``update(at, detections, size)`` takes one decoded frame (``size`` = its width and
    height in pixels, to normalise corners) and returns the events it completes.
    """

    def __init__(self, config: TrackingConfig, zones: Zones | ZonesConfig) -> None:
        if config.seen_in > config.of_last:
            raise ValueError(
                f"tracking.seen_in ({config.seen_in}) cannot exceed tracking.of_last "
                f"({config.of_last}): a tag would never be seen; lower seen_in or raise of_last"
            )
        self.config = config
        self.zones = zones if isinstance(zones, Zones) else Zones.from_config(zones)
        self._tracks: dict[str, _Track] = {}
        self._size: tuple[int, int] | None = None  # the last frame's width and height

    def visible(self) -> dict[str, str | None]:
        """The tags currently seen, with their zones."""
        return {t.payload: t.zone for t in self._tracks.values() if t.seen}

    def rezone(self) -> None:
        """After a zone grew: a card seen outside every zone that the new zones take in
        is in its zone from now on, without an event (the table heard of it already)."""
        for track in self._tracks.values():
            if track.seen and track.zone is None:
                zone = self.zones.zone_of(track.point)
                if zone is not None:
                    track.zone, track.moving_to, track.moves = zone, None, []

    def leave_time(self, zone: str | None) -> float:
        """How long a tag of ``zone`` may go unread before it has left."""
        if zone is None:
            return self.config.left_after_s
        return self.config.left_after_zone.get(zone, self.config.left_after_s)

    def zone_of(self, d: Detection) -> str | None:
        """The zone of a detection in the last frame's pixels (the live view's labels)."""
        return self.locate(d, self._size) if self._size else None

    def locate(self, d: Detection, size: tuple[int, int]) -> str | None:
        """The zone of a detection's centre."""
        cx, cy = d.center()
        return self.zones.zone_of((cx / size[0], cy / size[1]))

    def update(self, at: float, detections: Sequence[Detection],
               size: tuple[int, int]) -> list[TagEvent]:
        self._size = size
        present: dict[str, str | None] = {}
        points: dict[str, Point] = {}
        for d in detections:
            if d.text and not d.damaged and d.text not in present:
                present[d.text] = self.locate(d, size)
                cx, cy = d.center()
                points[d.text] = (cx / size[0], cy / size[1])
        for payload in present:
            if payload not in self._tracks:
                self._tracks[payload] = _Track(payload, deque(maxlen=self.config.of_last))
            self._tracks[payload].point = points[payload]
        events: list[TagEvent] = []
        for payload in list(self._tracks):
            track = self._tracks[payload]
            hit = payload in present
            track.hits.append(at if hit else None)
            if track.seen:
                events.extend(self._update_seen(track, at, present.get(payload), hit))
            else:
                events.extend(self._update_candidate(track, at, present.get(payload), hit))
        return events

    def held(self, zone: str | None) -> bool:
        """Whether hands rest on the cards of ``zone`` (it has its own leave time)."""
        return zone is not None and zone in self.config.left_after_zone

    def _update_candidate(self, track: _Track, at: float, zone: str | None,
                          hit: bool) -> list[TagEvent]:
        times = [t for t in track.hits if t is not None]
        if hit:
            if zone != track.trail_zone or not self.held(zone) or (
                    track.trail and at - track.trail[-1] >= self.leave_time(zone)):
                track.trail, track.trail_zone = [], zone
            track.trail.append(at)
        if len(times) >= self.config.seen_in:
            track.seen, track.zone, track.last_at, track.zone_at = True, zone, at, at
            return [TagSeen(track.payload, at=self._landed(track, times[0], zone), zone=zone)]
        trail = track.trail
        if not times and not (self.held(track.trail_zone) and trail
                              and at - trail[-1] < self.leave_time(track.trail_zone)):
            del self._tracks[track.payload]
        return []

    def confirm(self, payload: str, at: float,
                zones: Collection[str] | None = None) -> list[TagEvent]:
        """A tag read, not yet seen, whose card the landing watch saw settle card-sized on
        the pile where it was read (``vision.landing``, ``settled_reads``): seen now, its
        ``TagSeen.at`` the landing time ``at``, or its first sighting there if that came
        earlier (it lay there by then: a group that settled later took its read). Only a
        candidate whose last read lay in a zone where hands rest (the pile), one of
        ``zones`` when given; a tag already seen (or never read, or forgotten) gives
        nothing: one ``TagSeen`` a card."""
        track = self._tracks.get(payload)
        if track is None or track.seen or not track.trail:
            return []
        zone = track.trail_zone
        if not self.held(zone) or (zones is not None and zone not in zones):
            return []
        last = track.trail[-1]
        track.seen, track.zone, track.last_at, track.zone_at = True, zone, last, last
        return [TagSeen(payload, at=min(at, track.trail[0]), zone=zone)]

    def _landed(self, track: _Track, run: float, zone: str | None) -> float:
        """When the card landed: the first frame of the confirming run ``run``, or the
        first sighting through the fingers before it (``seen_in`` of them at least)."""
        before = [t for t in track.trail if t < run] if track.trail_zone == zone else []
        return before[0] if len(before) >= self.config.seen_in else run

    def _update_seen(self, track: _Track, at: float, zone: str | None,
                     hit: bool) -> list[TagEvent]:
        if not hit:
            if at - track.last_at >= self.leave_time(track.zone):
                del self._tracks[track.payload]
                return [TagLeft(track.payload, at=track.last_at, zone=track.zone)]
            return []
        track.last_at = at
        if zone == track.zone:
            track.zone_at = at
            track.moving_to, track.moves = None, []
            return []
        if zone != track.moving_to:
            track.moving_to, track.moves = zone, []
        track.moves.append(at)
        if len(track.moves) < self.config.seen_in:
            return []
        left = TagLeft(track.payload, at=track.zone_at, zone=track.zone)
        seen = TagSeen(track.payload, at=track.moves[0], zone=zone)
        track.zone, track.zone_at, track.moving_to, track.moves = zone, at, None, []
        return [left, seen]
