"""What the landing watch (``vision.landing``) keeps of each zone, and which card a tag
read belongs to.

``Zone`` is one zone's small picture (one cell = ``CELL`` px of the frame), its reference
and each cell's settling time; it remembers the card-sized groups that wait for their tag
(``pending``) and the landings reported unread (``reported``, ``Reported``: each one's
cells, box, and how the zone looked when it was reported). Then:

- **A waiting group read**: a tag read inside its box on cells that have not moved since
  it settled, and not on another card (``on_another``), is its own (``read_pending``): no
  landing. A group judged or read settles the waiting groups whose unmoved cells hold
  most of it, or are most of it (``unpend``: the next card landing on it shares only
  cells that moved); the light changes none whose unmoved cells it mostly is
  (``lay_first``).
- **Which card a read is**: the cells under each tag read, when it was read, and when
  they settled (``rest``: at its first read and its last); a read whose cells settled
  ``LATER_S`` after a group when it was first read (a card that landed on it) or
  ``SAME_S`` before it when it was last read (a card it slid over, read until it covered
  its tag) is another card's (``on_another``): it explains nothing of that group.
- **Covered while it waited** (``covered``): most of a waiting group moved since it
  settled (all but ``INTACT``), or a part of it did (``PART``) and its rest is no longer
  card-sized (``still_a_card``), and what moved over it lies still: its tag can no longer
  be read, so it is a landing at its own time. One covered in part waits up to
  ``ABSORB_S`` for its cover to lie still (the next cards keep landing on it). One that
  stops waiting with nothing having read, explained or judged it, ``PART`` of it still
  changed (not taken away), is a landing too (tuning glare 48 #106).
- **Asked once** (``asked``): a card-sized group that landed within ``SAME_S`` of a landing
  already reported, the centre of either in the box of the other or the two within a
  card's long side, is that card (a part covered, then the rest; the part it slid over,
  then the card; two parts the next card split): never asked again.
- **Read later** (``read_later``): a tag first read after a landing was reported (one read
  before it was reported would have explained it: it is another card), inside
  its box, while all but ``INTACT`` of the landing's cells away from the tag are unmoved
  since, is that landing's card, unless it lies on a card that landed after it
  (``landed_after``: since the report, ``TAG_SEEN`` of the cells under it were seen at
  the report and ``OTHER`` of those look otherwise now, and what looks otherwise with them
  reaches out of the landing's box; before it, ``NEWER`` of those cells settled
  ``LATER_S`` after the landing and look now as they did then), or on what covered the
  rest of a covered card (``on_cover``).

Pure: arrays in, arrays and lists changed; no clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.frames import Image, Point

__all__ = ["CELL", "Reported", "Zone", "asked", "card_and_more", "card_sized", "is_card", "covered",
           "cells_centre", "landed_after", "lay_first", "rect_cells",
           "moved_card", "on_another",
           "on_cover", "pending_larger", "printed", "read_before", "read_later", "read_pending", "rest", "still_a_card", "under",
           "unmoved", "unpend"]

#: frame pixels per cell of the small picture
CELL = 8
#: gray levels from the reference: a cell changed
CHANGE = 22.0
#: a cell that has not moved this long (frame time) has settled
SETTLE_S = 0.25
#: connected cells that settled within this of the group's latest are one group (a card's
#: cells stop over a few frames as it slows down; the card before settled earlier)
SAME_S = 0.2
#: reads are forgotten after this long
KEEP_S = 30.0
#: ... and longer, up to this, while something else that changed lies on it (a fingertip
#: on its tag, a hand resting on it: lifted, the tag is read)
HOLD_S = 2.2
# CARD_SIDES: a card's sides in tag sides (short, long), the default of ``[camera]
# card_sides`` (``companion.config``: the demo deck's 250 x 350 card, 126 tag)
#: a landing's box sides, each within this share of a card's
SIDES = (0.68, 1.4)
#: ... its cells fill this share of its box at least
FILL = 0.5
#: ... and cover this share of a card's area at least (a resting hand covers ~0.3)
AREA = 0.35
#: ... of which this share at least was seen to change (not washed out: a few cells at the
#: edge of a reflection are no card)
SEEN = 0.06
#: ... and show a card's print: its cells' gray levels spread this much at least (a
#: standard deviation; a hand, a sleeve, a shadow is nearly flat at this scale)
PRINT = 20.0
#: a printed group larger than a card's box, up to this many times a card's sides and
#: area, is one card and what settled with it (the card before, covered as it came; the
#: hand's edge), and at least ``MORE_AREA`` of a card: a card landed there (round 12,
#: tuning glare 327 #43, 486 #20: a card and the part of another it covered, settled as
#: one group too large for either and never asked about)
MORE = 2.0
MORE_AREA = 0.6
#: ... filling this share of its box at least (a card's fills ``FILL``)
MORE_FILL = 0.35
#: a cell this bright is washed out (a lamp's glare): whether a card changed it cannot be
#: seen, so inside a group's box it counts as the group's
WASHED = 245.0
#: any other unexplained settled change becomes the reference after this long
ABSORB_S = 4.0
#: a group of fewer cells than this is a crumb, never a card (a card is hundreds)
TINY = 24
#: a covered group's cells that may still move when what covers it is said to lie still
#: (a frame blurrier than the last moves the light across a tag's edges: a few cells of
#: a card lying still "move" on most frames)
STIRS = 0.1
#: a tag read later where a landing lay is that landing's card while this share of the
#: landing's cells (away from the tag) has not moved since it was reported: a fingertip
#: or a hand over part of it lifted; a new card landing over it moves most of them
INTACT = 0.6
#: a waiting group of which this share moved since it settled, the rest no longer
#: card-sized, was covered in part by what came next
PART = 0.2
#: a tag read later where a landing lay is a card's that landed after it when this share
#: of the cells under it was seen at the report ... (the rest washed out: tuning glare 237,
#: 0.51 seen)
TAG_SEEN = 0.3
#: ... and this share of those look otherwise now: a landing's own tag, uncovered, 0.09 to
#: 0.23 (tuning fingers 0-59, 21 answers); a later card's, 0.6 to 0.93 (tuning glare 0-250
#: and fingers 0-59)
OTHER = 0.5
#: a tag read lies on another card than a group when this share of the cells under it
#: settled after the group or before it (its own tag under a fingertip that lifted: a part)
NEWER = 0.6
#: ... settled this long after the group's latest cell (a tag's own cells stop flickering
#: with the blur a little after its card's plain parts: up to 0.26 s on tuning
#: beside-no-seats video 6)
LATER_S = 0.35


@dataclass
class Reported:
    """A landing reported unread (``at``: when it landed; ``said``: when it was reported):
    its cells and box (cell coordinates)."""

    at: float
    said: float
    cells: Image
    corners: Image
    centre: Point = (0.0, 0.0)
    #: covered by what came next while it waited (``covered``), or one card and what
    #: settled with it (its box spans more than a card): a tag read in its box later may
    #: be the next card's, never this card read later
    covered: bool = False
    #: the rest of a card the next one covered in part (``landrest.rest_of_card``): what
    #: settled after it then (``landrest.cover``); a tag read later on ``NEWER`` of those
    #: cells is its cover's
    cover: Image | None = None
    #: the cells seen lying still when it was reported (its own, and what lay around it;
    #: not those washed out, nor a hand or a fingertip on it): a tag read later on those
    #: of them that moved since lies on a card that landed later
    seen: Image | None = None
    #: the zone's picture when it was reported
    look: Image | None = None


class Zone:
    """One zone's small picture, its reference and its cells' times."""

    def __init__(self, box: tuple[int, int, int, int], small: Image, at: float,
                 knocked: bool = False) -> None:
        self.box = box  # x0, y0, x1, y1 in frame pixels
        #: the camera was knocked: the picture starts again from the next still frame
        self.knocked = knocked
        self.ref = small.copy()
        self.prev = small
        self.still_since: Image = np.full(small.shape, at, np.float64)
        #: each cell's value when it last lay still, and since when (``PASSED``)
        self.calm = small.copy()
        self.calm_since = self.still_since.copy()
        self.frames = 0
        self.reported: list[Reported] = []  # landings reported unread, not read since
        #: text -> the settling times of the cells under its tag at its first read and
        #: at its last, and whether what moved with it at its first read was card-sized
        self.rests: dict[str, tuple[Image, Image, bool]] = {}
        #: card-sized groups waiting for their tag (``said``: when they settled)
        self.pending: list[Reported] = []
        #: text -> the cells its reads explained (its card, and what lay on it then: a
        #: fingertip, a hand), where its tag lay (px) and when its card landed
        #: (``landrest.uncovered``)
        self.explained: dict[str, tuple[Image, Point, float]] = {}


def is_card(rect: Any, n: int, card: tuple[float, float]) -> bool:
    """Whether a group's box and cells are those of one card (``card``: its sides, px)."""
    a, b = sorted((rect[1][0] * CELL, rect[1][1] * CELL))
    lo, hi = SIDES
    if not (lo * card[0] <= a <= hi * card[0] and lo * card[1] <= b <= hi * card[1]):
        return False
    cells_px = n * CELL * CELL
    return cells_px >= FILL * a * b and cells_px >= AREA * card[0] * card[1]


def card_and_more(rect: Any, n: int, card: tuple[float, float]) -> bool:
    """Whether a group's box and cells (``n``) too large for one card's box are one card
    and what settled with it (``card``: its sides, px): its box within ``MORE`` of a
    card's sides (the short side a card's at least), its cells ``MORE_AREA`` to ``MORE``
    cards and filling ``MORE_FILL`` of its box. Whether it shows print is the caller's
    (``printed``)."""
    a, b = sorted((rect[1][0] * CELL, rect[1][1] * CELL))
    px = n * CELL * CELL
    return (SIDES[0] * card[0] <= a and b <= MORE * card[1]
            and MORE_AREA * card[0] * card[1] <= px <= MORE * card[0] * card[1]
            and px >= MORE_FILL * a * b)


def printed(cells: Image, small: Image) -> bool:
    """Whether a group shows a card's print: its cells' gray levels spread by ``PRINT``,
    and by half that inside, where it has an inside of ``TINY`` cells (its rim's cells mix
    it with what lies around it: a flat hand resting on cards spreads by ``PRINT`` there,
    by 0.2-1.8 inside, tuning hands 7, 10; the part of a card the next one covered, by 15
    inside, tuning fingers 18 #84)."""
    import cv2

    if float(np.std(small[cells])) < PRINT:
        return False
    inside = cv2.erode(cells.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return bool(np.count_nonzero(inside) < TINY or float(np.std(small[inside])) >= PRINT / 2)


def rect_cells(rect: Any, shape: tuple[int, ...]) -> Image:
    """The cells of a zone's small picture (``shape``) inside a rotated box ``rect``."""
    import cv2

    box = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(box, [np.round(cv2.boxPoints(rect) - 0.5).astype(np.int32)], 1)
    out: Image = box.astype(bool)
    return out


def card_sized(cells: Image, rect: Any, washed: Image, card: tuple[float, float],
               box: Image | None = None, more: bool = False) -> bool:
    """Whether a group (``cells``, its rotated box ``rect``; ``box``: that box's cells,
    drawn when not given) is card-sized (``is_card``), or with ``more`` one card and what
    settled with it (``card_and_more``), the cells washed out to white in its box counted
    as its own (under a lamp's glare nothing can be seen to change)."""
    inside = rect_cells(rect, cells.shape) if box is None else box
    n = int(np.count_nonzero(cells)) + int(np.count_nonzero(inside & ~cells & washed))
    return (card_and_more if more else is_card)(rect, n, card)


def unmoved(zone: Zone, p: Reported) -> Image:
    """The cells of a waiting group ``p`` that have not moved since it settled."""
    out: Image = p.cells & (zone.still_since <= p.said + 1e-9)
    return out


def cells_centre(cells: Image) -> tuple[float, float]:
    """The centre of ``cells`` in a zone's cells (a cell's own centre at +0.5)."""
    ys, xs = np.nonzero(cells)
    return float(np.mean(xs)) + 0.5, float(np.mean(ys)) + 0.5


def still_a_card(cells: Image, small: Image, card: tuple[float, float]) -> bool:
    """Whether what is left in view of a waiting group (``cells``) is still card-sized
    (cells washed out to white in its box count as its own)."""
    import cv2

    ys, xs = np.nonzero(cells)
    if len(xs) < TINY:
        return False
    rect = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32) + 0.5)
    return card_sized(cells, rect, small >= WASHED, card)


def covered(zone: Zone, small: Image, at: float, card: tuple[float, float]) -> list[Reported]:
    """Card-sized groups that waited for their tag and were covered meanwhile: most of
    their cells moved since they settled (all but ``INTACT``), or a part of them did
    (``PART``) and what is left of them is no longer card-sized; and what moved over
    them lies still. No tag of theirs can be read now, so each is a card that landed
    unread, at its time (a card covered by the next before it was judged: cond-tune glare
    #33, #49; #50, about 0.4 covered, its rest no longer card-sized)."""
    out: list[Reported] = []

    def report(p: Reported) -> None:  # a landing, at its time, unless asked about already
        if not asked(zone, p.at, p.cells, p.corners, card[1] / CELL):
            zone.reported.append(Reported(p.at, at, p.cells, p.corners, covered=True))
            out.append(p)

    for p in list(zone.pending):
        moved = zone.still_since[p.cells] > p.said + 1e-9
        share = float(np.mean(moved))
        # judged as a group meanwhile, or never a card; one covered in part waits
        # longer for what covers it to lie still (the next cards keep landing on it)
        if at - p.said > (HOLD_S + SETTLE_S if share < PART else ABSORB_S):
            zone.pending.remove(p)
            # nothing explained it, read it or judged it, and it is still there (not
            # back at the reference: a hand that took it away): a card (glare 48 #106)
            if float(np.mean(np.abs(small[p.cells] - zone.ref[p.cells]) > CHANGE)) >= PART:
                report(p)
            continue
        if share < PART:
            continue  # still in view: judged as a group (its tag may yet be read)
        left = unmoved(zone, p)
        if 1.0 - share >= INTACT and still_a_card(left, small, card) and at - p.said < HOLD_S:
            continue  # still a card in view: judged as a group (until ``HOLD_S``: a group
            # whose cells differ from what is left of it may never pass: tuning glare 34)
        if float(np.mean(at - zone.still_since[p.cells] < SETTLE_S)) > STIRS:
            continue  # what covers it still moves (a hand passing over and leaving?)
        zone.pending.remove(p)
        zone.ref[left] = small[left]  # its uncovered part: no card of its own
        report(p)
    return out


def read_pending(zone: Zone,
                 tags: Sequence[tuple[str, Sequence[Point]]]) -> list[tuple[str, float]]:
    """A tag read inside a waiting group's box where its cells have not moved since it
    settled: its own tag (a later card's tag lies on cells that moved, and is another card's
    by ``on_another``: its cell may look as it did, white on white, tuning glare 25): no
    landing.
    Returns those tags, each with when its card landed (``LandingWatch.settled_reads``)."""
    import cv2

    x0, y0 = zone.box[0], zone.box[1]
    h, w = zone.still_since.shape[:2]
    out: list[tuple[str, float]] = []
    for text, quad in tags:
        cx = sum(p[0] for p in quad) / len(quad)
        cy = sum(p[1] for p in quad) / len(quad)
        cell = ((cx - x0) / CELL, (cy - y0) / CELL)
        i, j = int(cell[1]), int(cell[0])
        if not (0 <= i < h and 0 <= j < w):
            continue
        for p in list(zone.pending):
            if cv2.pointPolygonTest(p.corners.reshape(-1, 1, 2), cell, False) < 0:
                continue
            if on_another(zone.rests.get(text), (p.at, p.said)):
                continue  # a card that landed on it (its tag on a cell that looks the same)
            if zone.still_since[i, j] <= p.said + 1e-9:
                zone.pending.remove(p)
                out.append((text, p.at))
    return out


def read_later(zone: Zone, at: float, tags: Sequence[tuple[str, Sequence[Point]]],
               small: Image, card: tuple[float, float],
               first: dict[str, tuple[float, Point]],
               later: dict[str, float]) -> None:
    """A tag read inside the box of a landing reported unread, first read after it was
    reported (``first``: text -> its first read), not on a card that landed since
    (``landed_after``), while the landing's other cells still look as they did (all but
    ``INTACT`` unmoved since): that landing's card, read now (``later``: text -> when
    its card landed)."""
    import cv2

    zone.reported = [r for r in zone.reported if at - r.at <= KEEP_S]
    x0, y0 = zone.box[0], zone.box[1]
    for text, quad in tags:
        xs = [(p[0] - x0) / CELL for p in quad]
        ys = [(p[1] - y0) / CELL for p in quad]
        centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        read_at = first[text][0] if text in first else at
        for r in zone.reported:
            if r.covered:
                continue
            if read_at < r.said:
                continue  # read before it was reported (it would have been explained)
            if cv2.pointPolygonTest(r.corners.reshape(-1, 1, 2), centre, False) < 0:
                continue
            if r.cover is not None and on_cover(zone, r.cover, quad):
                continue  # the tag of what covered it
            if landed_after(zone, r, quad, small, card):
                continue  # the tag of a card that landed on it since
            away = r.cells.copy()  # the landing's cells away from the tag
            away[max(0, int(min(ys)) - 1):int(max(ys)) + 2,
                 max(0, int(min(xs)) - 1):int(max(xs)) + 2] = False
            still = zone.still_since[away] <= r.said
            if still.size and float(np.mean(still)) >= INTACT:
                later[text] = r.at
                zone.reported.remove(r)
                break


def unpend(zone: Zone, cells: Image, part: bool = True) -> None:
    """The waiting groups that share ``INTACT`` of their cells, unmoved since they settled,
    with ``cells`` (the same card, read or judged) are settled; a card that covered one of
    them shares only cells that moved. With ``part``, so is one whose unmoved cells hold
    most of ``cells`` (the same card, read or judged on a part of it; not for the light,
    which lies on a card; not the next card landing on most of it: glare 44 #71)."""
    n = np.count_nonzero(cells)

    def shared(p: Reported) -> int:  # its cells, unmoved since it settled, in ``cells``
        return int(np.count_nonzero(unmoved(zone, p) & cells))

    zone.pending = [p for p in zone.pending if shared(p) < INTACT * np.count_nonzero(p.cells)
                    and not (part and n and shared(p) >= 0.8 * n)]


def waiting_else(zone: Zone, landed: float) -> Image:
    """The unmoved cells of the waiting groups that landed at another time than ``landed``
    (more than ``SAME_S`` apart): other cards, each still waiting for its own tag. A card
    reported now never takes them in with its other parts (tuning glare 83: the card that
    landed on a waiting card under the lamp, waiting for its tag in turn, taken into the
    reference with it and never asked about)."""
    out: Image = np.zeros(zone.ref.shape, bool)
    for p in zone.pending:
        if abs(p.at - landed) > SAME_S:
            out |= unmoved(zone, p)
    return out


def lay_first(zone: Zone, cells: Image) -> bool:
    """Whether a waiting group holds ``INTACT`` of ``cells`` unmoved since it settled: a
    card lay there first, and these cells are (a part of) it."""
    n = np.count_nonzero(cells)
    return any(np.count_nonzero(unmoved(zone, p) & cells) >= INTACT * n for p in zone.pending)


def pending_larger(zone: Zone, cells: Image) -> bool:
    """Whether a waiting group already holds most of ``cells`` and more (the same card, a
    part of it covered since)."""
    n = np.count_nonzero(cells)
    return any(np.count_nonzero(p.cells & cells) >= 0.8 * n and np.count_nonzero(p.cells) > n
               for p in zone.pending)


def rest(zone: Zone, at: float, tags: Sequence[tuple[str, Sequence[Point]]],
         reads: dict[str, tuple[float, Point]], card: tuple[float, float]) -> None:
    """Each tag read in this frame: the settling times of the cells under it (``rests``:
    at its first read, while it is kept, and at this one), kept while its read is
    (``reads``), and whether, at its first read, what had moved with it lately was
    card-sized (``moved_card``)."""
    for text, quad in tags:
        cells = under(zone, quad)
        times = zone.still_since[cells].copy()
        if text in zone.rests:
            first, _, whole = zone.rests[text]
        else:
            first, whole = times, moved_card(zone, cells, at, card)
        zone.rests[text] = (first, times, whole)
    for text in [t for t in zone.rests if t not in reads]:
        del zone.rests[text]
    for text in [t for t in zone.explained if t not in reads]:
        del zone.explained[text]


def moved_card(zone: Zone, cells: Image, at: float, card: tuple[float, float]) -> bool:
    """Whether the cells that moved together with a tag's ``cells`` cover ``AREA`` of a card
    at least: a card that slid in, not a fingertip lifted off its own card's tag (cond-tune
    ``fingers``: a tag read once as the fingertip lifts, up to 0.6 s after its card landed,
    is that card's). Together: in the ``LATER_S`` before the tag's cells settled (their
    median time; ``at`` without cells), as if it was read then: a tag read only later (one
    a lamp's glare washed a finder of, read once its card lay still: tuning glare 399 #66)
    is as much a card that slid in."""
    import cv2

    moved = zone.still_since[cells]
    last = float(np.median(moved)) if moved.size else at
    recent = ((zone.still_since >= last - LATER_S)
              & (zone.still_since <= last)).astype(np.uint8)
    n, labels = cv2.connectedComponents(recent, connectivity=8)
    ids = np.unique(labels[cells & recent.astype(bool)])
    ids = ids[ids > 0]
    if n <= 1 or ids.size == 0:
        return False
    return int(np.count_nonzero(np.isin(labels, ids))) * CELL * CELL >= AREA * card[0] * card[1]


def on_another(rest: tuple[Image, Image, bool] | None, span: tuple[float, float]) -> bool:
    """Whether a tag read lay on another card than a group whose cells settled over
    ``span`` (from when it landed, its cells' median time, to its latest): ``NEWER`` of
    the cells under it settled ``LATER_S`` after the group landed when it was first read
    (not after its latest cells: a hand that brought the next card stirred them, tuning
    glare 399 #48), card-sized with what moved with them (a card that landed on it later;
    a hand that came to rest on its own tag later does not make it another card, nor a
    fingertip lifted off it), or ``SAME_S`` before it when it was last read (a card it was
    sliding over, read until it covered its tag), or when it was first read, most of them
    still so at its last read (a card that lay there before it, its tag read only later:
    one a lamp's glare washed a finder of, tuning glare 50 #89, beside the card that
    landed at 3.63 s and in its box; a card moved since has its tag's cells settled anew).
    Its own tag settled with it (a little later: its modules flicker with the blur as it
    stops)."""
    if rest is None:
        return False
    first, last, whole = rest
    before = span[0] - SAME_S
    older = float(np.mean(last < before)) if last.size else 0.0  # at its last read
    if first.size > 0 and float(np.mean(first < before)) >= NEWER and older > 0.5:
        return True
    return ((whole and first.size > 0 and float(np.mean(first > span[0] + LATER_S)) >= NEWER)
            or older >= NEWER)


def read_before(first: tuple[float, Point] | None, centre: Point, landed: float) -> bool:
    """Whether a tag read at ``centre`` (px) was first read (``first``: when, and where)
    ``SAME_S`` before a group landed (``landed``), where it lies now (within ``CELL``):
    its card lay there, read, before that group came, and its read does not explain the
    group, whose cells may take in some of that tag's own (round 13: tuning glare 346 #99,
    landed 0.33 s after the card before it was first read, its group holding cells of that
    card's tag). A part of that card back in view is ``landrest.uncovered``'s. Asked where
    a group is judged (``vision.landing``); a waiting card's tag (``read_pending``) and a
    covered card's own tag near it (``landrest.read_near``) are judged by ``on_another``
    alone."""
    return (first is not None and first[0] < landed - SAME_S
            and math.dist(first[1], centre) <= CELL)


def asked(zone: Zone, at: float, cells: Image, corners: Image, reach: float = 0.0) -> bool:
    """Whether a card that landed at ``at`` on ``cells`` (their box: ``corners``) was
    reported already: a landing within ``SAME_S`` of it, the centre of either in the box
    of the other (one card seen as two groups: a part covered by the next card, the rest
    judged after; the part it slid over as it landed, then the card), or, with ``reach``
    (a card's long side, cells), the two centres within it (two parts of one card the
    next one split: tuning glare 18, 34; one hand plays one card at a time)."""
    import cv2

    def inside(cells: Image, corners: Image) -> bool:
        return cv2.pointPolygonTest(corners.reshape(-1, 1, 2), cells_centre(cells), False) >= 0

    return bool(np.any(cells)) and any(
        abs(r.at - at) <= SAME_S and (inside(cells, r.corners) or inside(r.cells, corners)
                                      or math.dist(cells_centre(cells), cells_centre(r.cells)) <= reach)
        for r in zone.reported)


def landed_after(zone: Zone, landing: Reported, quad: Sequence[Point], small: Image,
                 card: tuple[float, float]) -> bool:
    """Whether a tag read (``quad``, frame pixels) where a landing reported unread lay is
    that of a card that landed after it. Before the report: ``NEWER`` of the cells under
    it settled ``LATER_S`` after the landing, by the report, and look now as they did
    then. Since the report: ``TAG_SEEN`` of the cells under it were seen when the landing
    was reported (``Reported.seen``), ``OTHER`` of those look different now (``CHANGE``),
    and what looks different, with them, reaches out of the landing's box over ``SEEN`` of
    a card. The landing's own tag lay hidden then (washed out, under a fingertip or a hand)
    or, under a hand that came and went, looks as it did; a hand on it when it settled
    lifts inside its box."""
    import cv2

    if landing.seen is None or landing.look is None:
        return False
    tag = under(zone, quad)
    if not np.any(tag):
        return False
    differs = np.abs(small - landing.look) > CHANGE
    # before the report: ``NEWER`` of the cells under it settled ``LATER_S`` after the
    # landing, by the report (``SAME_S`` after it), and look now as they did then (all but
    # ``OTHER``): what lies there now lay there then, come after it (tuning glare 131: 0.95
    # settled later, none otherwise; 736, the next card read as it settled, as the landing
    # was reported: 1.0, 0.13). Its own tag settled with it (0.11-0.41 later, 43 reads on
    # tuning glare 0-750, fingers and hands 0-59); a hand on it at the report looks
    # otherwise once it lifts, and one that came after the report lifted after it
    settled = zone.still_since[tag]
    if (float(np.mean((settled > landing.at + LATER_S) & (settled <= landing.said + SAME_S)))
            >= NEWER and float(np.mean(differs[tag])) < OTHER):
        return True
    # since the report: enough of it seen then (``TAG_SEEN``), and ``OTHER`` of what was
    # seen looks otherwise now (not "most of it both": a card's tag, slid in after the
    # report, on cells of which 0.81 were seen and 0.74 differ passed for the landing's
    # own: tuning glare 56, 0.597 < 0.6; nor "most of it seen": glare 237's, 0.51 seen,
    # 0.76 of those otherwise; nor 0.6 otherwise: glare 162's, 0.596)
    seen = landing.seen[tag]
    if float(np.mean(seen)) < TAG_SEEN or float(np.mean(differs[tag][seen])) < OTHER:
        return False
    _, labels = cv2.connectedComponents(differs.astype(np.uint8), connectivity=8)
    parts = set(np.unique(labels[tag & differs])) - {0}
    box = np.zeros(differs.shape, np.uint8)
    cv2.fillPoly(box, [np.round(landing.corners - 0.5).astype(np.int32)], 1)
    out = np.isin(labels, list(parts)) & ~box.astype(bool)
    return int(np.count_nonzero(out)) * CELL * CELL >= SEEN * card[0] * card[1]


def on_cover(zone: Zone, cover: Image, quad: Sequence[Point]) -> bool:
    """Whether a tag read (``quad``, frame pixels) in the box of the rest of a covered card
    lies on what covered it: ``NEWER`` of the cells under it are of ``cover`` (what settled
    after that rest when it was reported, ``landrest.cover``). Its own tag, half under
    the lamp, lies on the rest and on cells that never changed (tuning glare 592: 0.3)."""
    tag = under(zone, quad)
    return bool(np.any(tag)) and float(np.mean(cover[tag])) >= NEWER


def under(zone: Zone, quad: Sequence[Point]) -> Image:
    """The cells of ``zone`` under a tag's outline (frame pixels)."""
    import cv2

    x0, y0 = zone.box[0], zone.box[1]
    under = np.zeros(zone.still_since.shape, np.uint8)
    cells = np.array([((p[0] - x0) / CELL, (p[1] - y0) / CELL) for p in quad])
    cv2.fillPoly(under, [np.round(cells - 0.5).astype(np.int32)], 1)
    return under.astype(bool)
