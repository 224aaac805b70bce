"""Zones grown as cards land: a pile is where the cards fall, not only where the host drew it.

Only a zone where cards are played grows (``GROWS``: the pile); a seat's zone, the
discard's or any other never does, and never takes a neighbour's card. The pile grows to
take in a card of the game that landed just outside every zone when

- the host counted it (``ZoneGrower.counted``): the card was played there, so the pile
  was too small; or
- the card overlaps a card lying in the pile (``ZoneGrower.landed``): it is on the
  stack, however the drawing goes. A card merely *near* the pile grows nothing (it may
  be a player's card put down in front of them: the host is asked).

The pile becomes the convex hull of itself and the card (its tag grown by ``REACH`` tag
sides each way: the card reaches beyond its tag), clipped to stop ``GAP`` short of every
other zone and to stay within ``SPREAD`` of the pile as the host drew it, and bounded: never
more than ``MAX_GROWTH`` times the area the host drew. A growth that would not take the
card's centre in once clipped is not made.

``SPREAD`` is where a player's place begins, drawn or not: players sit all round the table,
so past the pile's drawn edge, in every direction, lies someone's area, where their own
cards are put down. A seat's zone says where exactly; with none drawn (issue 36: the host
counted a card put down in a player's area and the pile grew over it) the pile still
spreads only a little past where the host drew it: a card counted farther out is booked
by the game (the host said so) but moves no zone.
``ZoneGrower.undo`` gives the zones as drawn back. Pure geometry in normalised
coordinates (0..1 of the frame); the pipeline applies the result and the dashboard saves
it like a zone the host drew.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from vision.frames import Point
from vision.quads import point_in_polygon

__all__ = ["EDGE", "GAP", "GROWS", "MAX_GROWTH", "REACH", "SPREAD", "ZoneGrower", "card_box",
           "clip_short_of", "clip_within", "convex_hull", "polygon_area", "polygons_overlap"]

#: a card's centre this far (normalised) outside a zone is at its edge
EDGE = 0.12
#: the zones that grow (where cards are played); every other zone keeps its drawing
GROWS = frozenset({"pile", "play"})
#: a growth stops this far (normalised) short of any other zone
GAP = 0.02
#: a zone never grows past this many times the area the host drew
MAX_GROWTH = 1.6
#: ... nor farther than this (normalised) past its drawn edge, in any direction: beyond it
#: lies a player's area, whether or not its seat's zone is drawn
SPREAD = 0.05
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


def _clip(polygon: Sequence[Point], n: Point, c: float) -> Polygon:
    """``polygon`` (convex) clipped to the half-plane ``n . p <= c`` (Sutherland-Hodgman)."""
    out: Polygon = []
    count = len(polygon)
    for i in range(count):
        p, q = polygon[i], polygon[(i + 1) % count]
        dp, dq = n[0] * p[0] + n[1] * p[1] - c, n[0] * q[0] + n[1] * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _separation(a: Sequence[Point], b: Sequence[Point]) -> tuple[Point, float] | None:
    """The widest gap between the convex hulls of ``a`` and ``b``: a unit normal ``n``
    and the edge of ``a``'s side, ``n . p <= edge`` holding ``a`` and the gap beyond it
    free of ``b``; None when they overlap."""
    ha, hb = convex_hull(a), convex_hull(b)
    best: tuple[float, Point, float] | None = None
    for hull in (ha, hb):
        for i in range(len(hull)):
            (x0, y0), (x1, y1) = hull[i], hull[(i + 1) % len(hull)]
            length = math.hypot(x1 - x0, y1 - y0)
            if length == 0:
                continue
            for n in ((-(y1 - y0) / length, (x1 - x0) / length),
                      ((y1 - y0) / length, -(x1 - x0) / length)):
                amax = max(n[0] * x + n[1] * y for x, y in ha)
                bmin = min(n[0] * x + n[1] * y for x, y in hb)
                if bmin - amax > 0 and (best is None or bmin - amax > best[0]):
                    best = (bmin - amax, n, bmin)
    if best is None:
        return None
    gap, n, bmin = best
    return n, bmin


def clip_short_of(grown: Sequence[Point], drawn: Sequence[Point],
                  others: Sequence[Sequence[Point]], gap: float = GAP) -> Polygon | None:
    """``grown`` (convex, holding ``drawn``) clipped to stop ``gap`` short of each of
    ``others`` (never closer than ``drawn`` itself already was); None when ``drawn``
    overlaps one of them (nothing can be grown safely)."""
    out = list(grown)
    for other in others:
        found = _separation(drawn, other)
        if found is None:
            return None
        n, bmin = found
        amax = max(n[0] * x + n[1] * y for x, y in drawn)
        out = _clip(out, n, max(amax, bmin - gap))
        if len(out) < 3:
            return None
    return out


def clip_within(polygon: Sequence[Point], drawn: Sequence[Point],
                spread: float = SPREAD) -> Polygon:
    """``polygon`` (convex) clipped to ``drawn``'s convex hull pushed out by ``spread`` on
    every side (each edge's half-plane moved outwards: mitred corners)."""
    hull = convex_hull(drawn)
    out = list(polygon)
    if len(hull) < 3:
        return out
    cx, cy = _center(hull)
    for i in range(len(hull)):
        (x0, y0), (x1, y1) = hull[i], hull[(i + 1) % len(hull)]
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        n = ((y1 - y0) / length, -(x1 - x0) / length)
        if n[0] * (cx - x0) + n[1] * (cy - y0) > 0:  # the normal pointing out of the hull
            n = (-n[0], -n[1])
        out = _clip(out, n, n[0] * x0 + n[1] * y0 + spread)
        if len(out) < 3:
            return out
    return out


class ZoneGrower:
    """Grows the pile towards the cards played just outside it; one per pipeline.

    ``drawn``: the zones as the host drew (or saved) them, the base of ``MAX_GROWTH`` and
    what ``undo`` gives back. ``landed`` and ``counted`` return the grown zone as
    ``(name, polygon)``, or None when nothing grows (the card is inside a zone already,
    too far from the pile, touches no card of the pile, or the pile would grow too much
    or could not take the card in short of another zone).
    """

    def __init__(self, drawn: Mapping[str, Sequence[Point]]) -> None:
        self.reset(drawn)

    def reset(self, drawn: Mapping[str, Sequence[Point]]) -> None:
        """New zones from the host: their areas are the new bases."""
        self.drawn: dict[str, Polygon] = {name: [(float(x), float(y)) for x, y in pts]
                                          for name, pts in drawn.items()}
        self.areas = {name: polygon_area(pts) for name, pts in self.drawn.items()}

    def undo(self) -> dict[str, Polygon]:
        """The zones as drawn (a copy): every growth since the drawing undone."""
        return {name: list(pts) for name, pts in self.drawn.items()}

    @staticmethod
    def grows(name: str) -> bool:
        """Whether zone ``name`` may grow (the pile; never a seat's zone or the discard)."""
        return name in GROWS

    def nearest(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point],
                reach: float = EDGE) -> str | None:
        """The pile whose edge is nearest the card's centre, within ``reach``; None when
        the card is inside a zone or no pile is that near."""
        c = _center(box)
        best: tuple[float, str] | None = None
        for name, polygon in polygons.items():
            d = distance_outside(c, polygon)
            if d == 0.0:
                return None
            if self.grows(name) and d <= reach and (best is None or d < best[0]):
                best = (d, name)
        return None if best is None else best[1]

    def grown(self, polygons: Mapping[str, Sequence[Point]], name: str,
              boxes: Sequence[Sequence[Point]],
              drawn: Mapping[str, Sequence[Point]] | None = None) -> Polygon | None:
        """Zone ``name`` grown to take in ``boxes``, stopping ``GAP`` short of every other
        zone and within ``SPREAD`` of its drawing (``drawn``: the zones as drawn, where the
        camera sees them now; default ``self.drawn``), or None when it may not grow, breaks
        a bound or cannot take their centres in."""
        if not self.grows(name):
            return None
        zone = list(polygons[name])
        hull = convex_hull(zone + [p for box in boxes for p in box])
        others = [list(other) for n, other in polygons.items() if n != name]
        clipped = clip_short_of(hull, zone, others)
        if clipped is None:
            return None
        drawing = (drawn if drawn is not None else self.drawn).get(name)
        if drawing:
            clipped = clip_within(clipped, drawing)
            if len(clipped) < 3:
                return None
        hull = [(round(x, 4), round(y, 4)) for x, y in convex_hull(clipped)]
        base = self.areas.get(name) or polygon_area(zone)
        if len(hull) < 3 or polygon_area(hull) > MAX_GROWTH * base + 1e-9:
            return None
        if not all(point_in_polygon(_center(box), hull) for box in boxes):
            return None
        if any(polygons_overlap(hull, other) for other in others):
            return None
        return hull

    def landed(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point],
               on_zones: Mapping[str, Sequence[Sequence[Point]]] | None = None,
               drawn: Mapping[str, Sequence[Point]] | None = None
               ) -> tuple[str, Polygon] | None:
        """A card of the game settled outside every zone at ``box``: when it overlaps one
        of the cards lying in a pile (``on_zones``: card boxes by zone), that pile grows
        to take it in. A card that touches no card of the pile grows nothing."""
        if self.nearest(polygons, box) is None:
            return None
        for name, boxes in (on_zones or {}).items():
            if self.grows(name) and name in polygons and \
                    any(polygons_overlap(box, other) for other in boxes):
                hull = self.grown(polygons, name, [box], drawn)
                if hull is not None:
                    return name, hull
        return None

    def counted(self, polygons: Mapping[str, Sequence[Point]], box: Sequence[Point],
                drawn: Mapping[str, Sequence[Point]] | None = None
                ) -> tuple[str, Polygon] | None:
        """The host counted a card seen at ``box`` outside every zone: the nearest pile
        (within twice ``EDGE``) grows to take it in, short of every other zone and within
        ``SPREAD`` of its drawing (a card counted farther out lies in a player's area)."""
        name = self.nearest(polygons, box, 2 * EDGE)
        if name is None:
            return None
        hull = self.grown(polygons, name, [box], drawn)
        return None if hull is None else (name, hull)
