"""The pre-game check: is this camera, at this height and in this light, ready to play?

``CheckMeter`` watches the frames the pipeline decodes (a small sample of the picture
every ``EVERY`` frames, the reads of every frame) and ``CheckMeter.report()`` answers
four questions, each green, amber or red with the fix in one sentence:

- **light**: the mean brightness of the picture;
- **glare**: would a tag read in every part of every zone? Each zone is split into
  ``GRID`` x ``GRID`` parts; where a part is brighter than the table's own light (a lamp's
  reflection), a tag of the deck's module size (the codes read so far; 4 px before any)
  is drawn into that part's measured light, at its brightest spot, and zxing-cpp tries
  it (``glare_parts``). A part where it does not read and the tag lay in a spot washed
  out to white is red; one where it does not read in light short of white (which may be
  a card's stock, not a reflection), or reads only without a little more glare, is amber;
  a bright table with no reflection on it is green however bright it is (brightness
  alone never turns it red);
- **reads**: of the codes the decoder located in the last frames, the share it read
  (lay the calibration card or a few cards in each zone to measure it);
- **size**: the smallest code read, in pixels a module (reliable from
  ``RELIABLE_MODULE_PX``: ``vision.calibration``).

During play, ``warnings()`` names each zone with a part where a tag would not read (a
quiet warning on the host page and the camera page, never a refusal). The pipeline calls
``update`` on every decoded frame (on its decode thread), so the check runs for the whole
game: ``VisionPipeline.status()["check"]``, served as ``camera.check`` by
``GET /api/camera``, is the report of the last ``EVERY`` frames. After each glare trial
(``CheckMeter.trials`` counts them) the pipeline asks ``vision.sight`` whether the pile
turned blind or clear. No clock and no thread here; OpenCV, segno and zxing-cpp are
imported where used.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from vision.calibration import MODULES, RELIABLE_MODULE_PX
from vision.frames import Detection, Image, Point

Level = Literal["green", "amber", "red"]
#: a sample of the picture every this many frames; reads are counted on every frame
EVERY = 10
#: how many frames the reads are counted over (about 3 s at 30 fps)
WINDOW = 90
#: a pixel this bright (0-255) is washed out
SATURATED = 250
#: the glare map's value where the picture is washed out: past any pixel's range, so that
#: whatever lies there is white, and a tag tried there is known to lie in it (``glare_parts``)
WASHED_OUT = 255.0 + 255.0
#: the raw share of a zone washed out (``CheckMeter.glare``: a figure, no longer a verdict)
GLARE_WARN = 0.02
GLARE_RED = 0.08
#: each zone is looked at in GRID x GRID parts (rows top to bottom, columns left to right)
GRID = 3
#: a tag is tried in the glare on one sample in this many (a sample every ``EVERY`` frames)
TRY_EVERY = 3
#: a part whose light is less than this (0-255) over the table's own is not tried: no glare
GLARE_MIN = 40.0
#: a tag that reads is still amber when it would not read under this much more glare
MARGIN = 1.3
#: light is measured over squares this many modules wide (narrower bright things, such as
#: a card's white border, are a card, not a lamp's reflection), modules of the largest
#: codes read lately: a larger card's border is wider in the deck's median modules
LIGHT_MODULES = 12
#: the tag tried: a deck tag's shape (12 uppercase letters and digits, version 1, level M)
TRIAL = "K7Q2M9XH0001"
#: a tag is drawn with a 4-module quiet zone, as printed (``vision.tagsheet``)
QUIET = 4
#: the tag's black and white as a share of the table's own light, before any code is read
BLACK, WHITE = 0.3, 2.5
#: the sensor's noise added to a tag tried (levels, 1 sigma)
NOISE = 3.0
PART_WORDS = (("top-left", "top", "top-right"), ("left", "middle", "right"),
              ("bottom-left", "bottom", "bottom-right"))


@dataclass(frozen=True)
class Verdict:
    """One question of the check: ``what`` (light, glare, reads, size), its level, the
    sentence the host reads (what was seen, and the fix when it is not green)."""

    what: str
    level: Level
    sentence: str

    def to_json(self) -> dict[str, str]:
        return {"what": self.what, "level": self.level, "sentence": self.sentence}


class CheckMeter:
    """Rolling figures of the last frames, for ``report`` and ``warnings``."""

    def __init__(self) -> None:
        self.light: float | None = None
        #: the raw share of each zone washed out (a figure for the record)
        self.glare: dict[str, float] = {}
        #: each zone's parts under glare: {zone: {part: "lost" | "barely"}}, ``glare_parts``
        self.parts: dict[str, dict[str, str]] = {}
        #: how many times a tag was tried in the glare (``parts`` is the last): the
        #: pipeline compares it before and after ``update`` to know a trial ran
        self.trials = 0
        self._tried = False
        self._reads: deque[tuple[int, int]] = deque(maxlen=WINDOW)  # (read, located) a frame
        self._modules: deque[float] = deque(maxlen=WINDOW)  # px a module of each read
        self._levels: deque[tuple[float, float]] = deque(maxlen=WINDOW)  # (black, white) read
        #: the outlines of the codes read on the last samples: a tag that did read there
        self._outlines: deque[Sequence[Point]] = deque(maxlen=64)
        self._count = 0

    def update(self, image: Image, detections: Sequence[Detection],
               zones: Mapping[str, Sequence[Point]]) -> None:
        """Count one decoded frame; sample its picture every ``EVERY`` frames (and try a
        tag in its glare on one sample in ``TRY_EVERY``)."""
        read = [d for d in detections if d.text and not d.damaged]
        self._reads.append((len(read), len(detections)))
        self._modules.extend(module_px(d.corners) for d in read)
        if self._count % EVERY == 0:
            self._sample(image, read, zones, try_tags=self._count % (EVERY * TRY_EVERY) == 0)
        self._count += 1

    def module_px(self) -> float:
        """The deck's module size: the median of the codes read lately (4 px before any)."""
        return float(np.median(self._modules)) if self._modules else RELIABLE_MODULE_PX

    def largest_module_px(self) -> float:
        """The largest module of the codes read lately (4 px before any): a card's blank
        margin is narrower than ``LIGHT_MODULES`` of its own modules, whatever its size."""
        return float(max(self._modules)) if self._modules else RELIABLE_MODULE_PX

    def _sample(self, image: Image, read: Sequence[Detection],
                zones: Mapping[str, Sequence[Point]], try_tags: bool) -> None:
        gray = image if image.ndim == 2 else image.mean(axis=2)
        small = gray[::4, ::4]
        self.light = float(small.mean())
        h, w = small.shape[:2]
        zones = zones or {"play area": [(0, 0), (1, 0), (1, 1), (0, 1)]}
        glare = {}
        for name, polygon in zones.items():
            x0, y0, x1, y1 = _box(polygon, w, h)
            box = small[y0:y1, x0:x1]
            glare[name] = float((box >= SATURATED).mean()) if box.size else 0.0
        self.glare = glare
        for d in read:  # what a tag's black and white look like in this light
            pts = np.array(d.corners)
            (ax, ay), (bx, by) = pts.min(axis=0).astype(int), pts.max(axis=0).astype(int)
            inside = gray[max(ay, 0):max(by, 0), max(ax, 0):max(bx, 0)]
            if inside.size >= 64:
                black, white = np.percentile(inside, (10, 90))
                self._levels.append((float(black), float(white)))
            self._outlines.append(d.corners)
        if try_tags or not self._tried:
            levels = (tuple(float(v) for v in np.median(self._levels, axis=0))
                      if self._levels else None)
            self.parts = glare_parts(gray, zones, self.module_px(), levels,
                                     list(self._outlines), self.largest_module_px())
            self._tried = True
            self.trials += 1
            self._outlines.clear()

    def warnings(self) -> list[str]:
        """One quiet sentence for each zone with a part where a tag would not read."""
        out = []
        for name, parts in sorted(self.parts.items()):
            lost = [p for p, state in parts.items() if state == "lost"]
            if lost:
                out.append(f"Glare over the {_zone_words(name)} ({_where(lost)}) would hide a "
                           "card's tag: tilt or move the lamp so it does not shine into the "
                           "camera.")
        return out

    def report(self) -> dict[str, Any]:
        """The four verdicts and the overall level (the worst of them)."""
        verdicts = [self._light(), self._glare(), self._read_rate(), self._size()]
        order: list[Level] = ["green", "amber", "red"]
        worst = max((v.level for v in verdicts), key=order.index)
        return {"level": worst, "verdicts": [v.to_json() for v in verdicts],
                "warnings": self.warnings(),
                "glare": {name: dict(parts) for name, parts in self.parts.items() if parts}}

    def _light(self) -> Verdict:
        light = self.light
        if light is None:
            return Verdict("light", "amber", "No picture yet: the camera has sent no frame.")
        if light < 45:
            return Verdict("light", "red", "Too dark to read the cards: turn on a lamp over "
                           "the table.")
        if light < 75:
            return Verdict("light", "amber", "The table is dim: more light over it helps the "
                           "camera read small codes.")
        if light > 215:
            return Verdict("light", "amber", "The picture is very bright: dim the lamp or "
                           "turn it away from the table.")
        return Verdict("light", "green", "The light is good.")

    def _glare(self) -> Verdict:
        if not self._tried:
            return Verdict("glare", "amber", "No picture yet to look for glare in.")
        levels: tuple[tuple[str, Level, str, str], ...] = (
                ("lost", "red", "A tag would not read", "tilt or move the lamp until it is "
                 "gone."),
                ("barely", "amber", "A tag barely reads", "tilt the lamp a little."))
        for state, level, start, fix in levels:
            places = [f"{_where(lost, article=True)} of the {_zone_words(name)}"
                      for name, parts in sorted(self.parts.items(), key=_most_lost)
                      if (lost := [p for p, s in parts.items() if s == state])]
            if places:
                return Verdict("glare", level, f"{start} in the lamp's glare over "
                               f"{' and '.join(places)}: {fix}")
        return Verdict("glare", "green", "No glare over the play area.")

    def _read_rate(self) -> Verdict:
        read = sum(r for r, _ in self._reads)
        located = sum(n for _, n in self._reads)
        if not located:
            return Verdict("reads", "amber", "No card in view: lay the calibration card or a "
                           "few cards where the pile is (and in each zone) to check the reads.")
        rate = read / located
        if rate >= 0.95:
            return Verdict("reads", "green", f"{rate:.0%} of the codes in view are read.")
        level: Level = "amber" if rate >= 0.8 else "red"
        return Verdict("reads", level, f"Only {rate:.0%} of the codes in view are read: add "
                       "light, or lower the camera closer to the table.")

    def _size(self) -> Verdict:
        if not self._modules:
            return Verdict("size", "amber", "No code read yet, so the smallest readable size "
                           "is unknown: lay the calibration card on the table.")
        smallest = min(self._modules)
        if smallest >= RELIABLE_MODULE_PX:
            return Verdict("size", "green", f"The smallest code read has {smallest:.1f} px "
                           "modules: codes this size are read reliably.")
        level: Level = "amber" if smallest >= 3.0 else "red"
        return Verdict("size", level, f"Codes are as small as {smallest:.1f} px a module: "
                       "lower the camera or print larger stickers (companion tags --size).")


def module_px(corners: Sequence[Point]) -> float:
    """Pixels a module of a version-1 code with these corners (its mean side over 21)."""
    pts = np.array(corners, dtype=np.float64)
    sides = np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)
    return float(sides.mean()) / MODULES


def glare_parts(gray: Image, zones: Mapping[str, Sequence[Point]], module: float,
                levels: tuple[float, ...] | None = None,
                read: Sequence[Sequence[Point]] = (),
                largest: float | None = None) -> dict[str, dict[str, str]]:
    """Each zone's parts (``GRID`` x ``GRID``) where a tag of ``module`` px modules would
    not read (``"lost"``) or would not with ``MARGIN`` times the glare (``"barely"``).

    The light over the table is measured at a quarter of the picture's size, over squares
    ``LIGHT_MODULES`` modules wide (a morphological opening: a card's white border or a
    white sticker narrower than that is not light, a lamp's reflection wider than that
    is), modules of the ``largest`` codes read (``module`` when None): a card's blank
    margin is narrower than 12 of its own modules, and a larger card's is wider than 12 of
    the deck's median (a blank corner where paper clips to white in the light, taken for
    a reflection washed out to white). The table's own light is that map's median; a lamp adds to it what it reflects,
    on black print as on white. In a part whose light exceeds the table's by
    ``GLARE_MIN`` or more, a tag with its quiet zone is drawn centred on the brightest
    spot: its black and white are ``levels`` (those of the codes read, ``BLACK`` and
    ``WHITE`` times the table's light before any), plus the glare measured at each of its
    pixels, washed out to white where the picture is (``SATURATED``), with the sensor's
    noise; zxing-cpp reads it or not. It is ``"lost"`` only where the tag lay partly in
    a spot washed out to white: light short of white may be a card's own stock or art (a
    white card whose tag is not read: the trial takes its brightness for a veil, with a
    step at the card's edge, and fails), which a reflection brighter than any card's
    stock is not; there a tag that does not read is ``"barely"``. A code ``read`` lately
    whose outline (pixels) holds that spot says more than any model: a tag does read
    there. Deterministic: the same picture gives the same parts.
    """
    import cv2

    from vision.quads import point_in_polygon

    gray = np.asarray(gray, np.float32)
    small = cv2.resize(gray, (max(1, gray.shape[1] // 4), max(1, gray.shape[0] // 4)),
                       interpolation=cv2.INTER_AREA)
    k = max(3, int(round(LIGHT_MODULES * max(module, largest or module) / 4)))
    light = cv2.morphologyEx(small, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    table = float(np.median(light))
    over = np.maximum(light - table, 0.0)
    over[light >= SATURATED] = WASHED_OUT
    black, white = levels if levels is not None else (BLACK * table, min(250.0, WHITE * table))
    h, w = small.shape[:2]
    out: dict[str, dict[str, str]] = {}
    for name, polygon in zones.items():
        x0, y0, x1, y1 = _box(polygon, w, h)
        parts: dict[str, str] = {}
        for row in range(GRID):
            for col in range(GRID):
                cy0, cy1 = y0 + (y1 - y0) * row // GRID, y0 + (y1 - y0) * (row + 1) // GRID
                cx0, cx1 = x0 + (x1 - x0) * col // GRID, x0 + (x1 - x0) * (col + 1) // GRID
                cell = over[cy0:max(cy1, cy0 + 1), cx0:max(cx1, cx0 + 1)]
                if not cell.size or float(cell.max()) < GLARE_MIN:
                    continue
                at = np.unravel_index(int(np.argmax(cell)), cell.shape)
                centre = ((cx0 + int(at[1])) * 4 + 2, (cy0 + int(at[0])) * 4 + 2)
                if any(point_in_polygon(centre, outline) for outline in read):
                    continue
                veil = _veil(over, centre, module, gray.shape)
                if not _reads(veil, module, black, white):
                    # lost only where the tag tried lies in a washed-out spot: anything
                    # less bright may be a card's stock, which no reflection needs
                    parts[PART_WORDS[row][col]] = "lost" if _washed(veil) else "barely"
                elif not _reads(veil * MARGIN, module, black, white):
                    parts[PART_WORDS[row][col]] = "barely"
        out[name] = parts
    return out


def _veil(over: Image, centre: tuple[int, int], module: float,
          shape: tuple[int, ...]) -> Image:
    """The glare over a tag centred at ``centre`` (full-size pixels), one value a pixel."""
    import cv2

    side = int(round(module * (21 + 2 * QUIET)))
    x0 = min(max(centre[0] - side // 2, 0), max(shape[1] - side, 0))
    y0 = min(max(centre[1] - side // 2, 0), max(shape[0] - side, 0))
    # each pixel of the patch -> where it lies in the quarter-size map
    m = np.array([[0.25, 0.0, (x0 + 0.5) / 4 - 0.5], [0.0, 0.25, (y0 + 0.5) / 4 - 0.5]])
    out: Image = cv2.warpAffine(over.astype(np.float32), m, (side, side),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


def _washed(veil: Image) -> bool:
    """Whether a tag under ``veil`` lies partly in a spot washed out to white: only
    ``WASHED_OUT`` (interpolated in by ``_veil``) lifts the veil past a pixel's range."""
    return float(veil.max()) > 255.0


def _reads(veil: Image, module: float, black: float, white: float) -> bool:
    """Whether zxing-cpp reads a tag of ``module`` px modules under ``veil``."""
    from vision.backends import ZxingDecoder

    tag = _tag(module, veil.shape[0])
    picture = black + (white - black) * tag + veil
    rng = np.random.default_rng(21)
    picture += rng.normal(0.0, NOISE, picture.shape)
    if not _DECODER:
        _DECODER.append(ZxingDecoder(downscale=False))
    picture = np.clip(picture, 0, 255).astype(np.uint8)
    return any(d.text == TRIAL for d in _DECODER[0].decode(picture))


def _tag(module: float, side: int) -> Image:
    """The trial tag with its quiet zone, ``side`` px square, 0 black to 1 white."""
    import cv2
    import segno

    key = (round(module, 2), side)
    if key not in _TAGS:
        qr = segno.make_qr(TRIAL, version=1, error="m", boost_error=False)
        dark = np.array([[bool(v) for v in row] for row in qr.matrix_iter(border=QUIET)])
        flat: Image = np.where(dark, 0.0, 1.0).astype(np.float32)
        big: Image = cv2.resize(flat, (flat.shape[1] * 8, flat.shape[0] * 8),
                                interpolation=cv2.INTER_NEAREST)
        tag: Image = cv2.resize(big, (side, side), interpolation=cv2.INTER_AREA)
        _TAGS[key] = cv2.GaussianBlur(tag, (0, 0), 0.6)  # the lens: never perfectly sharp
    return _TAGS[key]


_TAGS: dict[tuple[float, int], Image] = {}
_DECODER: list[Any] = []  # one zxing-cpp decoder, made on the first try


def _box(polygon: Sequence[Point], w: int, h: int) -> tuple[int, int, int, int]:
    """A zone's bounding box in a picture ``w`` x ``h`` (at least one pixel)."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    x0, y0 = int(min(max(min(xs), 0.0), 1.0) * w), int(min(max(min(ys), 0.0), 1.0) * h)
    x1 = max(int(min(max(max(xs), 0.0), 1.0) * w), x0 + 1)
    y1 = max(int(min(max(max(ys), 0.0), 1.0) * h), y0 + 1)
    return x0, y0, x1, y1


def _where(parts: Sequence[str], article: bool = False) -> str:
    """The parts of a zone in words: one part's name, else where most of them lie."""
    if len(parts) >= GRID * GRID:
        return "all"
    if len(parts) > GRID * GRID // 2:
        return "most"
    cells = [(r, c) for r, row in enumerate(PART_WORDS) for c, word in enumerate(row)
             if word in parts]
    row = sum(r for r, _ in cells) / len(cells)
    col = sum(c for _, c in cells) / len(cells)
    word = PART_WORDS[_third(row)][_third(col)]
    return f"the {word}" if article else word


def _third(mean: float) -> int:
    return 0 if mean < 0.75 else 2 if mean > 1.25 else 1


def _most_lost(item: tuple[str, dict[str, str]]) -> tuple[int, str]:
    return (-len(item[1]), item[0])


def _zone_words(name: str) -> str:
    return {"pile": "pile", "play": "play zone", "play area": "play area"}.get(
        name, f"zone {name}")
