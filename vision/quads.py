"""Code outlines (four corners) compared: area, containment, overlap, and phantom reads.

A *phantom* is a read that is not a code of its own: a retry that decodes a few modules
inside a larger code as a short code, or a text that fails the deck check right on top of
a card that passed it. ``drop_phantoms`` removes both kinds. Pure Python (no ``cv2``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vision.frames import Corners, Detection, Point


def point_in_polygon(p: Point, polygon: Sequence[Point]) -> bool:
    """True when ``p`` lies inside ``polygon`` (even-odd rule; edges count as inside-ish)."""
    x, y = p
    inside = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross:
                inside = not inside
    return inside


#: an inner code's modules at most this share of the outer's are printed, not phantoms
FINER = 0.7
#: a quad this small (square pixels) is no code: zxing-cpp reports some failures at (0, 0)
MIN_AREA = 16.0


def area(q: Corners) -> float:
    """The area of a polygon in square pixels (shoelace formula; 0 for fewer than 3 points)."""
    if len(q) < 3:
        return 0.0
    s = 0.0
    for (x1, y1), (x2, y2) in zip(q, (*q[1:], q[0]), strict=True):
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


def center(q: Corners) -> Point:
    return (sum(p[0] for p in q) / len(q), sum(p[1] for p in q) / len(q))


def is_real(q: Corners) -> bool:
    """Four corners that enclose some area (not zxing-cpp's all-zero "no position")."""
    return len(q) == 4 and area(q) >= MIN_AREA


def inside(a: Corners, b: Corners) -> bool:
    """True when every corner of ``a`` lies in ``b`` and ``a`` is the smaller outline."""
    if not (is_real(a) and is_real(b)) or area(a) >= area(b):
        return False
    return all(point_in_polygon(p, b) for p in a)


def overlap(a: Corners, b: Corners) -> bool:
    """True when the outlines share area (a corner or the centre of one lies in the other)."""
    if not (is_real(a) and is_real(b)):
        return False
    return any(point_in_polygon(p, b) for p in (*a, center(a))) or any(
        point_in_polygon(p, a) for p in (*b, center(b)))


def pitch(d: Detection) -> float:
    """Pixels a module (the outline's mean side over ``modules``); 0 when unknown."""
    return area(d.corners) ** 0.5 / d.modules if d.modules else 0.0


def drop_inner(found: Sequence[Detection]) -> list[Detection]:
    """``found`` without the reads that lie inside another read's outline.

    Such a read is made of the outer code's own modules (a retry, or even the whole-frame
    pass, can find a few modules that happen to form a short code) unless its modules are
    clearly finer (``FINER``): then it is a code printed over the other (a real "double
    QR" has a small code printed over a large one) and kept.
    """
    def printed_over(d: Detection, outer: Detection) -> bool:
        return 0 < pitch(d) < FINER * pitch(outer)

    return [d for d in found if not any(
        inside(d.corners, o.corners) and not printed_over(d, o) for o in found if o is not d)]


def drop_phantoms(found: Sequence[Detection], is_ok: Callable[[str], bool]) -> list[Detection]:
    """``found`` without reads that fail the deck check while overlapping an ``ok`` read.

    ``is_ok(text)``: the deck registry accepts the text as one of our cards. Damaged
    entries (no text) are judged by the same rule: one over an ok card is that card.
    """
    ok = [d for d in found if d.text and is_ok(d.text)]
    return [d for d in found
            if (d.text and is_ok(d.text)) or not any(overlap(d.corners, o.corners) for o in ok)]
