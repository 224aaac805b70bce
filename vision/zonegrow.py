"""Zones grown as cards land: a pile is where the cards fall, not only where the host drew it.

Two things grow a zone to take in a card of the game that landed just outside it:

- the host counted it (``ZoneGrower.counted``): the card was played there, so the zone
  was too small;
- ``LANDINGS`` cards landed at the same zone's edge (within ``EDGE`` of it,
  ``ZoneGrower.landed``): the players put their cards there, whatever the drawing says.

The zone becomes the convex hull of itself and the card (its tag grown by ``REACH`` tag
sides each way: the card reaches beyond its tag), bounded: never more than ``MAX_GROWTH``
times the area the host drew, never over another zone (a seat's zone stays the seat's).
Pure geometry in normalised coordinates (0..1 of the frame); the pipeline applies the
result and the dashboard saves it like a zone the host drew.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from vision.frames import Point
from vision.quads import point_in_polygon

__all__ = ["EDGE", "LANDINGS", "MAX_GROWTH", "REACH", "ZoneGrower", "card_box", "convex_hull",
           "polygon_area", "polygons_overlap"]

#: a card's centre this far (normalised) outside a zone is at its edge
EDGE = 0.12
#: cards landing at one zone's edge that grow it without the host
LANDINGS = 2
#: a zone never grows past this many times the area the host drew
MAX_GROWTH = 1.6
#: a card reaches this many tag sides beyond its tag, each way
REACH = 0.5

Polygon = list[Point]


def polygon_area(points: Sequence[Point]) -> float:
    """The area of a simple polygon (shoelace), always positive."""
    n = len(points)
    twice = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
                for i in range(n))
    return abs(twice) / 2.0


def convex_hull(points: Sequence[Point]) -> Polygon:
    """The convex hull, counter-clockwise (monotone chain), without repeated points."""
    pts = sorted(set((float(x), float(y)) for x, y in points))
    if len(pts) < 3:
        return list(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: Polygon = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: Polygon = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def side(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    d1, d2 = side(c, d, a), side(c, d, b)
    d3, d4 = side(a, b, c), side(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4)


def polygons_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two polygons share any area (an edge crossing, or one inside the other)."""
    if any(point_in_polygon(p, b) for p in a) or any(point_in_polygon(p, a) for p in b):
        return True
    return any(_segments_cross(a[i], a[(i + 1) % len(a)], b[j], b[(j + 1) % len(b)])
               for i in range(len(a)) for j in range(len(b)))


def _distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                         / length))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def distance_outside(p: Point, polygon: Sequence[Point]) -> float:
    """How far ``p`` lies outside ``polygon`` (0 inside)."""
    if point_in_polygon(p, polygon):
        return 0.0
    n = len(polygon)
    return min(_distance_to_segment(p, polygon[i], polygon[(i + 1) % n]) for i in range(n))


def card_box(corners: Sequence[Point], size: tuple[int, int]) -> Polygon:
    """A card's outline in normalised coordinates from its tag's corners in pixels: the
    tag's box grown by ``REACH`` tag sides each way, clipped to the frame."""
    w, h = size
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    side = max(max(xs) - min(xs), max(ys) - min(ys)) * REACH
    x0, x1 = max(0.0, (min(xs) - side) / w), min(1.0, (max(xs) + side) / w)
    y0, y1 = max(0.0, (min(ys) - side) / h), min(1.0, (max(ys) + side) / h)
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _center(box: Sequence[Point]) -> Point:
    return (sum(x for x, _ in box) / len(box), sum(y for _, y in box) / len(box))


class ZoneGrower:
    """Grows zones towards the cards that land at their edges; one per pipeline.

    ``drawn``: the zones as the host drew (or saved) them, the base of ``MAX_GROWTH``.
    ``landed`` and ``counted`` return the grown zone as ``(name, polygon)``, or None
    when nothing grows (the card is inside a zone already, too far from every zone, the
    zone would grow too much or over another zone, or too few cards landed there yet).
    """

    def __init__(self, drawn: Mapping[str, Sequence[Point]]) -> None:
        self.reset(drawn)

    def reset(self, drawn: Mapping[str, Sequence[Point]]) -> None:
        """New zones from the host: their areas are the new bases, landings start again."""
        self.areas = {name: polygon_area(list(pts)) for name, pts in drawn.items()}
        self._landings: dict[str, list[Polygon]] = {}

    def nearest(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point],
                reach: float = EDGE) -> str | None:
        """The zone whose edge is nearest the card's centre, within ``reach``; None when
        the card is inside a zone or no zone is that near."""
        c = _center(box)
        best: tuple[float, str] | None = None
        for name, polygon in polygons.items():
            d = distance_outside(c, polygon)
            if d == 0.0:
                return None
            if d <= reach and (best is None or d < best[0]):
                best = (d, name)
        return None if best is None else best[1]

    def grown(self, polygons: Mapping[str, Sequence[Point]], name: str,
              boxes: Sequence[Sequence[Point]]) -> Polygon | None:
        """Zone ``name`` grown to take in ``boxes``, or None when that breaks a bound."""
        points = [p for p in polygons[name]] + [p for box in boxes for p in box]
        hull = [(round(x, 4), round(y, 4)) for x, y in convex_hull(points)]
        base = self.areas.get(name) or polygon_area(list(polygons[name]))
        if len(hull) < 3 or polygon_area(hull) > MAX_GROWTH * base + 1e-9:
            return None
        if any(polygons_overlap(hull, other) for n, other in polygons.items() if n != name):
            return None
        return hull

    def landed(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point]
               ) -> tuple[str, Polygon] | None:
        """A card of the game settled outside every zone: at ``LANDINGS`` cards at one
        zone's edge, that zone grows to take them in."""
        name = self.nearest(polygons, box)
        if name is None:
            return None
        boxes = self._landings.setdefault(name, [])
        boxes.append(list(box))
        if len(boxes) < LANDINGS:
            return None
        hull = self.grown(polygons, name, boxes)
        if hull is None:  # too far or over another zone: the oldest landing is forgotten
            boxes.pop(0)
            return None
        del self._landings[name]
        return name, hull

    def counted(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point]
                ) -> tuple[str, Polygon] | None:
        """The host counted a card seen at ``box`` outside every zone: its nearest zone
        (within twice ``EDGE``) grows to take it in."""
        name = self.nearest(polygons, box, 2 * EDGE)
        if name is None:
            return None
        hull = self.grown(polygons, name, [box])
        return None if hull is None else (name, hull)
