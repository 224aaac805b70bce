"""The shipped decoder: zxing-cpp on the whole frame, local retries only where it failed.

zxing-cpp (``return_errors=True``) also reports codes it located but could not read.
Those regions are retried, each by a short list of *variants* (``vision.variants``), in order,
until one reads the code (``ORDER``: an upscaled crop; measured too: a rectified crop,
a sharpened one, a binarised one, a deblurred one, pyzbar). Then the *search*
(``RetryDecoder._search``, ``vision.deblur``) looks at code-sized, edge-dense patches no
read covers: a smeared one (a card sliding) is sharpened along its smear, a sharp one
read binarised on its own. Around a lamp's glare, a code with one finder washed out is read
from the other two (``vision.washed``). Whole-frame retries cost about 3x the time on every frame;
local ones cost nothing on frames where everything was read. ``companion bench vision``
measures each variant's gain and cost, and the shipped decoder without the search.
Reads a retry makes inside another code's outline are phantoms and dropped
(``vision.quads``); so are ``damaged`` entries without a real outline.
Built from the backends in ``vision.backends``; ``vision.decoding`` hands it out as
``default_decoder("auto")`` (this module never imports ``vision.decoding``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence

import cv2
import numpy as np

from vision.backends import (
    DecoderUnavailableError,
    PyzbarDecoder,
    ZxingDecoder,
    to_gray,
    zx_corners,
    zx_modules,
)
from vision.deblur import code_blobs, look
from vision.frames import Corners, Detection, Image
from vision.quads import area, drop_inner, is_real, overlap
from vision.variants import VARIANTS as VARIANTS
from vision.variants import around, binarised, crop_box, moved, sharpened
from vision.washed import glare_spots, read_washed

#: the same as ``MARGIN`` for a patch found by the search (its box already holds the code)
SEARCH_MARGIN = 0.15


class RetryDecoder:
    """zxing-cpp, then retry variants on crops around located-but-unread codes.

    ``report_damaged``: return a code that no retry could read as a ``Detection`` with
    ``damaged=True`` and ``text=""`` (``companion scan`` does; the table does not);
    only codes with a real outline are reported, and every located code is retried (the
    table retries at most ``MAX_RETRIES`` a frame). ``order``: the variant names tried,
    in turn (default ``ORDER``; ``SCAN_ORDER`` with ``report_damaged``). ``search``: look
    for codes the whole-frame pass missed; ``washed``: for codes a lamp's glare washed a
    finder of (``vision.washed``).
    """

    name = "auto"

    def __init__(self, report_damaged: bool = False, order: Sequence[str] | None = None,
                 search: bool = True, washed: bool = True) -> None:
        # photos (``report_damaged``: ``companion scan``) may hold huge codes: zxing-cpp's
        # downscaled passes too; camera frames hold table-size tags (on the real photos the
        # downscaled passes read nothing more either), and skipping them saves ~30 % a frame
        self._zx = ZxingDecoder(downscale=report_damaged)
        self.report_damaged = report_damaged
        self.search = search
        self.washed = washed
        self._pz: PyzbarDecoder | None
        try:
            self._pz = PyzbarDecoder()
        except DecoderUnavailableError:
            self._pz = None
        names = list((SCAN_ORDER if report_damaged else ORDER) if order is None else order)
        unknown = [n for n in names if n not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown retry variant(s) {unknown}: choose from {sorted(VARIANTS)}")
        self.order = [n for n in names if n != "pyzbar" or self._pz is not None]
        self._expected: frozenset[str] | None = None
        self._until: float | None = None  # this video frame's budget ends (thread time)
        self._video_frames = 0
        #: in a video: located codes no retry could read, and the frame number of that
        #: retry (``HOPELESS_FOR``)
        self._hopeless: list[tuple[Corners, int]] = []
        #: in a video: the whole-frame passes of the last ``PASSES`` frames (CPU s)
        self._passes: deque[float] = deque(maxlen=PASSES)
        #: each step's CPU seconds a pixel (``retry``, ``blobs``, ``smeared``, ``sharp``),
        #: a running mean of its latest runs: what the step will cost, before it runs
        self._rate: dict[str, float] = {}
        #: in a video: the last frame's small picture, the cells moved lately, the frames
        #: since one was decoded whole, and the last frame's reads (``WHOLE_EVERY``)
        self._small: Image | None = None
        self._shape = (0, 0)  # the last video frame's height, width
        self._moved: deque[Image] = deque(maxlen=RECENT + 1)
        self._since_whole = 0
        self._last: list[Detection] = []
        #: in a video: the glare spots of the last look (``_washed``), the picture around
        #: each then, and whether it was looked at for a code in that picture
        self._looks: list[tuple[tuple[int, int, int, int], Image, bool]] = []
        #: in a video: each code read lately, the cells of the small picture under it (a
        #: box), their values then, and the frame it was last read in (``STAND_FOR``)
        self._standing: dict[str, tuple[Detection, tuple[int, int, int, int], Image, int]] = {}

    def expect(self, texts: frozenset[str]) -> None:
        """The codes the next frame should hold (the camera read them a frame ago).

        When the whole-frame pass reads every one of them again, the next ``decode``
        skips the search: the table it looks at has not changed, and the search costs
        2-3x zxing-cpp's own time. A card sliding in is read once it lands, a frame
        or two later; a frame that lost an expected code is searched. Only for the next
        frame: a photo (``companion scan``) is never told and always searched.

        A frame of a video (one that was told) also has a budget: its retries and search
        stop once they took ``BUDGET`` times what the whole-frame pass took, so a frame
        costs at most about ``1 + BUDGET`` times zxing-cpp alone (the camera confirms a
        card in two of three frames: a code missed now is read a frame later).
        """
        self._expected = texts

    def decode(self, image: Image) -> list[Detection]:
        start = time.thread_time()
        expected, self._expected = self._expected, None
        gray = to_gray(image)
        if expected is None:  # a photo, or a frame nobody told about: all of it
            self._small = None
            self._standing.clear()
            found = self._pass(gray, None, start)
            return drop_inner(found + self._washed(gray, found)) if self.washed else found
        self._video_frames += 1
        boxes = self._moved_boxes(gray)
        if boxes is not None and not expected <= {d.text for d in self._last}:
            boxes = None  # told of codes this decoder did not read last: look at all of it
        if boxes is None:
            found = self._pass(gray, expected, start)
        else:  # only where the picture moved: the reads elsewhere stand
            found = [d for d in self._last if not any(_touches(d.corners, b) for b in boxes)]
            for box in boxes:
                here = frozenset(d.text for d in self._last if _touches(d.corners, box))
                texts = {d.text for d in found}
                found += [d for d in self._pass(gray, here, start, box) if d.text not in texts]
            found = drop_inner(found)
        found = self._stand(found)
        if self.washed and self._video_frames % WASHED_EVERY == 1:
            found = drop_inner(found + self._washed(gray, found))
        self._last = found
        return found

    def _stand(self, found: list[Detection]) -> list[Detection]:
        """This video frame's reads, and each code read in the last ``STAND_FOR`` frames
        but not now whose pixels have not changed since it was read (every cell of the
        small picture under it within ``MOVED`` gray levels): zxing-cpp misses a still
        code now and then (the camera's noise), and the code is still there. A code under
        a hand, or taken away, changed its pixels: it is not."""
        small = self._small
        if small is None:
            return found
        frame = self._video_frames
        for d in found:
            if d.text and not d.damaged:
                xs, ys = [p[0] for p in d.corners], [p[1] for p in d.corners]
                box = self._small_box(min(xs), min(ys), max(xs), max(ys))
                cells = small[box[1]:box[3], box[0]:box[2]].copy()
                self._standing[d.text] = (d, box, cells, frame)
        texts = {d.text for d in found}
        out = list(found)
        for text, (d, box, cells, when) in list(self._standing.items()):
            if text in texts:
                continue
            now = small[box[1]:box[3], box[0]:box[2]]
            if frame - when > STAND_FOR or now.shape != cells.shape or (
                    now.size and int(np.max(np.abs(now - cells))) > MOVED):
                del self._standing[text]  # gone, covered, moved: no longer stands
                continue
            if not any(overlap(d.corners, f.corners) for f in out):
                out.append(d)
        return out

    def _moved_boxes(self, gray: Image) -> list[tuple[int, int, int, int]] | None:
        """Where this video frame's picture moved lately, as boxes to decode (each taking
        in, whole, every code the last frame read that it touches), or None: decode it
        whole (every ``WHOLE_EVERY`` frames, the first, or when most of it moved)."""
        h, w = gray.shape[:2]
        sw, sh = max(1, w // CELL), max(1, h // CELL)
        small = cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.int16)
        last, self._small, self._shape = self._small, small, (h, w)
        if last is None or last.shape != small.shape:
            self._standing.clear()  # another video, or the first frame
            self._looks.clear()
        self._since_whole += 1
        if last is None or last.shape != small.shape or self._since_whole >= WHOLE_EVERY:
            self._since_whole = 0
            self._moved.clear()
            return None
        self._moved.append(np.abs(small - last) > MOVED)
        moved = np.logical_or.reduce(list(self._moved)).astype(np.uint8)
        if not moved.any():
            return []
        fx, fy = w / sw, h / sh
        reach = int(np.ceil(REACH / fx))
        grown = cv2.dilate(moved, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
        if grown.mean() > MOST:
            self._since_whole = 0
            self._moved.clear()
            return None
        n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        boxes = []
        for i in range(1, n):
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            box = (int(x * fx), int(y * fy), min(w, int((x + bw) * fx) + 1),
                   min(h, int((y + bh) * fy) + 1))
            for d in self._last:  # a code it touches, whole, with its quiet zone
                if _touches(d.corners, box):
                    box = _union(box, d.corners, w, h)
            boxes.append(box)
        return boxes

    def _pass(self, gray: Image, expected: frozenset[str] | None, start: float,
              box: tuple[int, int, int, int] | None = None) -> list[Detection]:
        """zxing-cpp over ``gray`` (or its ``box``), the retries and the search; reads in
        ``gray``'s pixels. ``expected``: a video frame (its budget, its hopeless codes)."""
        x0, y0 = (0, 0) if box is None else box[:2]
        view = gray if box is None else gray[box[1]:box[3], box[0]:box[2]]
        first: list[Detection] = []
        failed: list[Corners] = []
        for r in self._zx.read(view, errors=True):
            corners = tuple((x + x0, y + y0) for x, y in zx_corners(r.position))
            if r.valid:
                first.append(Detection(r.text, corners, "zxing", modules=zx_modules(r)))
            elif is_real(corners):
                failed.append(corners)
        found = list(first)
        failed.sort(key=area, reverse=True)
        self._until = None
        if expected is not None:  # a video: the budget; a code retried in vain, unmoved, waits
            spent = time.thread_time() - start
            share = 1.0 if box is None else view.size / gray.size
            if box is None:
                self._passes.append(spent)
            ceiling = (sorted(self._passes)[int(CEILING * (len(self._passes) - 1))]
                       if self._passes else spent)
            self._until = start + (1 + BUDGET) * max(spent, ceiling * max(share, MOST))
            failed = self._worth_retrying(failed)
        for corners in failed if self.report_damaged else failed[:MAX_RETRIES]:
            if self._spent():
                break
            if any(overlap(corners, d.corners) for d in found):
                continue  # the same code, read (or reported) on another pass
            pixels = around(gray, corners)[0].size
            if not self._fits("retry", pixels):
                continue  # a smaller code's retry may still fit
            t0 = time.thread_time()
            rescued = self.retry(gray, corners)
            self._learn("retry", pixels, t0)
            texts = {f.text for f in found}
            rescued = [d for d in rescued if d.text not in texts]
            if rescued:
                found.extend(rescued)
            else:
                if expected is not None:
                    self._hopeless.append((corners, self._video_frames))
                if self.report_damaged:
                    found.append(Detection("", corners, "auto", damaged=True))
        settled = bool(expected) and expected is not None and expected <= {d.text for d in first}
        if expected is not None:  # a video: the search on one frame in SEARCH_EVERY at most
            settled = settled or self._video_frames % SEARCH_EVERY != 0
        if self.search and not settled and self._fits("blobs", view.size):
            here = [moved(d, -x0, -y0, d.backend) for d in found]
            rescued = [moved(d, x0, y0, d.backend) for d in self._search(view, here)]
            found = [d for d in found if not (d.damaged and any(
                overlap(d.corners, r.corners) for r in rescued))] + rescued
        return drop_inner(found)

    def _worth_retrying(self, failed: list[Corners]) -> list[Corners]:
        """The located codes of this video frame worth a retry: not one that a retry could
        not read in the last ``HOPELESS_FOR`` frames and that has not moved since (by
        ``STILL_PX``): a card half under the next one on the pile stays unreadable frame
        after frame. A code that moved (a card sliding in, the camera knocked) is retried
        at once; an unmoved one again after ``HOPELESS_FOR`` frames."""
        frame = self._video_frames
        self._hopeless = [(c, n) for c, n in self._hopeless if frame - n < HOPELESS_FOR]
        return [c for c in failed
                if not any(_still(c, h) for h, _ in self._hopeless)]

    def _search(self, gray: Image, found: list[Detection]) -> list[Detection]:
        """Codes zxing-cpp's whole-frame pass missed: edge-dense patches outside every read.

        Each patch not overlapping a read is looked at (``vision.deblur.look``): a straight
        edge (a card's border, a finger) is skipped; a smeared one is sharpened along its
        smear (at most ``MAX_SEARCH`` a frame); a sharp one is read on its own, binarised
        locally (at most ``MAX_PLAIN``): a code whose quiet zone a card's picture touches is
        read that way, once the frame's other contents are out of the picture.
        """
        read = [d.corners for d in found if not d.damaged]
        patches: dict[str, list[tuple[float, Corners, Image, float]]] = {"smeared": [],
                                                                        "sharp": []}
        t0 = time.thread_time()
        blobs = code_blobs(gray)
        self._learn("blobs", gray.size, t0)
        for q in blobs[:MAX_LOOK]:
            if any(overlap(q, c) for c in read):
                continue
            box, _ = around(gray, q, 0.0)
            kind, angle, anisotropy = look(box)
            if kind in patches:
                patches[kind].append((anisotropy, q, box, angle))
        out: list[Detection] = []
        texts = {d.text for d in found}
        # the most one-sided smears first (a card's picture is rarely that one-sided)
        tries = [("smeared", p) for p in sorted(patches["smeared"], key=lambda p: p[0])
                 [:MAX_SEARCH]] + [("sharp", p) for p in patches["sharp"][:MAX_PLAIN]]
        for kind, (_, q, box, angle) in tries:
            if self._spent():
                break
            if any(overlap(q, d.corners) for d in out):
                continue
            crop, (x0, y0) = around(gray, q, SEARCH_MARGIN)
            if not self._fits(kind, crop.size):
                continue
            t0 = time.thread_time()
            hits = (sharpened(self, crop, box, angle) if kind == "smeared"
                    else self.zx(binarised(crop)))
            self._learn(kind, crop.size, t0)
            for d in hits:
                if d.text not in texts:
                    texts.add(d.text)
                    out.append(moved(d, x0, y0, f"search-{kind}"))
        return out

    def _washed(self, gray: Image, found: list[Detection]) -> list[Detection]:
        """Codes with a finder washed out by a lamp's glare (``vision.washed``), looked for
        around each glare spot (at most ``MAX_SPOTS``, the largest first); codes read
        already are skipped. In a video, a spot is looked at once the picture around it
        has settled (it looks as it did at the last look, every cell within ``MOVED``:
        a card landed there and lies still) and once in each settled look: a still table
        costs nothing, a card landing under the glare one look, outside the frame's
        budget (a look costs about a third of zxing-cpp's whole-frame pass)."""
        read = [d for d in found if not d.damaged]
        texts = {d.text for d in read}
        out: list[Detection] = []
        looks: list[tuple[tuple[int, int, int, int], Image, bool]] = []
        for box in glare_spots(gray)[:MAX_SPOTS]:
            if self._small is not None:  # a video frame
                now = self._cells(box)
                before = [done for b, cells, done in self._looks
                          if max(abs(p - q) for p, q in zip(b, box, strict=True)) <= CELL
                          and cells.shape == now.shape
                          and int(np.max(np.abs(cells - now), initial=0)) <= MOVED]
                looks.append((box, now, bool(before)))
                if not before or any(before):
                    continue  # still changing, or looked at in this look already
            x0, y0, x1, y1 = box
            skip = [tuple((x - x0, y - y0) for x, y in d.corners) for d in read]
            for d in read_washed(self.zx, np.ascontiguousarray(gray[y0:y1, x0:x1]), skip):
                if d.text not in texts:
                    texts.add(d.text)
                    out.append(moved(d, x0, y0, "washed"))
        self._looks = looks
        return out

    def _small_box(self, x0: float, y0: float, x1: float, y1: float
                   ) -> tuple[int, int, int, int]:
        """The cells of the small picture (x0, y0, x1, y1) under a box of the frame (px)."""
        assert self._small is not None
        sh, sw = self._small.shape[:2]
        fy, fx = self._shape[0] / sh, self._shape[1] / sw
        return (max(0, int(x0 / fx)), max(0, int(y0 / fy)),
                min(sw, int(x1 / fx) + 1), min(sh, int(y1 / fy) + 1))

    def _cells(self, box: tuple[int, int, int, int]) -> Image:
        """The small picture's cells under ``box`` (frame px) this frame."""
        assert self._small is not None
        x0, y0, x1, y1 = self._small_box(*box)
        out: Image = self._small[y0:y1, x0:x1].copy()
        return out

    def _spent(self) -> bool:
        """This video frame's budget for retries and the search is used up."""
        return self._until is not None and time.thread_time() > self._until

    def _fits(self, step: str, pixels: int) -> bool:
        """Whether ``step`` on ``pixels`` pixels, at what it cost lately, ends within this
        video frame's budget (always, for a photo: no budget). A step is never cut short,
        so one that would not fit does not start."""
        if self._until is None:
            return True
        return time.thread_time() + self._rate.get(step, 0.0) * pixels <= self._until

    def _learn(self, step: str, pixels: int, t0: float) -> None:
        """What ``step`` cost a pixel this time, into its running mean (``RATE_WEIGHT``)."""
        rate = (time.thread_time() - t0) / max(pixels, 1)
        old = self._rate.get(step)
        self._rate[step] = rate if old is None else old + RATE_WEIGHT * (rate - old)

    def retry(self, gray: Image, corners: Corners, order: Sequence[str] | None = None
              ) -> list[Detection]:
        """Codes read around ``corners`` by the first variant that reads any, in ``gray`` pixels."""
        crop, (x0, y0) = around(gray, corners)
        if crop.size == 0:
            return []
        local = tuple((x - x0, y - y0) for x, y in corners)
        for name in self.order if order is None else order:
            hits = [d for d in VARIANTS[name](self, crop, local) if not d.damaged and d.text]
            if hits:
                return [moved(d, x0, y0, f"retry-{name}") for d in hits]
        return []

    def zx(self, image: Image) -> list[Detection]:
        return [d for d in self._zx.decode(image) if not d.damaged]

    def pz(self, image: Image) -> list[Detection]:
        return [] if self._pz is None else self._pz.decode(image)


def _touches(corners: Corners, box: tuple[int, int, int, int]) -> bool:
    """Whether a code's outline reaches into ``box`` (x0, y0, x1, y1)."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs) < box[2] and max(xs) > box[0] and min(ys) < box[3] and max(ys) > box[1]


def _union(box: tuple[int, int, int, int], corners: Corners, w: int, h: int
           ) -> tuple[int, int, int, int]:
    """``box`` grown to hold the code at ``corners`` with ``MARGIN`` of it around."""
    x0, y0, x1, y1 = crop_box(corners, w, h)
    return min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)


def _still(a: Corners, b: Corners) -> bool:
    """The same located code in two frames: every corner within ``STILL_PX``."""
    return len(a) == len(b) and all(abs(p[0] - q[0]) <= STILL_PX and abs(p[1] - q[1]) <= STILL_PX
                                    for p, q in zip(a, b, strict=True))


#: the table's order, chosen on the tuning split of ``companion bench vision``: upscale2
#: rescues the most a millisecond; with the search after it, rectify added no code on
#: the tuning split (it did before the search) for 0.6 ms a frame; pyzbar added none
#: (and 2.7 ms on every hopeless located code), sharpen and binarise nothing for 1.5-2x
#: the cost (figures in docs/vision.md). upscale2 alone keeps every real-photo folder.
ORDER: tuple[str, ...] = ("upscale2",)
#: ``companion scan`` (no frame rate to keep) also tries rectify and pyzbar: pyzbar reads
#: codes zxing-cpp cannot, e.g. one more photo of the real set's qrcode-4
SCAN_ORDER: tuple[str, ...] = ("upscale2", "rectify", "pyzbar")
#: at most this many located codes are retried in one frame (the largest first): a pile
#: of half-covered cards, or fingers over codes, must not cost retries on every frame
MAX_RETRIES = 2
#: in a video, a located code a retry could not read is not retried for this many frames
#: while it stays where it was (within ``STILL_PX`` a corner)
HOPELESS_FOR = 6
STILL_PX = 2.0
#: in a video, the search runs on one frame in this many at most (the tracker confirms a
#: card in 2 of 3 frames: a new card the whole-frame pass misses is searched for soon)
SEARCH_EVERY = 3
#: a video frame's retries and search may take this share of the whole-frame pass's time,
#: that pass counted as at least the ``CEILING`` quantile of the last ``PASSES`` frames'
#: passes: a frame whose pass was quick may spend what a slow frame's 30 % would be, so
#: the slowest frames (the p95) stay within 1.3x the pass, and a card sliding onto a
#: quiet table is still retried and searched for
BUDGET = 0.3
CEILING, PASSES = 0.9, 90
#: in a video, a frame is decoded whole once in ``WHOLE_EVERY`` frames; in between only
#: where the picture moved (cells of ``CELL`` px whose mean moved by more than ``MOVED``
#: gray levels since the frame before) in this frame or the ``RECENT`` before it, grown
#: by ``REACH`` px each way (a code beside the change is read whole); the last frame's
#: reads elsewhere stand (the pixels under them did not move). A frame whose moved part
#: is more than ``MOST`` of it is decoded whole.
#:
#: Why the Casablanca game at the table (tests/games/casablanca/test_browser_game.py)
#: once never booked "Agent Blue moves to Kasbah with the suitcase" with the regions on:
#: zxing-cpp's whole-frame pass misses every still code now and then (one frame in ten of
#: that rig's noisy 960x540 frames), and the frames after such a miss, where nothing
#: moved, kept the last frame's reads, i.e. none, until the next whole frame: the stands
#: flickered out for 0.6 s, left (1 s) and never stood still the 2 s the game asks. Now a
#: code read lately stands while its pixels have not changed (``RetryDecoder._stand``).
WHOLE_EVERY = 6
CELL = 16
MOVED = 8
#: a code a whole-frame or region pass did not read stands (is still reported) while the
#: pixels under it have not changed since it was read, for at most this many frames
STAND_FOR = 30
RECENT = 2
REACH = 96
MOST = 0.5
#: how much of a step's latest cost goes into its running mean (``RetryDecoder._learn``)
RATE_WEIGHT = 0.3
#: at most this many smeared patches are sharpened in one frame (``RetryDecoder._search``)
MAX_SEARCH = 3
#: and at most this many sharp ones read binarised
MAX_PLAIN = 4
#: the patches looked at in one frame (each costs a structure tensor)
MAX_LOOK = 12
#: in a video, the glare spots are looked at on one frame in this many (not the search's);
#: a code read then stands on the frames after it (``STAND_FOR``): the tracker confirms it
WASHED_EVERY = 3
#: at most this many glare spots are looked at in one frame (the largest first)
MAX_SPOTS = 2
