"""A synthetic table: QR-tagged cards played onto a table, rendered with ground truth.

``SyntheticTable`` is a ``FrameSource`` (the ``--demo`` camera, in real time at its fps)
and a deterministic generator: ``render(index)`` is a pure function of the seed, the
script and the frame index. ``random_scene`` renders one still frame of 1..N cards
(for the benchmark). Tags are version-1 QR codes (segno), seen through a tilted camera
(perspective), rotated, blurred, unevenly lit and noisy. Imports only ``vision.frames``
and ``vision.truth`` (what a camera could read of each tag) from vision
(``vision.sources.open_source`` imports this module, never the reverse).
"""

from __future__ import annotations

import math
import threading
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.frames import Frame, Image, Point
from vision.truth import TagTruth as TagTruth  # re-exported: the benches read it here
from vision.truth import tag_truths

Matrix = npt.NDArray[np.float64]  # 3x3 homography

CARD_W, CARD_H = 250, 350  # card canvas, pixels
MODULE = 6  # canvas pixels per QR module
QUIET = 2  # quiet-zone modules around the code on the sticker
TAG_X, TAG_Y = 50, 170  # top-left of the sticker on the card canvas


@dataclass(frozen=True)
class CardPlay:
    """One card in a script: it slides in and lands at ``at`` seconds, and may be removed.

    Where it lands: ``position`` (normalised image x, y) if given, else the centre of
    ``zone`` (with a little jitter), else a random spot. ``angle`` in degrees (random
    when None); ``tag_px`` the side of the code in pixels at 1280 wide (random when None).
    """

    payload: str
    at: float
    zone: str | None = None
    position: Point | None = None
    angle: float | None = None
    tag_px: float | None = None
    removed_at: float | None = None
    slide_s: float = 0.25


@dataclass(frozen=True)
class Patch:
    """Something over the table from ``at`` to ``until`` seconds: a resting ``hand`` (a
    skin-coloured blob that hides what is under it), a lamp's ``glare`` (a reflection:
    a spot washed out to white, black print as white as the rest) or a ``lamp``'s pool of
    light (the table and the cards under it brighter, black print still dark: no
    reflection). ``center`` is normalised; ``radius`` a share of the frame's width.
    ``strength``: for ``glare``, how far past white its centre is (1.6 when None; under 1
    a veil that washes nothing out to white); for ``lamp``, how much brighter the table is
    at its centre (0.8 when None: 1.8 times).
    """

    kind: str
    at: float
    until: float
    center: Point
    radius: float = 0.08
    strength: float | None = None

    def active(self, t: float) -> bool:
        return self.at <= t < self.until

    def polygon(self, width: int, height: int) -> np.ndarray:
        """The patch's outline in pixels (an ellipse, a little taller than wide)."""
        c = (int(self.center[0] * width), int(self.center[1] * height))
        r = int(self.radius * width)
        points = np.asarray(cv2.ellipse2Poly(c, (r, int(r * 1.3)), 20, 0, 360, 10))
        out: np.ndarray = points.astype(np.float64)
        return out


@dataclass(frozen=True)
class Bump:
    """The camera knocked at ``at`` seconds: from then on the table is seen shifted by
    ``shift`` pixels and turned by ``angle`` degrees about the frame's centre (the pose
    of the latest bump holds; the lamp's glare and a hand stay where the camera sees them).
    """

    at: float
    shift: Point = (0.0, 0.0)
    angle: float = 0.0

    def matrix(self, width: int, height: int) -> Matrix:
        """Image before the bump -> image after it (3x3)."""
        m: Image = cv2.getRotationMatrix2D((width / 2, height / 2), self.angle, 1.0)
        m[:, 2] += np.asarray(self.shift)
        out: Matrix = np.vstack([m, [0.0, 0.0, 1.0]]).astype(np.float64)
        return out


@dataclass(frozen=True)
class SyntheticFrame:
    index: int
    t: float  # seconds since the start of the script
    image: Image
    truth: tuple[TagTruth, ...]


@dataclass(frozen=True)
class _Placed:
    payload: str
    homography: Matrix  # card canvas -> image
    landed: bool
    zone: str | None
    motion: Point = (0.0, 0.0)  # pixels per frame, for motion blur


def _similarity(center: Point, angle_deg: float, scale: float) -> Matrix:
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    to_origin = np.array([[1, 0, -CARD_W / 2], [0, 1, -CARD_H / 2], [0, 0, 1]], float)
    rot = np.array([[c, -s, center[0]], [s, c, center[1]], [0, 0, 1]], float)
    out: Matrix = rot @ to_origin
    return out


def _apply(h: Matrix, pts: Sequence[Point]) -> list[Point]:
    arr = np.array(pts, dtype=np.float64).reshape(-1, 1, 2)
    out = np.asarray(cv2.perspectiveTransform(arr, h)).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in out]


def tag_corners_canvas() -> list[Point]:
    """The code's corners (quiet zone excluded) on the card canvas, clockwise from top-left."""
    x0, y0 = TAG_X + QUIET * MODULE, TAG_Y + QUIET * MODULE
    side = 21 * MODULE
    return [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]


def card_image(payload: str) -> Image:
    """A card canvas: coloured art, a title bar and a white sticker with the payload's QR."""
    import segno

    crc = zlib.crc32(payload.encode("utf-8"))
    hue = crc % 180
    img = np.full((CARD_H, CARD_W, 3), 245, np.uint8)
    art = np.full((130, CARD_W - 30, 3), (hue, 140, 200), np.uint8)
    img[15:145, 15:-15] = cv2.cvtColor(art, cv2.COLOR_HSV2BGR)
    cv2.circle(img, (60 + crc % 120, 80), 30, (40, 40, 40), -1)
    cv2.putText(img, payload[:6], (20, 162), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 1)
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), (60, 60, 60), 3)
    qr = segno.make(payload, error="m", micro=False, boost_error=False)
    matrix = np.array(qr.matrix, dtype=np.uint8)
    n = matrix.shape[0]
    side = (n + 2 * QUIET) * MODULE
    sticker = np.full((side, side), 255, np.uint8)
    dark = np.where(matrix == 1, 0, 255).astype(np.uint8)
    code = cv2.resize(dark, (n * MODULE, n * MODULE), interpolation=cv2.INTER_NEAREST)
    q, e = QUIET * MODULE, QUIET * MODULE + n * MODULE
    sticker[q:e, q:e] = code
    scale = (21 + 2 * QUIET) * MODULE / side  # larger versions shrink into the same sticker
    sticker = cv2.resize(sticker, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    s = sticker.shape[0]
    img[TAG_Y : TAG_Y + s, TAG_X : TAG_X + s] = sticker[:, :, None]
    return img


class Renderer:
    """Draws placed cards over a table background at one resolution and one look.

    The look (camera tilt, lighting, noise level, blur) is drawn from ``seed``.
    """

    def __init__(self, width: int, height: int, seed: int = 0,
                 table: tuple[float, float, float, float] | None = None) -> None:
        rng = np.random.default_rng([seed, 1])
        self.width, self.height = width, height
        k = rng.uniform(0.0, 0.12) * width
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        dst = np.array([[k, 0], [width - k, 0], [width, height], [0, height]], np.float32)
        self.camera: Matrix = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
        self.blur_max = float(rng.uniform(0.5, 1.4))
        self.jpeg_quality = int(rng.integers(70, 95))
        self._background = self._make_background(rng)
        if table is not None:  # the camera sees past the table's edge: a floor around it
            self._surround(table, np.random.default_rng([seed, 5]))
        self._gain = self._make_gain(rng)
        sigma = rng.uniform(2.0, 5.0)
        noise = rng.standard_normal((height + 32, width + 32), dtype=np.float32) * sigma
        pos = np.clip(noise, 0, 255).astype(np.uint8)
        neg = np.clip(-noise, 0, 255).astype(np.uint8)
        del noise  # float32 frames are the largest allocation here: keep peak memory low
        self._noise_pos: Image = cv2.merge([pos, pos, pos])
        self._noise_neg: Image = cv2.merge([neg, neg, neg])
        self._cards: dict[str, Image] = {}
        self._spots: dict[Patch, Image] = {}  # each reflection's spot (``_spot``)

    def _make_background(self, rng: np.random.Generator) -> Image:
        colours = np.array([[40, 90, 40], [60, 90, 130], [50, 50, 60]], np.float32)
        base = colours[int(rng.integers(0, len(colours)))]
        small = rng.normal(0, 12, (self.height // 16 + 1, self.width // 16 + 1, 3)) + base
        bg: Image = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (self.width, self.height))
        return bg

    def _surround(self, table: tuple[float, float, float, float],
                  rng: np.random.Generator) -> None:
        """Floorboards outside the table's rectangle ``table`` (normalised x0, y0, x1, y1)."""
        h, w = self.height, self.width
        floor = np.empty((h, w, 3), np.uint8)
        board = max(8, h // 12)
        for y in range(0, h, board):
            tone = rng.uniform(55, 110)
            streak: Image = rng.normal(0, 9, (1, w)).astype(np.float32)
            streak = cv2.GaussianBlur(streak, (0, 0), 3).reshape(-1)
            row = np.clip(tone + streak, 0, 255)
            floor[y:y + board] = np.stack([row * 0.55, row * 0.75, row], -1)[None].astype(np.uint8)
            floor[y:y + 2] = 25  # the gap between two boards
            joint = int(rng.uniform(0, w))  # where two boards meet end to end
            floor[y:y + board, joint:joint + 2] = 25
        x0, y0, x1, y1 = (int(table[0] * w), int(table[1] * h), int(table[2] * w),
                          int(table[3] * h))
        inside: Image = self._background[y0:y1, x0:x1].astype(np.float32)
        # the table top's own grain: streaks along it, in brightness (what a gray camera sees)
        grain: Image = rng.normal(0, 1, (max(2, (y1 - y0) // 3), max(2, (x1 - x0) // 40)))
        grain = cv2.resize(grain.astype(np.float32), (x1 - x0, y1 - y0),
                           interpolation=cv2.INTER_CUBIC)
        inside = np.clip(inside * (1 + 0.18 * grain[:, :, None]), 0, 255).astype(np.uint8)
        self._background = floor
        self._background[y0:y1, x0:x1] = inside
        cv2.rectangle(self._background, (x0, y0), (x1 - 1, y1 - 1), (20, 20, 20), 3)

    def _make_gain(self, rng: np.random.Generator) -> Image:
        a = rng.uniform(0, 2 * math.pi)
        xs = np.linspace(0, math.cos(a), self.width, dtype=np.float32)[None, :]
        ys = np.linspace(0, math.sin(a), self.height, dtype=np.float32)[:, None]
        ramp = xs + ys
        lo, hi = rng.uniform(0.65, 0.9), rng.uniform(1.0, 1.2)
        ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
        gain = np.clip((lo + (hi - lo) * ramp) * 128, 0, 255).astype(np.uint8)
        out: Image = cv2.merge([gain, gain, gain])
        return out

    def card(self, payload: str) -> Image:
        if payload not in self._cards:
            self._cards[payload] = card_image(payload)
        return self._cards[payload]

    def place(self, center_norm: Point, angle: float, tag_px: float) -> Matrix:
        """Canvas -> image homography for a card whose centre lands at ``center_norm``."""
        c_img = (center_norm[0] * self.width, center_norm[1] * self.height)
        c_tab = _apply(np.linalg.inv(self.camera).astype(np.float64), [c_img])[0]
        scale = tag_px * self.width / 1280 / (21 * MODULE)
        h: Matrix = self.camera @ _similarity(c_tab, angle, scale)
        return h

    def draw_cards(self, canvas: Image, cards: Sequence[_Placed]) -> None:
        """Warp each card onto ``canvas`` in order (later cards on top)."""
        for pc in cards:
            quad = np.array(_apply(pc.homography, _card_quad()))
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
            x0, y0 = max(x0, 0), max(y0, 0)
            x1, y1 = min(x1, self.width), min(y1, self.height)
            if x1 <= x0 or y1 <= y0:
                continue
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
            roi = canvas[y0:y1, x0:x1].copy()
            cv2.warpPerspective(self.card(pc.payload), shift @ pc.homography, (x1 - x0, y1 - y0),
                                dst=roi, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_TRANSPARENT)
            if pc.motion != (0.0, 0.0):
                roi = _motion_blur(roi, pc.motion)
            canvas[y0:y1, x0:x1] = roi

    def finish(self, canvas: Image, rng: np.random.Generator) -> Image:
        """Lighting, lens blur, sensor noise and JPEG compression over the whole frame."""
        out: Image = cv2.multiply(canvas, self._gain, scale=1 / 128)
        sigma = rng.uniform(0.0, self.blur_max)
        if sigma > 0.25:
            out = cv2.GaussianBlur(out, (0, 0), sigma)
        dx, dy = (int(v) for v in rng.integers(0, 32, 2))
        h, w = self.height, self.width
        out = cv2.add(out, self._noise_pos[dy : dy + h, dx : dx + w])
        out = cv2.subtract(out, self._noise_neg[dy : dy + h, dx : dx + w])
        ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)  # like a camera's MJPEG
        return out if not ok or decoded is None else decoded

    def draw_patches(self, canvas: Image, patches: Sequence[Patch]) -> None:
        """Hands over the cards (before the lighting: a hand is lit like the table)."""
        for p in patches:
            if p.kind == "hand":
                poly = np.round(p.polygon(self.width, self.height)).astype(np.int32)
                cv2.fillPoly(canvas, [poly], (120, 150, 205))

    def lamp(self, canvas: Image, patches: Sequence[Patch]) -> Image:
        """Pools of a lamp's light (before the camera's lighting and noise): brighter, and
        fading over a radius; whatever is dark stays dark. No lamp: ``canvas`` itself."""
        for p in patches:
            if p.kind != "lamp":
                continue
            flat = np.zeros((self.height, self.width), np.float32)
            poly = np.round(p.polygon(self.width, self.height)).astype(np.int32)
            cv2.fillPoly(flat, [poly], 1.0)
            soft = cv2.GaussianBlur(flat, (0, 0), p.radius * self.width / 3)
            strength = 0.8 if p.strength is None else p.strength
            gain = 1.0 + strength * soft / max(float(soft.max()), 1e-6)
            canvas = np.clip(canvas * gain[:, :, None], 0, 255).astype(np.uint8)
        return canvas

    def glare(self, image: Image, patches: Sequence[Patch]) -> Image:
        """Lamp spots: washed out to white at the centre, fading at the edge."""
        for p in patches:
            if p.kind != "glare":
                continue
            spot = self._spot(p)
            image = cv2.max(image, cv2.merge([spot, spot, spot]))
        return image

    def _spot(self, p: Patch) -> Image:
        """A reflection's brightness floor (0..255) over the frame: white at the centre,
        fading at the edge (the same for every frame: made once a patch)."""
        if p not in self._spots:
            flat = np.zeros((self.height, self.width), np.float32)
            poly = np.round(p.polygon(self.width, self.height)).astype(np.int32)
            cv2.fillPoly(flat, [poly], 1.0)
            soft = cv2.GaussianBlur(flat, (0, 0), p.radius * self.width / 6)
            strength = 1.6 if p.strength is None else p.strength
            self._spots[p] = (np.clip(soft * strength, 0, 1) * 255).astype(np.uint8)
        return self._spots[p]

    def glare_core(self, patches: Sequence[Patch]) -> Image | None:
        """Where the reflections of ``patches`` wash the picture out: the pixels they paint
        pure white (255) whatever lies under them, black print as white as the rest (1 there,
        else 0). None: no reflection does (none, or only veils: ``strength`` under 1)."""
        core: Image | None = None
        for p in patches:
            if p.kind != "glare":
                continue
            white = (self._spot(p) == 255).astype(np.uint8)
            core = white if core is None else np.maximum(core, white)
        return core if core is not None and core.any() else None

    def truth(self, cards: Sequence[_Placed], hands: Sequence[Patch] = ()
              ) -> tuple[TagTruth, ...]:
        """Each card's code corners and visible share (covered by later cards or a hand,
        or off-frame), and how much of it a lamp's reflection among ``hands`` (the frame's
        patches) washes out (``vision.truth``)."""
        tags = [(pc.payload, _apply(pc.homography, tag_corners_canvas()), pc.landed, pc.zone)
                for pc in cards]
        quads = [np.array(_apply(pc.homography, _card_quad())) for pc in cards]
        over = [p.polygon(self.width, self.height) for p in hands if p.kind == "hand"]
        return tag_truths(tags, quads, over, self.glare_core(hands), (self.width, self.height))

    def background(self) -> Image:
        return self._background.copy()


def _card_quad() -> list[Point]:
    return [(0, 0), (CARD_W, 0), (CARD_W, CARD_H), (0, CARD_H)]


def _motion_blur(roi: Image, motion: Point) -> Image:
    length = int(min(15, math.hypot(*motion)))
    if length < 2:
        return roi
    k = np.zeros((length, length), np.float32)
    a = math.atan2(motion[1], motion[0])
    c = (length - 1) / 2
    p0 = (int(round(c - c * math.cos(a))), int(round(c - c * math.sin(a))))
    p1 = (int(round(c + c * math.cos(a))), int(round(c + c * math.sin(a))))
    cv2.line(k, p0, p1, 1.0, 1)
    out: Image = cv2.filter2D(roi, -1, k / max(float(k.sum()), 1.0))
    return out


def random_scene(
    renderer: Renderer, payloads: Sequence[str], n_cards: int, seed: int, tag_px: Point = (60, 140)
) -> SyntheticFrame:
    """One still frame of ``n_cards`` cards, spread so most tags are fully visible."""
    rng = np.random.default_rng([seed, 2])
    chosen = rng.choice(len(payloads), size=n_cards, replace=False)
    cards = []
    for i, k in enumerate(chosen):
        cell = ((i % 4) + 0.5) / 4, ((i // 4) + 0.5) / 2 if n_cards > 4 else 0.5
        jitter = rng.uniform(-0.06, 0.06, 2)
        center = (float(cell[0] + jitter[0]), float(cell[1] + jitter[1]))
        h = renderer.place(center, float(rng.uniform(0, 360)), float(rng.uniform(*tag_px)))
        cards.append(_Placed(payloads[int(k)], h, True, None))
    canvas = renderer.background()
    renderer.draw_cards(canvas, cards)
    image = renderer.finish(canvas, rng)
    return SyntheticFrame(seed, 0.0, image, renderer.truth(cards))


def _zone_center(polygon: Sequence[Point]) -> Point:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return (sum(xs) / len(xs), sum(ys) / len(ys))


def demo_script(payloads: Sequence[str], interval: float = 1.5, pile_size: int = 7) -> list[CardPlay]:
    """Cards played one by one onto the pile; every ``pile_size`` cards the pile is cleared."""
    plays = []
    for i, payload in enumerate(payloads):
        clear = (i // pile_size + 1) * pile_size * interval + interval / 2
        plays.append(CardPlay(payload, at=(i + 1) * interval, zone="pile", removed_at=clear))
    return plays


class SyntheticTable:
    """A ``FrameSource`` rendering a script of card plays; also a seeded frame generator.

    ``realtime``: ``read()`` paces frames at ``fps`` on ``clock`` (skipping frames when the
    reader is slow, like a camera), sleeping with ``sleep`` (default: a real wait that
    ``close()`` interrupts; a test passes a fake clock's). Otherwise every index is
    rendered in turn at once, and frame ``i`` is captured at ``start + i / fps`` on the
    frame clock (``start``: ``clock()`` at the first read): the same times on any machine.
    ``loop``: start the script again after its last event (for the demo feed).
    ``zones``: polygons by name in normalised coordinates, for ``CardPlay.zone``.
    ``patches``: hands resting over cards and glare spots, each for a while.
    """

    def __init__(
        self,
        payloads: Sequence[str],
        script: Sequence[CardPlay] | None = None,
        *,
        width: int = 1280,
        height: int = 720,
        fps: float = 30.0,
        seed: int = 0,
        zones: Mapping[str, Sequence[Point]] | None = None,
        realtime: bool = True,
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] | None = None,
        patches: Sequence[Patch] = (),
        bumps: Sequence[Bump] = (),
        table: tuple[float, float, float, float] | None = None,
    ) -> None:
        if not payloads and script is None:
            raise ValueError("SyntheticTable needs tag payloads (a list of strings) or a script")
        self.script = list(script) if script is not None else demo_script(payloads)
        self.fps, self.seed, self.realtime, self.loop = fps, seed, realtime, loop
        self.zones = dict(zones or {"pile": [(0.35, 0.3), (0.65, 0.3), (0.65, 0.7), (0.35, 0.7)]})
        self.renderer = Renderer(width, height, seed, table)
        self.patches = tuple(patches)
        self.bumps = tuple(sorted(bumps, key=lambda b: b.at))
        self._clock = clock
        self._sleep = sleep
        self._start: float | None = None
        self._next = 0
        self._closed = threading.Event()
        self._poses = [self._pose(i, p) for i, p in enumerate(self.script)]
        ends = [p.removed_at or p.at for p in self.script]
        self.duration = (max(ends) if ends else 0.0) + 2.0
        self.captured: dict[int, float] = {}  # frame index -> capture time (``Frame.at``)
        #: the truth of the last frame ``read`` returned (where each tag was, how much of
        #: it a camera could see): what a bench compares the camera's reads with
        self.last_truth: tuple[TagTruth, ...] = ()

    def _pose(self, i: int, play: CardPlay) -> tuple[Point, float, float, Point]:
        rng = np.random.default_rng([self.seed, 3, i])
        if play.position is not None:
            center = play.position
        elif play.zone is not None and play.zone in self.zones:
            cx, cy = _zone_center(self.zones[play.zone])
            j = rng.uniform(-0.03, 0.03, 2)
            center = (cx + float(j[0]), cy + float(j[1]))
        else:
            center = (float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.2, 0.8)))
        angle = play.angle if play.angle is not None else float(rng.uniform(0, 360))
        tag_px = play.tag_px if play.tag_px is not None else float(rng.uniform(80, 120))
        side = rng.integers(0, 4)
        start = [(center[0], 1.3), (center[0], -0.3), (-0.3, center[1]), (1.3, center[1])][side]
        return center, angle, tag_px, start

    def scene_time(self, index: int) -> float:
        t = index / self.fps
        return t % self.duration if self.loop else t

    def placed(self, t: float) -> list[_Placed]:
        """The cards on (or sliding onto) the table at script time ``t``, bottom first."""
        out = []
        order = sorted(range(len(self.script)), key=lambda i: self.script[i].at)
        for i in order:
            play = self.script[i]
            if t < play.at - play.slide_s or (play.removed_at is not None and t >= play.removed_at):
                continue
            center, angle, tag_px, start = self._poses[i]
            landed = t >= play.at
            motion = (0.0, 0.0)
            if not landed:
                f = 1 - (play.at - t) / play.slide_s
                e = 1 - (1 - f) ** 2  # decelerating
                pos = (start[0] + (center[0] - start[0]) * e, start[1] + (center[1] - start[1]) * e)
                speed = 2 * (1 - f) / play.slide_s / self.fps
                motion = ((center[0] - start[0]) * speed * self.renderer.width,
                          (center[1] - start[1]) * speed * self.renderer.height)
                center, angle = pos, angle - 40 * (1 - e)
            h = self.renderer.place(center, angle, tag_px)
            out.append(_Placed(play.payload, h, landed, play.zone, motion))
        return out

    def bump(self, t: float) -> Matrix | None:
        """Where the camera was knocked to at script time ``t`` (None: never knocked)."""
        latest = [b for b in self.bumps if b.at <= t]
        return latest[-1].matrix(self.renderer.width, self.renderer.height) if latest else None

    def render(self, index: int) -> SyntheticFrame:
        """Frame ``index``: the same pixels and truth for the same seed, script and index."""
        t = self.scene_time(index)
        cards = self.placed(t)
        patches = [p for p in self.patches if p.active(t)]
        canvas = self.renderer.background()
        moved = self.bump(t)
        if moved is not None:  # the table, and the cards on it, seen from the knocked camera
            canvas = cv2.warpPerspective(canvas, moved, (canvas.shape[1], canvas.shape[0]),
                                         borderMode=cv2.BORDER_REFLECT)
            cards = [_Placed(c.payload, moved @ c.homography, c.landed, c.zone, c.motion)
                     for c in cards]
        self.renderer.draw_cards(canvas, cards)
        self.renderer.draw_patches(canvas, patches)
        canvas = self.renderer.lamp(canvas, patches)
        image = self.renderer.finish(canvas, np.random.default_rng([self.seed, 4, index]))
        image = self.renderer.glare(image, patches)
        return SyntheticFrame(index, t, image, self.renderer.truth(cards, patches))

    def read(self) -> Frame | None:
        """The next frame (``FrameSource``); None once closed or, without ``loop``, at the end."""
        if self._closed.is_set():
            return None
        if self._start is None:
            self._start = self._clock()
        index = self._next
        if self.realtime:
            now = self._clock()
            index = max(index, int((now - self._start) * self.fps))
            wait = self._start + index / self.fps - now
            if wait > 0:
                if self._sleep is not None:
                    self._sleep(wait)
                if self._closed.wait(0 if self._sleep is not None else wait):
                    return None
        if not self.loop and index / self.fps > self.duration:
            return None
        self._next = index + 1
        frame = self.render(index)
        # real time: delivered now, like a camera frame after readout; else frame time
        at = self._clock() if self.realtime else self._start + index / self.fps
        self.captured[index] = at
        self.last_truth = frame.truth
        if len(self.captured) > 10_000:
            self.captured.pop(next(iter(self.captured)))
        return Frame(frame.image, at, index)

    def close(self) -> None:
        self._closed.set()
