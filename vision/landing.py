"""Cards that land on the pile with a tag nobody could read (issue 36: a lamp's glare).

Where a tag is truly unreadable (a reflection washes its modules out) the camera cannot
name the card, but it can see that *something card-sized landed*: the pile's picture
changed and settled, and no tag was read in the change. ``LandingWatch`` tells the table
so (``companion.inputs.CardLanded``), and the game asks the host which card it was.

How, on a small picture of the zone (one cell = ``CELL`` px of the frame, gray, averaged;
what the watch keeps of each zone, and which card a tag read belongs to, is
``vision.landmemory``):

1. A cell *moved* when it differs from the last frame by more than ``MOTION`` levels; it
   has *settled* once it has not moved for ``SETTLE_S`` seconds of frame time. A cell
   that settles back within ``PASSED`` of its value before it moved keeps its older
   settling time: something passed over it and left (a card sliding in, a hand), and its
   trail does not join the card that settled meanwhile. A frame in which ``KNOCK`` of the
   zone moved is a knocked camera: the picture starts again from the next frame in which
   less than ``QUIET`` moved (not from one with a card sliding in: tuning glare video 8).
2. A cell has *changed* when it differs from the *reference* (the zone as last explained)
   by more than ``CHANGE`` levels. Unchanged settled cells follow the picture (slow light).
3. Changed settled cells are grouped: neighbours whose settling times lie within
   ``SAME_S`` of each other are one group (a card that landed, a hand that came to rest;
   two cards landing one after the other are two groups even where they touch).
4. A group with a tag read in it since it settled (``RECENT_S`` before, at most) is
   *explained*: the reference takes it (a card that was read, moved, or uncovered). Not
   by the read of another card (``landmemory.on_another``): a tag whose cells, when it was
   read, settled well after the group landed (a card that landed on a part of it: tuning
   glare #36, #80; after the group's median time, not its latest cells: 399 #48, round
   13) or well before it (the card it slid over, read until it covered its tag: #110; a
   card that lay there before it, its tag first read only later: #50, round 11); nor a
   tag first read ``SAME_S`` before the group landed, where it still lies (its card lay
   there, read, before the group came: the group holds cells of its tag, 346 #99, round
   13; ``landmemory.read_before``; a part of that card back in view is step 6's). The
   read says a card lay there (``settled_reads``: the pipeline books a tag read once) when
   the group is card-sized, or is what is left in view of a card the next one covers
   (``vision.landrest``: a hand over the rest lifted as it came).
5. A group that is **the light** (``vision.landlight``: a lamp's reflection appearing,
   moving or switched off) is taken into the reference, never a landing; not a waiting
   card's unmoved cells (``landmemory.lay_first``).
6. A group next to changed cells that moved in the last ``MOVING_S`` waits (a hand is
   still there, or the next card is sliding in); an unexplained group waits ``WAIT_S``
   after settling, and up to ``HOLD_S`` while other changed cells that settled with it or
   after it lie in its box (a fingertip on the tag: lifted, the tag is read; an older
   card's corner in its box holds nothing). What moves beside it or on it and never
   settles holds it ``STIR_S`` at most (the edges of a card under a reflection flicker
   with each frame's blur: tuning glare #21). Then it is a landing only when it is
   **card-sized**: its rotated bounding box is ``CARD_SIDES`` (within ``SIDES``) of a card
   whose tag is the median of the tags of the last ``SIZES`` cards read (one a card, its
   latest side; ``DEFAULT_TAG_PX``, the calibration's reliable tag, before any was read),
   it fills that box by ``FILL`` at least, its cells cover ``AREA`` of a card at least
   (cells washed out to white in its box count as its own: under a lamp's glare nothing
   can be seen to change) and ``SEEN`` of a card are its own (a few cells at the edge of
   a reflection are no card), it shows print (its cells' gray levels spread by ``PRINT``
   at least: a hand is nearly flat), and its centre (washed-out cells in its box counted)
   lies in the zone. A printed group too large for a card's box but within ``MORE`` of
   a card's sides and area (``landmemory.card_and_more``) is one card and what settled
   with it (the card before, covered as it came: tuning glare 327 #43, 486 #20): card-sized
   too. The landing's time
   is the median settling time of its cells: when the card stopped, not when it was
   noticed. A card-sized group that landed within ``SAME_S`` of a landing reported already,
   the centre of either in the box of the other, or the two within a card's long side, is
   that card: asked about once. A group too small for a card that a later change touches
   is **the rest of a covered card** (``vision.landrest``): a landing too, unless its own
   tag was read near it. A group that lies where a card's reads explained the change,
   landed after it, is **that card's part back in view** as a fingertip or a hand lifts
   (``landrest.uncovered``): explained once its tag is read again.
7. **Covered while it waited** (``landmemory.covered``): a group that was card-sized while
   it waited is remembered; a tag read on its cells that have not moved since settles it
   (its own tag). When, before it was judged, most of it (all but ``INTACT``) moved, or a
   part of it (``PART``) and the rest is no longer card-sized (tuning glare #50, #80), and
   what moved over it lies still (the next card), its tag can no longer be read: it is a
   landing, at its own time. One that stops waiting unexplained and still there (``PART``
   of it still changed) is a landing too.
8. Anything else that settled (a resting hand: smaller than a card; a knocked camera, a
   pile swept away: much larger) is never a landing: a group larger than ``SWEEP`` cards
   becomes the reference after ``SETTLE_S``, any other after ``ABSORB_S``.
9. **Read later** (``landmemory.read_later``): a tag first read after a landing was
   reported, inside its box, while its other cells lie as they did, is that card
   (``read_later``: its text and landing time); never for a card and what settled with
   it (its box spans more than a card: the next card's tag may lie in it, tuning glare
   320), nor for the rest of a covered card when the tag lies on what covered it
   (``landmemory.on_cover``; its own tag, on the rest, is its read: tuning glare 592),
   never the tag of a card that landed on it after it (``landmemory.landed_after``:
   since the report, the cells under the tag were seen then and look otherwise now, and
   what changed with them reaches out of the landing's box; before it, most of those
   cells settled well after the landing and look now as they did then: tuning glare
   131, 736).

Never a card invented: a hand passing over the pile moves and leaves (nothing settles), a
resting hand is not card-sized, a knock is far larger than a card, a lamp switched on is
the light. What is missed stays missed (a card landing under a resting hand, a card
covered whole by the next before it settled): the host's hand entry is still there. Pure:
frames in, landing times out; no clock, no threads.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.config import CARD_SIDES
from vision.calibration import MODULES, RELIABLE_MODULE_PX
from vision.frames import Image, Point
from vision.landlight import is_light
from vision.landmemory import (
    ABSORB_S,
    CELL,
    CHANGE,
    HOLD_S,
    KEEP_S,
    PRINT,
    SAME_S,
    SEEN,
    SETTLE_S,
    TINY,
    WASHED,
    Reported,
    Zone,
    asked,
    card_sized,
    cells_centre,
    covered,
    lay_first,
    on_another,
    pending_larger,
    printed,
    read_before,
    read_later,
    read_pending,
    rect_cells,
    rest,
    unpend,
    waiting_else,
)
from vision.landrest import cover, explain, read_near, rest_of_card, uncovered
from vision.quads import center, point_in_polygon

__all__ = ["CARD_SIDES", "CELL", "DEFAULT_TAG_PX", "Landing", "LandingWatch"]

#: gray levels between two frames: a cell moved
MOTION = 7.0
#: a changed cell that moved this recently is still moving (a hand, the next card)
MOVING_S = 0.07
#: a tag read in a group since this long before the group settled explains it (a card's
#: tag read as it landed, then covered by the next card, still explains its change; the
#: tag of a card under a new one was last read before that one landed)
RECENT_S = 0.1
#: an unexplained card-sized group waits this long for its tag before it is a landing
WAIT_S = 0.45
#: a group waits at most this long after it settled while something moves beside it or
#: on it (a hand, the next card sliding in; the edges of a card under a lamp's reflection
#: flicker with each frame's blur and never settle: tuning glare #21, #110)
STIR_S = 1.2
#: a settled change larger than this many cards is the table's new look (a sweep, a knock)
SWEEP = 2.5
#: the groups are judged on one frame in this many (each cell's times on every frame)
JUDGE_EVERY = 3
#: how many cards' tags, the latest read, set a card's size (one vote a card: the side
#: of its tag when it was last read; a card read on every frame is one card, not 30)
SIZES = 30
#: a tag's side (px) until the first tag is read: the module size the calibration card
#: advises the stickers for (``vision.calibration``: 4 px a module, 21 modules a side). A
#: table set up as advised sees tags of that size or a little larger (the advice rounds
#: up to the next printed size); ``SIDES`` around it takes tags of 57-118 px
DEFAULT_TAG_PX = RELIABLE_MODULE_PX * MODULES
#: a cell back to within this of its value before it last moved has not changed: something
#: passed over it (a card sliding in, a hand) and left; it keeps its older settling time
PASSED = MOTION
#: the picture watched reaches this far (px) beyond the zone: a card landing at its
#: edge is seen whole (its centre must still lie in the zone)
BEYOND = 96
#: a frame in which this share of a zone's cells moved at once: the camera was knocked
#: (or the light switched): the zone's picture starts again from the next still frame. A
#: card and the hand delivering it moved 0.31 (tuning glare 45: at 0.3 the card was lost),
#: a knock 0.62 (tuning bump 0)
KNOCK = 0.45
#: ... and it starts again from the first frame in which less than this share moved (a
#: still frame; a lamp's reflection makes a few cells flicker on most frames)
QUIET = 0.02


@dataclass(frozen=True)
class Landing:
    """A card-sized change that settled in ``zone`` at ``at`` with no tag read in it;
    ``center`` is normalised."""

    zone: str
    at: float
    center: Point


class LandingWatch:
    """Watches the zones where cards are played; ``update`` returns the landings it found."""

    def __init__(self, card_sides: tuple[float, float] = CARD_SIDES,
                 tag_px: float = DEFAULT_TAG_PX) -> None:
        self.card_sides = card_sides
        #: a tag's side (px) until one is read
        self.tag_px = tag_px
        self._zones: dict[str, Zone] = {}
        self._sides: dict[str, float] = {}  # text -> its tag's side when last read, px
        self._reads: dict[str, tuple[float, Point]] = {}  # text -> its last read, centre px
        #: text -> when it was first read, and where (its centre, px), while it is kept
        self._first: dict[str, tuple[float, Point]] = {}
        #: text -> when its card landed: tags read where a landing reported unread lay
        self.read_later: dict[str, float] = {}
        #: text -> when its card landed: tags read in a card-sized group that settled
        #: (``_judge``, explained), or in what is left in view of a card the next one
        #: covers (``landrest.rest_of_card``: tuning fingers 78 #85), or on a waiting one's
        #: unmoved cells (its own tag); None: its read explained a group that is no card
        #: lying there first (the latest settled: its own card, covered, is judged before
        #: an older card around it). The pipeline pops them every frame and confirms a tag
        #: the tracker holds read once
        self.settled_reads: dict[str, float | None] = {}

    def reset(self) -> None:
        """Forget every zone's reference (the zones moved: drawn again, followed, grown)."""
        self._zones.clear()

    def card_px(self) -> tuple[float, float]:
        """A card's (short, long) sides in frame pixels: from the tags of the last ``SIZES``
        cards read (the median, one a card), ``tag_px`` before any was read."""
        tag = statistics.median(self._sides.values()) if self._sides else self.tag_px
        return tag * self.card_sides[0], tag * self.card_sides[1]

    def update(self, at: float, image: Image, zones: dict[str, list[Point]],
               tags: Sequence[tuple[str, Sequence[Point]]]) -> list[Landing]:
        """One frame (gray or colour), the zones to watch (normalised polygons) and the
        tags read in it (text, outline in pixels): the landings that settled."""
        import cv2  # not at import: the table's modules load on a machine without OpenCV

        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape[:2]
        for text, quad in tags:
            centre = center(tuple(quad))
            if text not in self._reads:
                self._first[text] = (at, centre)
            self._reads[text] = (at, centre)
            self._sides.pop(text, None)  # the latest last
            self._sides[text] = math.dist(quad[0], quad[1]) / 2 + math.dist(quad[1], quad[2]) / 2
            if len(self._sides) > SIZES:
                del self._sides[next(iter(self._sides))]
        for text in [t for t, (when, _) in self._reads.items() if at - when > KEEP_S]:
            del self._reads[text]
            self._first.pop(text, None)
        out: list[Landing] = []
        card = self.card_px()  # this frame's reads counted
        for name in [n for n in self._zones if n not in zones]:
            del self._zones[name]
        for name, polygon in zones.items():
            box = _box(polygon, w, h)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            crop = gray[y0:y1, x0:x1]
            small = cv2.resize(crop, ((x1 - x0) // CELL, (y1 - y0) // CELL),
                               interpolation=cv2.INTER_AREA).astype(np.float32)
            zone = self._zones.get(name)
            if zone is None or zone.box != box:
                self._zones[name] = Zone(box, small, at)
                continue
            out += self._look(name, zone, small, at, polygon, (w, h), card, tags)
            if zone.pending:  # its own tag read: the card lay there (``settled_reads``)
                for text, landed in read_pending(zone, tags):
                    if self.settled_reads.get(text) is None:
                        self.settled_reads[text] = landed
            if zone.reported:
                read_later(zone, at, tags, small, card, self._first, self.read_later)
        return out

    def _look(self, name: str, zone: Zone, small: Image, at: float,
              polygon: list[Point], size: tuple[int, int], card: tuple[float, float],
              tags: Sequence[tuple[str, Sequence[Point]]]) -> list[Landing]:
        moved = np.abs(small - zone.prev) > MOTION
        share = float(np.mean(moved))
        if share > KNOCK or (zone.knocked and share > QUIET):
            # the camera knocked: nothing on it is a landing; the picture starts again from
            # the next still frame (not from one with a card sliding in)
            self._zones[name] = Zone(zone.box, small, at, knocked=True)
            return []
        if zone.knocked:
            self._zones[name] = Zone(zone.box, small, at)
            return []
        zone.prev = small
        zone.still_since[moved] = at
        settled = at - zone.still_since >= SETTLE_S
        # a cell that settled back where it was lay still all along: a card sliding in or a
        # hand passed over it (its "trail" would join the card that settled meanwhile)
        back = settled & (zone.calm_since < zone.still_since) & (np.abs(small - zone.calm) <= PASSED)
        zone.still_since[back] = zone.calm_since[back]
        fresh = settled & ~back
        zone.calm[fresh] = small[fresh]
        zone.calm_since[fresh] = zone.still_since[fresh]
        changed = np.abs(small - zone.ref) > CHANGE
        calm = settled & ~changed
        zone.ref[calm] = small[calm]  # the light drifts; the reference follows it
        # where this frame's tags lie, before any group is judged (``on_another``)
        rest(zone, at, tags, self._reads, card)
        zone.frames += 1
        if zone.frames % JUDGE_EVERY:
            return []  # the cells' times are kept every frame; groups judged now and then
        busy = changed & (at - zone.still_since < MOVING_S)
        out: list[Landing] = []
        washed = small >= WASHED
        import cv2

        fringe = cv2.dilate(washed.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        groups = _groups(changed & settled, zone.still_since, washed & ~changed)
        times = [float(np.median(zone.still_since[g])) for g in groups]
        counts = [int(np.count_nonzero(g)) for g in groups]
        for cells, t in zip(groups, times, strict=True):
            # everything that changed at that moment, together or apart: a knock, a sweep
            together = sum(n for n, u in zip(counts, times, strict=True) if abs(u - t) <= SAME_S)
            landing = self._judge(zone, cells, busy, small, at, polygon, size, together,
                                  changed, washed, fringe, card)
            if landing is not None:
                out.append(Landing(name, *landing))
        out += [Landing(name, r.at, r.centre) for r in covered(zone, small, at, card)]
        return out

    def _judge(self, zone: Zone, cells: Image, busy: Image, small: Image,
               at: float, polygon: list[Point], size: tuple[int, int], together: int,
               changed: Image, washed: Image, fringe: Image,
               card: tuple[float, float]) -> tuple[float, Point] | None:
        """One settled group: explained, a landing, the table's new look, or wait."""
        import cv2

        if not np.any(np.abs(small[cells] - zone.ref[cells]) > CHANGE):
            return None  # taken in with a landing judged a moment ago (the same card)
        ys, xs = np.nonzero(cells)
        if len(xs) < TINY:  # a crumb: never a card; the reference takes it in time
            if at - float(np.max(zone.still_since[cells])) >= ABSORB_S:
                zone.ref[cells] = small[cells]
            return None
        settled_at = float(np.max(zone.still_since[cells]))
        near = cv2.dilate(cells.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        # something still moves beside it (a card's edges under a lamp flicker with each
        # frame's blur for ever: not beyond ``STIR_S``)
        moving = np.count_nonzero(near & busy) >= 3 and at - settled_at < STIR_S
        points = np.stack([xs, ys], 1).astype(np.float32) + 0.5
        rect = cv2.minAreaRect(points)
        corners = cv2.boxPoints(((rect[0][0], rect[0][1]), (rect[1][0] + 2, rect[1][1] + 2),
                                 rect[2]))
        x0, y0 = zone.box[0], zone.box[1]
        landed = float(np.median(zone.still_since[cells]))
        span = (float(np.min(zone.still_since[cells])), settled_at)
        since = landed - RECENT_S
        for text, (when, (px, py)) in self._reads.items():
            # whose read it is, by when the group landed (its cells' median, as for a
            # waiting card: an older card's cells merged into it settled earlier)
            if (when < since or on_another(zone.rests.get(text), (landed, settled_at))
                    or read_before(self._first.get(text), (px, py), landed)):
                continue  # read before it landed, or the tag of a card under it or on it
            cell = ((px - x0) / CELL, (py - y0) / CELL)
            if cv2.pointPolygonTest(corners.reshape(-1, 1, 2), cell, False) >= 0:
                # a card lay there (its time): card-sized, or the part of one left in view
                # as the next covers it (a hand over the rest lifted as it came: fingers 78)
                lay = (_lies(cells, rect, small, washed, card)
                       or rest_of_card(zone, cells, near, changed, small, card))
                self.settled_reads.setdefault(text, round(landed, 6) if lay else None)
                zone.ref[cells] = small[cells]  # a card that was read: explained
                # the change it explained, and what lay on it then (a fingertip's cells
                # that settled apart: in its box, changed) if it is a card
                explain(zone, text, cells | (rect_cells(rect, cells.shape) & changed) if lay
                        else cells, (px, py), landed)
                unpend(zone, cells)
                return None
        if uncovered(zone, cells, self._reads, landed, settled_at):
            zone.ref[cells] = small[cells]  # a read card's part, back in view: explained
            unpend(zone, cells)
            return None
        age = at - settled_at
        area_px = together * CELL * CELL
        if area_px > SWEEP * card[0] * card[1]:
            zone.ref[cells] = small[cells]  # a sweep, a knock: the table's new look
            return None
        box = rect_cells(rect, cells.shape)
        # one card, or one card and what settled with it: a tag read later in the box of
        # the latter may be the next card's as well as its own (tuning glare 320): never
        # its answer
        one = _one_card(cells, rect, small, washed, card, box)
        more = not one and _card_and_more(cells, rect, small, washed, card, box)
        card_like = one or more
        # the light changes no card that waits there unmoved (tuning glare 2)
        if not lay_first(zone, cells) and is_light(zone, cells, box, small, card_like):
            unpend(zone, cells, part=False)
            return None
        on = box & ~cells
        other = on & changed & ~fringe
        # a fingertip, a hand (something else) lies on it: its tag may yet be read. What
        # settled before it is no fingertip (an older card's corner in its box), and what
        # never settles holds it no longer than ``STIR_S`` (a card's edges flickering)
        stirs = at - zone.still_since < SETTLE_S
        lies = other & ~stirs & (zone.still_since >= span[0] - SAME_S)
        held = ((np.count_nonzero(lies) >= 3 and age < HOLD_S)
                or (np.count_nonzero(other & stirs) >= 3 and age < STIR_S))
        # what is left in view of a card the next one covered before it was judged; its
        # own tag, read as it landed, may lie out of its part's box: within a card of it
        rest_of = (not card_like and rest_of_card(zone, cells, near, changed, small, card)
                   and not read_near(zone, cells, self._reads, since, (landed, settled_at), card[1]))
        # its centre counts the washed-out cells in its box (only its rim seen: glare 20)
        cx, cy = cells_centre(cells | (box & washed))
        centre = ((x0 + cx * CELL) / size[0], (y0 + cy * CELL) / size[1])
        if (card_like or rest_of) and point_in_polygon(centre, polygon):
            when = round(landed, 6)
            # its tag may yet be read: remembered (what covered the rest of one holds nothing)
            if moving or age < WAIT_S or (held and card_like):
                if card_like and not pending_larger(zone, cells):  # else: it is being covered, part by part
                    unpend(zone, cells)
                    zone.pending.append(Reported(when, settled_at, cells.copy(), corners, centre))
                return None
            # its other parts: not another card waiting in its box for its own tag
            whole = cells | (box & changed & ~waiting_else(zone, when)) if card_like else cells
            zone.ref[whole] = small[whole]
            unpend(zone, cells)
            if asked(zone, when, cells, corners, card[1] / CELL):
                return None  # the rest of a card asked about already (covered in part)
            # hidden when it was reported: washed out, or under what lay on it then
            seen = ~(washed | (whole & ~cells & (stirs | (zone.still_since >= span[0] - SAME_S))))
            # one card and more: a tag read in its box later may be the next card's; the
            # rest of a covered card: one read on what covered it is its cover's
            zone.reported.append(Reported(when, at, whole.copy(), corners, covered=more,
                                          cover=cover(zone, cells, changed) if rest_of else None,
                                          seen=seen, look=small.copy()))
            return when, centre
        if moving or age < WAIT_S:
            return None
        if age >= ABSORB_S:
            zone.ref[cells] = small[cells]  # a cup, a resting hand: never a landing
        return None


def _lies(cells: Image, rect: Any, small: Image, washed: Image, card: tuple[float, float],
          box: Image | None = None) -> bool:
    """Whether a settled group is a card lying there: one card (``_one_card``), or one
    card and what settled with it (``_card_and_more``). The one test of it, for a group a
    read explains and for one judged unread (round 12: a card read once in a group too
    large for a card's box was not booked, held glare 0-9 #53)."""
    return (_one_card(cells, rect, small, washed, card, box)
            or _card_and_more(cells, rect, small, washed, card, box))


def _one_card(cells: Image, rect: Any, small: Image, washed: Image,
              card: tuple[float, float], box: Image | None = None) -> bool:
    """Whether a settled group is one card lying there, by a landing's test: card-sized
    (``landmemory.card_sized``), enough of it seen to change (``SEEN``) and its print
    (``PRINT``); not a hand, not a crumb."""
    return (card_sized(cells, rect, washed, card, box)
            and int(np.count_nonzero(cells)) * CELL * CELL >= SEEN * card[0] * card[1]
            and float(np.std(small[cells])) >= PRINT)


def _card_and_more(cells: Image, rect: Any, small: Image, washed: Image,
                   card: tuple[float, float], box: Image | None = None) -> bool:
    """Whether a settled group too large for a card's box is one card and what settled
    with it (``landmemory.card_sized`` with ``more``: ``card_and_more``), printed
    (``landmemory.printed``)."""
    return card_sized(cells, rect, washed, card, box, more=True) and printed(cells, small)


def _box(polygon: Sequence[Point], w: int, h: int) -> tuple[int, int, int, int] | None:
    """A zone's bounding box in frame pixels, ``BEYOND`` it each way, on whole cells,
    inside the frame."""
    xs = [p[0] * w for p in polygon]
    ys = [p[1] * h for p in polygon]
    x0, y0 = max(0, int(min(xs)) - BEYOND), max(0, int(min(ys)) - BEYOND)
    x1 = x0 + (min(w, int(max(xs)) + BEYOND) - x0) // CELL * CELL
    y1 = y0 + (min(h, int(max(ys)) + BEYOND) - y0) // CELL * CELL
    if x1 - x0 < 4 * CELL or y1 - y0 < 4 * CELL:
        return None
    return x0, y0, x1, y1


def _groups(mask: Image, times: Image, bridge: Image | None = None) -> list[Image]:
    """The groups of ``mask``'s cells, the latest settled first: in each 8-connected part
    (connected also across ``bridge`` cells, washed out by glare: a card's two ends either
    side of a lamp's reflection are one card; they are not in the group), the cells
    settled within ``SAME_S`` of its latest, then of the latest of the rest, and so on."""
    import cv2

    joined = mask if bridge is None else mask | bridge
    n, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=8)
    out: list[tuple[float, Image]] = []
    for i in range(1, n):
        cells = (labels == i) & mask
        while cells.any():
            latest = float(times[cells].max())
            group = cells & (times >= latest - SAME_S)
            out.append((latest, group))
            cells = cells & ~group
    out.sort(key=lambda g: -g[0])
    return [g for _, g in out]
