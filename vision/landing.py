"""Cards that land on the pile with a tag nobody could read (issue 36: a lamp's glare).

Where a tag is truly unreadable (a reflection washes its modules out) the camera cannot
name the card, but it can see that *something card-sized landed*: the pile's picture
changed and settled, and no tag was read in the change. ``LandingWatch`` tells the table
so (``companion.inputs.CardLanded``), and the game asks the host which card it was.

How, on a small picture of the zone (one cell = ``CELL`` px of the frame, gray, averaged):

1. A cell *moved* when it differs from the last frame by more than ``MOTION`` levels; it
   has *settled* once it has not moved for ``SETTLE_S`` seconds of frame time. A cell
   that settles back within ``PASSED`` of its value before it moved keeps its older
   settling time: something passed over it and left (a card sliding in, a hand), and its
   trail does not join the card that settled meanwhile.
2. A cell has *changed* when it differs from the *reference* (the zone as last explained)
   by more than ``CHANGE`` levels. Unchanged settled cells follow the picture (slow light).
3. Changed settled cells are grouped: neighbours whose settling times lie within
   ``SAME_S`` of each other are one group (a card that landed, a hand that came to rest;
   two cards landing one after the other are two groups even where they touch).
4. A group with a tag read in it since it settled (``RECENT_S`` before, at most) is
   *explained*: the reference takes it (a card that was read, moved, or uncovered).
5. A group that is **the light** is taken into the reference, never a landing: a lamp's
   reflection appearing, moving or switched off (``LIGHT`` of it washed out to white since
   the reference, or washed out in it and not now, and ``LIT`` of it brighter or once
   washed out: a reflection only brightens what lies under it).
6. A group next to changed cells that moved in the last ``MOVING_S`` waits (a hand is
   still there, or the next card is sliding in); an unexplained group waits ``WAIT_S``
   after settling, and up to ``HOLD_S`` while other changed cells lie in its box (a
   fingertip on the tag: lifted, the tag is read). Then it is a landing only when it is
   **card-sized**: its rotated bounding box is ``CARD_SIDES`` (within ``SIDES``) of a card
   whose tag is the median of the tags of the last ``SIZES`` cards read (one a card, its
   latest side; ``DEFAULT_TAG_PX``, the calibration's reliable tag, before any was read),
   it fills that box by ``FILL`` at least, its cells cover ``AREA`` of a card at least
   (cells washed out to white in its box count as its own: under a lamp's glare nothing
   can be seen to change), it shows print (its cells' gray levels spread by ``PRINT`` at
   least: a hand is nearly flat), and its centre lies in the zone. The landing's time is
   the median settling time of its cells: when the card stopped, not when it was noticed.
7. **Covered while it waited**: a group that was card-sized while it waited is
   remembered; a tag read on its cells that have not moved since settles it (its own
   tag). When, before it was judged, most of it (all but ``INTACT``) moved and what moved
   over it lies still (the next card), its tag can no longer be read: it is a landing,
   at its own time.
8. Anything else that settled (a resting hand: smaller than a card; a knocked camera, a
   pile swept away: much larger) is never a landing: a group larger than ``SWEEP`` cards
   becomes the reference after ``SETTLE_S``, any other after ``ABSORB_S``.

Never a card invented: a hand passing over the pile moves and leaves (nothing settles), a
resting hand is not card-sized, a knock is far larger than a card, a lamp switched on is
the light. What is missed stays missed (a card landing under a resting hand, a card
covered by the next before it settled): the host's hand entry is still there. Pure:
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
from vision.quads import point_in_polygon

__all__ = ["CARD_SIDES", "CELL", "DEFAULT_TAG_PX", "Landing", "LandingWatch"]

#: frame pixels per cell of the small picture
CELL = 8
#: gray levels between two frames: a cell moved
MOTION = 7.0
#: gray levels from the reference: a cell changed
CHANGE = 22.0
#: a cell that has not moved this long (frame time) has settled
SETTLE_S = 0.25
#: a changed cell that moved this recently is still moving (a hand, the next card)
MOVING_S = 0.07
#: connected cells that settled within this of the group's latest are one group (a card's
#: cells stop over a few frames as it slows down; the card before settled earlier)
SAME_S = 0.2
#: a tag read in a group since this long before the group settled explains it (a card's
#: tag read as it landed, then covered by the next card, still explains its change; the
#: tag of a card under a new one was last read before that one landed)
RECENT_S = 0.1
#: reads are forgotten after this long
KEEP_S = 30.0
#: an unexplained card-sized group waits this long for its tag before it is a landing
WAIT_S = 0.45
#: a group waits at most this long after it settled while something moves beside it or
#: on it (a hand, the next card sliding in; the edges of a card under a lamp's reflection
#: flicker with each frame's blur and never settle: tuning glare #21, #110)
STIR_S = 1.2
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
#: ... and show a card's print: its cells' gray levels spread this much at least (a
#: standard deviation; a hand, a sleeve, a shadow is nearly flat at this scale)
PRINT = 20.0
#: ... of which this share at least was seen to change (not washed out: a few cells at the
#: edge of a reflection are no card)
SEEN = 0.06
#: a cell this bright is washed out (a lamp's glare): whether a card changed it cannot be
#: seen, so inside a group's box it counts as the group's
WASHED = 245.0
#: a settled change larger than this many cards is the table's new look (a sweep, a knock)
SWEEP = 2.5
#: any other unexplained settled change becomes the reference after this long
ABSORB_S = 4.0
#: the groups are judged on one frame in this many (each cell's times on every frame)
JUDGE_EVERY = 3
#: a group of fewer cells than this is a crumb, never a card (a card is hundreds)
TINY = 24
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
#: a group is the light, not a card, when this share of it and of the cells newly washed
#: out in its box is washed out since the reference or was washed out in it (a lamp's
#: reflection appearing, moving or gone) ...
LIGHT = 0.25
#: ... and this share of its cells brightened or were washed out (a reflection only ever
#: brightens what lies under it: a card's print darkens what it covers)
LIT = 0.9
#: the picture watched reaches this far (px) beyond the zone: a card landing at its
#: edge is seen whole (its centre must still lie in the zone)
BEYOND = 96
#: a frame in which this share of a zone's cells moved at once: the camera was knocked
#: (or the light switched): the zone's picture starts again from the next still frame
KNOCK = 0.3
#: ... and it starts again from the first frame in which less than this share moved (a
#: still frame; a lamp's reflection makes a few cells flicker on most frames)
QUIET = 0.02
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
#: a tag read lies on another card than a group when this share of the cells under it
#: settled after the group or before it (its own tag under a fingertip that lifted: a part)
NEWER = 0.6


@dataclass(frozen=True)
class Landing:
    """A card-sized change that settled in ``zone`` at ``at`` with no tag read in it;
    ``center`` is normalised."""

    zone: str
    at: float
    center: Point


@dataclass
class _Reported:
    """A landing reported unread (``at``: when it landed; ``said``: when it was reported):
    its cells and box (cell coordinates)."""

    at: float
    said: float
    cells: Image
    corners: Image
    centre: Point = (0.0, 0.0)
    #: covered by what came next before it was reported: a tag read in its box later is
    #: what covered it (its own lies under it), never this card read later
    covered: bool = False
    #: the cells seen lying still when it was reported (its own, and what lay around it;
    #: not those washed out, nor a hand or a fingertip on it): a tag read later on those
    #: of them that moved since lies on a card that landed later
    seen: Image | None = None
    #: the zone's picture when it was reported
    look: Image | None = None


class _Zone:
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
        self.reported: list[_Reported] = []  # landings reported unread, not read since
        #: text -> the settling times of the cells under its tag when it was last read
        self.rests: dict[str, Image] = {}
        #: card-sized groups waiting for their tag (``said``: when they settled)
        self.pending: list[_Reported] = []


class LandingWatch:
    """Watches the zones where cards are played; ``update`` returns the landings it found."""

    def __init__(self, card_sides: tuple[float, float] = CARD_SIDES,
                 tag_px: float = DEFAULT_TAG_PX) -> None:
        self.card_sides = card_sides
        #: a tag's side (px) until one is read
        self.tag_px = tag_px
        self._zones: dict[str, _Zone] = {}
        self._sides: dict[str, float] = {}  # text -> its tag's side when last read, px
        self._reads: dict[str, tuple[float, Point]] = {}  # text -> its last read, centre px
        self._first: dict[str, float] = {}  # text -> when it was first read (while kept)
        #: text -> when its card landed: tags read where a landing reported unread lay
        self.read_later: dict[str, float] = {}

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
            if text not in self._reads:
                self._first[text] = at
            xs, ys = [p[0] for p in quad], [p[1] for p in quad]
            self._reads[text] = (at, (sum(xs) / len(xs), sum(ys) / len(ys)))
            self._sides.pop(text, None)  # the latest last
            self._sides[text] = math.dist(quad[0], quad[1]) / 2 + math.dist(quad[1], quad[2]) / 2
            if len(self._sides) > SIZES:
                del self._sides[next(iter(self._sides))]
        for text in [t for t, (when, _) in self._reads.items() if at - when > KEEP_S]:
            del self._reads[text]
            self._first.pop(text, None)
        out: list[Landing] = []
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
                self._zones[name] = _Zone(box, small, at)
                continue
            out += self._look(name, zone, small, at, polygon, (w, h))
            _rest(zone, tags, self._reads)
            if zone.pending:
                self._read_pending(zone, tags)
            if zone.reported:
                self._read_later(zone, at, tags, small)
        return out

    def _read_later(self, zone: _Zone, at: float,
                    tags: Sequence[tuple[str, Sequence[Point]]], small: Image) -> None:
        """A tag read for the first time since a landing reported unread, inside that
        landing's box, while the landing's other cells still look as they did: that
        landing's card, read now (``read_later``)."""
        import cv2

        zone.reported = [r for r in zone.reported if at - r.at <= KEEP_S]
        x0, y0 = zone.box[0], zone.box[1]
        for text, quad in tags:
            xs = [(p[0] - x0) / CELL for p in quad]
            ys = [(p[1] - y0) / CELL for p in quad]
            centre = (sum(xs) / len(xs), sum(ys) / len(ys))
            for r in zone.reported:
                if r.covered:
                    continue
                if self._first.get(text, at) < r.said:
                    continue  # read before it was reported (it would have been explained)
                if cv2.pointPolygonTest(r.corners.reshape(-1, 1, 2), centre, False) < 0:
                    continue
                if _landed_after(zone, r, quad, small, self.card_px()):
                    continue  # the tag of a card that landed on it since
                away = r.cells.copy()  # the landing's cells away from the tag
                away[max(0, int(min(ys)) - 1):int(max(ys)) + 2,
                     max(0, int(min(xs)) - 1):int(max(xs)) + 2] = False
                still = zone.still_since[away] <= r.said
                if still.size and float(np.mean(still)) >= INTACT:
                    self.read_later[text] = r.at
                    zone.reported.remove(r)
                    break

    def _look(self, name: str, zone: _Zone, small: Image, at: float,
              polygon: list[Point], size: tuple[int, int]) -> list[Landing]:
        moved = np.abs(small - zone.prev) > MOTION
        share = float(np.mean(moved))
        if share > KNOCK or (zone.knocked and share > QUIET):
            # the camera knocked: nothing on it is a landing; the picture starts again from
            # the next still frame (not from one with a card sliding in)
            self._zones[name] = _Zone(zone.box, small, at, knocked=True)
            return []
        if zone.knocked:
            self._zones[name] = _Zone(zone.box, small, at)
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
                                  changed, washed, fringe)
            if landing is not None:
                out.append(Landing(name, *landing))
        out += [Landing(name, r.at, r.centre) for r in self._covered(zone, small, at)]
        return out

    def _covered(self, zone: _Zone, small: Image, at: float) -> list[_Reported]:
        """Card-sized groups that waited for their tag and were covered meanwhile: most of
        their cells moved since they settled (all but ``INTACT``), or a part of them did
        (``PART``) and what is left of them is no longer card-sized; and what moved over
        them lies still. No tag of theirs can be read now, so each is a card that landed
        unread, at its time (a card covered by the next before ``WAIT_S``: cond-tune glare
        #33, #49; #50, about 0.4 covered, its rest no longer card-sized)."""
        import cv2

        out: list[_Reported] = []
        for p in list(zone.pending):
            moved = zone.still_since[p.cells] > p.said + 1e-9
            share = float(np.mean(moved))
            # judged as a group meanwhile, or never a card; one covered in part waits
            # longer for what covers it to lie still (the next cards keep landing on it)
            if at - p.said > (HOLD_S + SETTLE_S if share < PART else ABSORB_S):
                zone.pending.remove(p)
                continue
            if share < PART:
                continue  # still in view: judged as a group (its tag may yet be read)
            left = p.cells & ~(zone.still_since > p.said + 1e-9)
            if 1.0 - share >= INTACT and self._still_a_card(left, small):
                continue  # still a card in view: judged as a group
            if float(np.mean(at - zone.still_since[p.cells] < SETTLE_S)) > STIRS:
                continue  # what covers it still moves (a hand passing over and leaving?)
            zone.pending.remove(p)
            zone.ref[left] = small[left]  # its uncovered part: no card of its own
            if _asked(zone, p.at, p.cells, p.corners):
                continue
            zone.reported.append(_Reported(p.at, at, p.cells, p.corners, covered=True))
            out.append(p)
        return out

    def _still_a_card(self, cells: Image, small: Image) -> bool:
        """Whether what is left in view of a waiting group (``cells``) is still card-sized
        (cells washed out to white in its box count as its own)."""
        import cv2

        ys, xs = np.nonzero(cells)
        if len(xs) < TINY:
            return False
        rect = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32) + 0.5)
        box = np.zeros(cells.shape, np.uint8)
        cv2.fillPoly(box, [np.round(cv2.boxPoints(rect) - 0.5).astype(np.int32)], 1)
        white = int(np.count_nonzero(box.astype(bool) & ~cells & (small >= WASHED)))
        return self._card_like(rect, len(xs) + white, self.card_px())

    @staticmethod
    def _read_pending(zone: _Zone, tags: Sequence[tuple[str, Sequence[Point]]]) -> None:
        """A tag read inside a waiting group's box where its cells have not moved since it
        settled: its own tag (a later card's tag lies on cells that moved): no landing."""
        import cv2

        x0, y0 = zone.box[0], zone.box[1]
        h, w = zone.still_since.shape[:2]
        for _, quad in tags:
            cx = sum(p[0] for p in quad) / len(quad)
            cy = sum(p[1] for p in quad) / len(quad)
            cell = ((cx - x0) / CELL, (cy - y0) / CELL)
            i, j = int(cell[1]), int(cell[0])
            if not (0 <= i < h and 0 <= j < w):
                continue
            for p in list(zone.pending):
                if cv2.pointPolygonTest(p.corners.reshape(-1, 1, 2), cell, False) < 0:
                    continue
                if zone.still_since[i, j] <= p.said + 1e-9:
                    zone.pending.remove(p)

    def _judge(self, zone: _Zone, cells: Image, busy: Image, small: Image,
               at: float, polygon: list[Point], size: tuple[int, int], together: int,
               changed: Image, washed: Image, fringe: Image) -> tuple[float, Point] | None:
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
            if when < since or _other(zone.rests.get(text), span):
                continue  # read before it landed, or the tag of a card under it or on it
            cell = ((px - x0) / CELL, (py - y0) / CELL)
            if cv2.pointPolygonTest(corners.reshape(-1, 1, 2), cell, False) >= 0:
                zone.ref[cells] = small[cells]  # a card that was read: explained
                _unpend(zone, cells)
                return None
        age = at - settled_at
        card = self.card_px()
        area_px = together * CELL * CELL
        if area_px > SWEEP * card[0] * card[1]:
            zone.ref[cells] = small[cells]  # a sweep, a knock: the table's new look
            return None
        box = np.zeros(cells.shape, np.uint8)
        cv2.fillPoly(box, [np.round(cv2.boxPoints(rect) - 0.5).astype(np.int32)], 1)
        if self._light(zone, cells, box.astype(bool), small):
            _unpend(zone, cells)
            return None
        on = box.astype(bool) & ~cells
        other = on & changed & ~fringe
        # a fingertip, a hand (something else) lies on it: its tag may yet be read. What
        # settled before it is no fingertip (an older card's corner in its box), and what
        # never settles holds it no longer than ``STIR_S`` (a card's edges flickering)
        stirs = at - zone.still_since < SETTLE_S
        lies = other & ~stirs & (zone.still_since >= span[0] - SAME_S)
        held = ((np.count_nonzero(lies) >= 3 and age < HOLD_S)
                or (np.count_nonzero(other & stirs) >= 3 and age < STIR_S))
        white = int(np.count_nonzero(on & washed))
        card_like = (self._card_like(rect, len(xs) + white, card)
                     and len(xs) * CELL * CELL >= SEEN * card[0] * card[1]
                     and float(np.std(small[cells])) >= PRINT)
        centre = ((x0 + float(np.mean(xs)) * CELL + CELL / 2) / size[0],
                  (y0 + float(np.mean(ys)) * CELL + CELL / 2) / size[1])
        if card_like and point_in_polygon(centre, polygon):
            when = round(landed, 6)
            if moving or age < WAIT_S or held:  # its tag may yet be read: remembered
                if not _pending_larger(zone, cells):  # else: it is being covered, part by part
                    _unpend(zone, cells)
                    zone.pending.append(_Reported(when, settled_at, cells.copy(), corners, centre))
                return None
            whole = cells | (box.astype(bool) & changed)  # the card's other parts too
            zone.ref[whole] = small[whole]
            _unpend(zone, cells)
            if _asked(zone, when, cells, corners):
                return None  # the rest of a card asked about already (covered in part)
            # hidden when it was reported: washed out, or under what lay on it then
            seen = ~(washed | (whole & ~cells & (stirs | (zone.still_since >= span[0] - SAME_S))))
            zone.reported.append(_Reported(when, at, whole.copy(), corners, seen=seen,
                                           look=small.copy()))
            return when, centre
        if moving or age < WAIT_S:
            return None
        if age >= ABSORB_S:
            zone.ref[cells] = small[cells]  # a cup, a resting hand: never a landing
        return None

    @staticmethod
    def _light(zone: _Zone, cells: Image, box: Image, small: Image) -> bool:
        """Whether a settled group is the light, not a card: a lamp's reflection that
        appeared, moved or went (cells washed out to white that were not, or were and are
        not), where what changed only brightened. Taken into the reference (never a
        landing); a card that lands under a reflection already there changes the cells
        beside its washed-out core, not the core."""
        was = zone.ref >= WASHED
        now = small >= WASHED
        newly = box & now & ~was  # washed out since the reference: in the box, changed or not
        gone = cells & was & ~now  # washed out in the reference, not now
        n = int(np.count_nonzero(cells))
        white = int(np.count_nonzero(newly & ~cells))
        lit = int(np.count_nonzero(cells & ((small > zone.ref) | was)))
        if (int(np.count_nonzero(newly | gone)) < LIGHT * (n + white)
                or lit < LIT * n):
            return False
        zone.ref[cells | newly] = small[cells | newly]
        return True

    @staticmethod
    def _card_like(rect: Any, n: int,
                   card: tuple[float, float]) -> bool:
        """Whether a group's box and cells are those of one card (``card``: its sides, px)."""
        a, b = sorted((rect[1][0] * CELL, rect[1][1] * CELL))
        lo, hi = SIDES
        if not (lo * card[0] <= a <= hi * card[0] and lo * card[1] <= b <= hi * card[1]):
            return False
        cells_px = n * CELL * CELL
        return cells_px >= FILL * a * b and cells_px >= AREA * card[0] * card[1]


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


def _unpend(zone: _Zone, cells: Image) -> None:
    """The waiting groups that share ``INTACT`` of their cells, unmoved since they settled,
    with ``cells`` (the same card, read or judged) are settled; a card that covered one of
    them shares only cells that moved."""
    zone.pending = [p for p in zone.pending if np.count_nonzero(
        p.cells & cells & (zone.still_since <= p.said + 1e-9)) < INTACT * np.count_nonzero(p.cells)]


def _pending_larger(zone: _Zone, cells: Image) -> bool:
    """Whether a waiting group already holds most of ``cells`` and more (the same card, a
    part of it covered since)."""
    n = np.count_nonzero(cells)
    return any(np.count_nonzero(p.cells & cells) >= 0.8 * n and np.count_nonzero(p.cells) > n
               for p in zone.pending)


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


def _rest(zone: _Zone, tags: Sequence[tuple[str, Sequence[Point]]],
          reads: dict[str, tuple[float, Point]]) -> None:
    """Each tag read in this frame: the settling times of the cells under it (``rests``),
    kept while its read is (``reads``)."""
    for text, quad in tags:
        zone.rests[text] = zone.still_since[_under(zone, quad)].copy()
    for text in [t for t in zone.rests if t not in reads]:
        del zone.rests[text]


def _other(rest: Image | None, span: tuple[float, float]) -> bool:
    """Whether a tag read lay on another card than a group whose cells settled over
    ``span``: ``NEWER`` of the cells under it (``rest``: their settling times when it was
    read) settled more than ``SAME_S`` after the group (a card that landed on it later)
    or before it (a card it was sliding over, read until it covered its tag). Its own tag
    settled with it; under a fingertip that lifted, a part of it settled later."""
    if rest is None or not rest.size:
        return False
    return (float(np.mean(rest > span[1] + SAME_S)) >= NEWER
            or float(np.mean(rest < span[0] - SAME_S)) >= NEWER)


def _asked(zone: _Zone, at: float, cells: Image, corners: Image) -> bool:
    """Whether a card that landed at ``at`` on ``cells`` (their box: ``corners``) was
    reported already: a landing within ``SAME_S`` of it, the centre of either in the box
    of the other (one card seen as two groups: a part covered by the next card, the rest
    judged after; the part it slid over as it landed, then the card)."""
    import cv2

    def inside(cells: Image, corners: Image) -> bool:
        ys, xs = np.nonzero(cells)
        centre = (float(np.mean(xs)) + 0.5, float(np.mean(ys)) + 0.5)
        return cv2.pointPolygonTest(corners.reshape(-1, 1, 2), centre, False) >= 0

    return bool(np.any(cells)) and any(
        abs(r.at - at) <= SAME_S and (inside(cells, r.corners) or inside(r.cells, corners))
        for r in zone.reported)


def _landed_after(zone: _Zone, landing: _Reported, quad: Sequence[Point], small: Image,
                  card: tuple[float, float]) -> bool:
    """Whether a tag read (``quad``, frame pixels) where a landing reported unread lay is
    that of a card that landed after it: ``NEWER`` of the cells under it were seen when
    the landing was reported (``_Reported.seen``) and look different now (``CHANGE``), and
    what looks different, with them, reaches out of the landing's box over ``SEEN`` of a
    card. The landing's own tag lay hidden then (washed out, under a fingertip or a hand)
    or, under a hand that came and went, looks as it did; a hand on it when it settled
    lifts inside its box."""
    import cv2

    if landing.seen is None or landing.look is None:
        return False
    under = _under(zone, quad)
    if not np.any(under):
        return False
    differs = np.abs(small - landing.look) > CHANGE
    if float(np.mean(landing.seen[under] & differs[under])) < NEWER:
        return False
    _, labels = cv2.connectedComponents(differs.astype(np.uint8), connectivity=8)
    parts = set(np.unique(labels[under & differs])) - {0}
    box = np.zeros(differs.shape, np.uint8)
    cv2.fillPoly(box, [np.round(landing.corners - 0.5).astype(np.int32)], 1)
    out = np.isin(labels, list(parts)) & ~box.astype(bool)
    return int(np.count_nonzero(out)) * CELL * CELL >= SEEN * card[0] * card[1]


def _under(zone: _Zone, quad: Sequence[Point]) -> Image:
    """The cells of ``zone`` under a tag's outline (frame pixels)."""
    import cv2

    x0, y0 = zone.box[0], zone.box[1]
    under = np.zeros(zone.still_since.shape, np.uint8)
    cells = np.array([((p[0] - x0) / CELL, (p[1] - y0) / CELL) for p in quad])
    cv2.fillPoly(under, [np.round(cells - 0.5).astype(np.int32)], 1)
    return under.astype(bool)
