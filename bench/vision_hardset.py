"""The hard benchmark set: small tags, motion blur, fingers, glare, curved cards, JPEG, videos.

Everything is drawn from a seed, so the set is the same on every machine; there are two
splits with their own seeds (``SPLITS``): ``tune`` is what the decoder's retry was
tuned on, ``held`` is kept apart and only ever measured (``companion bench vision``
reports both). A frame holds 1-8 cards whose codes have 3-5 px modules (at the frame's
size), some sliding with up to 7 px of motion blur in any direction, some curved (a card
that is not flat: its module grid bends and its shading changes), some with a finger
over the card (recall counts only codes no finger covers), some under a glare spot,
all through the table camera's tilt, uneven light, lens blur, sensor noise and JPEG at
quality 65-92. The videos play cards onto a pile at The Nasty 7's pace: one every
0.4-0.8 s, each landing over the previous one, slid in by a finger, under a fixed lamp
reflection. Imports only ``vision.frames`` and ``vision.synthetic`` from vision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibration import MODULES, side_px
from vision.frames import Corners, Image, Point
from vision.synthcard import CARD_H, CARD_W, MODULE, _apply, _card_quad, tag_corners_canvas
from vision.synthetic import CardPlay, SyntheticFrame, SyntheticTable, TagTruth
from vision.synthrender import Renderer, _Placed

#: the fixed split: each split's frames and videos come from its own seed
SPLITS = {"tune": 190_001, "held": 190_002}
MODULE_PX = (3.0, 5.0)  # module size in frame pixels
BLUR_PX = 7.0  # the longest motion blur, any direction
SLIDING = 0.3  # the share of cards in a still frame that are still sliding (blurred)
JPEG = (65, 92)
LOOK_EVERY = 20  # a new camera/lighting look every this many frames
SKIN = ((120, 150, 205), (90, 120, 180), (70, 95, 150), (50, 70, 110))  # BGR finger tones


@dataclass(frozen=True)
class Finger:
    """A finger drawn from ``tip`` back to ``base`` (pixels), ``width`` px thick."""

    tip: Point
    base: Point
    width: float
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class Hazard:
    """What one card in a hard frame went through (for the benchmark's breakdown)."""

    module_px: float
    blur_px: float
    bend: float
    glare: bool  # a glare spot's centre within two sigmas of the code


@dataclass(frozen=True)
class Glare:
    """A soft bright spot: centre (pixels), radius (sigma, pixels), peak brightness added."""

    center: Point
    sigma: float
    peak: float


def split_seed(split: str) -> int:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: choose one of {', '.join(SPLITS)}")
    return SPLITS[split]


def tag_px_for(module_px: float, width: int) -> float:
    """``CardPlay.tag_px`` (code side at 1280 wide) for ``module_px`` in a ``width`` frame."""
    return module_px * 21 * 1280 / width


class HardRenderer(Renderer):
    """A ``Renderer`` whose cards may be curved (``bends``: payload -> bend) and whose
    frames carry fingers and glare spots."""

    def __init__(self, width: int, height: int, seed: int, jpeg: int) -> None:
        super().__init__(width, height, seed)
        self.jpeg_quality = jpeg
        self.bends: dict[str, float] = {}
        self._bent: dict[tuple[str, float], Image] = {}

    def card(self, payload: str) -> Image:
        flat = super().card(payload)
        bend = round(self.bends.get(payload, 0.0), 2)
        if bend == 0.0:
            return flat
        key = (payload, bend)
        if key not in self._bent:
            if len(self._bent) > 256:
                self._bent.clear()
            self._bent[key] = curved(flat, bend)
        return self._bent[key]

    def overlay(self, canvas: Image, fingers: Sequence[Finger], glares: Sequence[Glare]) -> None:
        """Glare spots, then fingers (a finger casts its own shade, so it sits on top)."""
        for g in glares:
            _add_glare(canvas, g)
        for f in fingers:
            _draw_finger(canvas, f)

    def covered_by_fingers(self, truth: Sequence[TagTruth], fingers: Sequence[Finger]
                           ) -> tuple[TagTruth, ...]:
        """``truth`` with each code's visible share reduced by the fingers over it."""
        if not fingers:
            return tuple(truth)
        out = []
        for t in truth:
            quad = np.array(t.corners)
            x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
            shift = (float(x0), float(y0))
            code = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(code, [np.round(quad - shift).astype(np.int32)], 1)
            mask = np.zeros_like(code)
            for f in fingers:
                _finger_shape(mask, _moved(f, shift), 1)
            total = int(code.sum())
            share = 1.0 - int((code & mask).sum()) / total if total else 0.0
            out.append(replace(t, visible=min(t.visible, share)))
        return tuple(out)


def _moved(f: Finger, by: Point) -> Finger:
    return replace(f, tip=(f.tip[0] - by[0], f.tip[1] - by[1]),
                   base=(f.base[0] - by[0], f.base[1] - by[1]))


def curved(card: Image, bend: float) -> Image:
    """The card seen bent around its long axis by ``bend`` radians (0 = flat).

    Its columns crowd towards the edges (a cylinder seen from above), its middle bows by
    a few pixels and its shading falls off towards the edges.
    """
    h, w = card.shape[:2]
    xs = np.arange(w, dtype=np.float32)
    u = (xs - w / 2) / (w / 2)  # -1..1 across the card
    src_x = w / 2 + (w / 2) * np.sin(u * bend) / math.sin(bend)
    bow = 0.04 * h * bend * (1 - u**2)
    map_x = np.repeat(src_x[None, :], h, axis=0)
    map_y = np.arange(h, dtype=np.float32)[:, None] - bow[None, :]
    out: Image = cv2.remap(card, map_x.astype(np.float32), map_y.astype(np.float32),
                           cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shade = (1.0 - 0.25 * bend * u**2).astype(np.float32)
    out = np.clip(out * shade[None, :, None], 0, 255).astype(np.uint8)
    return out


def _finger_shape(target: Image, f: Finger, value: int | tuple[int, int, int]) -> None:
    a = (int(round(f.tip[0])), int(round(f.tip[1])))
    b = (int(round(f.base[0])), int(round(f.base[1])))
    cv2.line(target, a, b, value, int(round(f.width)), lineType=cv2.LINE_AA)
    cv2.circle(target, a, int(round(f.width / 2)), value, -1, lineType=cv2.LINE_AA)


def _draw_finger(canvas: Image, f: Finger) -> None:
    # a soft shadow first, then the finger, then a highlight along its back
    dx, dy = 0.12 * f.width, 0.18 * f.width
    shadow = canvas.copy()
    _finger_shape(shadow, Finger((f.tip[0] + dx, f.tip[1] + dy),
                                 (f.base[0] + dx, f.base[1] + dy), f.width * 1.1, (0, 0, 0)),
                  (0, 0, 0))
    cv2.addWeighted(shadow, 0.35, canvas, 0.65, 0, dst=canvas)
    _finger_shape(canvas, f, f.colour)
    light = tuple(min(255, int(c * 1.25)) for c in f.colour)
    offset = 0.2 * f.width
    n = math.hypot(f.base[0] - f.tip[0], f.base[1] - f.tip[1]) or 1.0
    px, py = -(f.base[1] - f.tip[1]) / n * offset, (f.base[0] - f.tip[0]) / n * offset
    _finger_shape(canvas, Finger((f.tip[0] + px, f.tip[1] + py), (f.base[0] + px, f.base[1] + py),
                                 f.width * 0.3, f.colour), light)  # type: ignore[arg-type]


def _add_glare(canvas: Image, g: Glare) -> None:
    h, w = canvas.shape[:2]
    r = int(3 * g.sigma)
    x0, y0 = max(0, int(g.center[0]) - r), max(0, int(g.center[1]) - r)
    x1, y1 = min(w, int(g.center[0]) + r + 1), min(h, int(g.center[1]) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d2 = (xs - g.center[0]) ** 2 + (ys - g.center[1]) ** 2
    spot = (g.peak * np.exp(-d2 / (2 * g.sigma**2))).astype(np.float32)
    roi = canvas[y0:y1, x0:x1].astype(np.float32) + spot[:, :, None]
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _finger_on(h: np.ndarray, rng: np.random.Generator, width_px: float,
               reach: tuple[float, float] = (0.05, 0.45)) -> Finger:
    """A finger entering over one edge of the card (homography ``h``) towards its middle."""
    edge = int(rng.integers(0, 4))
    along = float(rng.uniform(0.2, 0.8))
    depth = float(rng.uniform(*reach))
    # points on the card canvas: from outside the edge to ``depth`` of the way in
    if edge == 0:
        tip, base = (along * CARD_W, depth * CARD_H), (along * CARD_W, -0.9 * CARD_H)
    elif edge == 1:
        tip, base = (along * CARD_W, (1 - depth) * CARD_H), (along * CARD_W, 1.9 * CARD_H)
    elif edge == 2:
        tip, base = (depth * CARD_W, along * CARD_H), (-0.9 * CARD_W, along * CARD_H)
    else:
        tip, base = ((1 - depth) * CARD_W, along * CARD_H), (1.9 * CARD_W, along * CARD_H)
    (tx, ty), (bx, by) = _apply(h, [tip, base])
    colour = SKIN[int(rng.integers(0, len(SKIN)))]
    return Finger((tx, ty), (bx, by), width_px, colour)


def _card_width_px(h: np.ndarray) -> float:
    quad = np.array(_apply(h, _card_quad()))
    return float(np.linalg.norm(quad[1] - quad[0]))


_RENDERERS: dict[tuple[int, int, int, int], HardRenderer] = {}


def _renderer(seed: int, look: int, width: int, height: int) -> HardRenderer:
    key = (seed, look, width, height)
    if key not in _RENDERERS:
        if len(_RENDERERS) > 4:
            _RENDERERS.clear()
        rng = np.random.default_rng([seed, look, 5])
        jpeg = int(rng.integers(JPEG[0], JPEG[1] + 1))
        _RENDERERS[key] = HardRenderer(width, height, seed * 1000 + look, jpeg)
    return _RENDERERS[key]


def hard_frame(split: str, index: int, payloads: Sequence[str], width: int = 1280,
               height: int = 720) -> SyntheticFrame:
    """Still frame ``index`` of ``split``: 1-8 cards with every hazard, and its truth."""
    return hard_frame_hazards(split, index, payloads, width, height)[0]


def hard_frame_hazards(split: str, index: int, payloads: Sequence[str], width: int = 1280,
                       height: int = 720) -> tuple[SyntheticFrame, dict[str, Hazard]]:
    """``hard_frame`` and what each card went through, by payload."""
    seed = split_seed(split)
    renderer = _renderer(seed, index // LOOK_EVERY, width, height)
    rng = np.random.default_rng([seed, index, 1])
    n = int(rng.integers(1, 9))
    chosen = rng.choice(len(payloads), size=n, replace=False)
    cards: list[_Placed] = []
    fingers: list[Finger] = []
    renderer.bends = {}
    blurs: dict[str, float] = {}
    for i, k in enumerate(chosen):
        payload = payloads[int(k)]
        cell = ((i % 4) + 0.5) / 4, ((i // 4) + 0.5) / 2 if n > 4 else 0.5
        jitter = rng.uniform(-0.05, 0.05, 2)
        center = (float(cell[0] + jitter[0]), float(cell[1] + jitter[1]))
        module, angle = float(rng.uniform(*MODULE_PX)), float(rng.uniform(0, 360))
        h = renderer.place(center, angle, tag_px_for(module, width))
        # the camera's tilt shrinks or grows the code: place it again at the drawn size
        actual = module_px(tuple(_apply(h, tag_corners_canvas())))
        h = renderer.place(center, angle, tag_px_for(module * module / actual, width))
        motion = (0.0, 0.0)
        if rng.random() < SLIDING:  # sliding: blurred along any direction, up to 7 px
            length, angle = float(rng.uniform(1.0, BLUR_PX)), float(rng.uniform(0, 2 * math.pi))
            motion = (length * math.cos(angle), length * math.sin(angle))
        if rng.random() < 0.4:
            renderer.bends[payload] = float(rng.uniform(0.15, 0.6))
        if rng.random() < 0.35:
            fingers.append(_finger_on(h, rng, 0.28 * _card_width_px(h)))
        cards.append(_Placed(payload, h, True, None, motion))
        blurs[payload] = math.hypot(*motion)
    glares = [Glare((float(rng.uniform(0, width)), float(rng.uniform(0, height))),
                    float(rng.uniform(10, 40)) * width / 1280, float(rng.uniform(50, 140)))
              for _ in range(int(rng.integers(0, 3)))]
    canvas = renderer.background()
    renderer.draw_cards(canvas, cards)
    renderer.overlay(canvas, fingers, glares)
    image = renderer.finish(canvas, rng)
    truth = renderer.covered_by_fingers(renderer.truth(cards), fingers)
    hazards = {}
    for t in truth:
        c = np.mean(np.array(t.corners), axis=0)
        near = any(math.hypot(g.center[0] - c[0], g.center[1] - c[1]) < 2 * g.sigma + 10
                   for g in glares)
        hazards[t.payload] = Hazard(module_px(t.corners), blurs[t.payload],
                                    renderer.bends.get(t.payload, 0.0), near)
    return SyntheticFrame(index, 0.0, image, truth), hazards


def pile_script(split: str, video: int, payloads: Sequence[str], width: int = 1280,
                cards: int = 21, pile_size: int = 7) -> list[CardPlay]:
    """Cards played onto the pile at The Nasty 7's pace: one every 0.4-0.8 s, each landing
    over the previous one; the pile is cleared after every ``pile_size`` cards."""
    rng = np.random.default_rng([split_seed(split), video, 2])
    order = rng.choice(len(payloads), size=min(cards, len(payloads)), replace=False)
    plays: list[CardPlay] = []
    t = 1.0
    pile: list[int] = []
    for n, k in enumerate(order):
        if n and n % pile_size == 0:
            t += 0.6  # the pile is swept off; the next card lands on the bare table
            plays = [replace(p, removed_at=t - 0.3) if i in pile else p
                     for i, p in enumerate(plays)]
            pile = []
        x, y = 0.5 + float(rng.uniform(-0.06, 0.06)), 0.5 + float(rng.uniform(-0.08, 0.08))
        module = float(rng.uniform(*MODULE_PX))
        plays.append(CardPlay(payloads[int(k)], at=t, position=(x, y),
                              angle=float(rng.uniform(0, 360)),
                              tag_px=tag_px_for(module, width),
                              slide_s=float(rng.uniform(0.15, 0.3))))
        pile.append(len(plays) - 1)
        t += float(rng.uniform(0.4, 0.8))
    return plays


class HardTable(SyntheticTable):
    """A ``SyntheticTable`` of a ``pile_script`` with the hard set's hazards: curved
    cards, a finger pushing each card until just after it lands, a lamp reflection."""

    def __init__(self, split: str, video: int, payloads: Sequence[str], *, width: int = 1280,
                 height: int = 720, fps: float = 30.0, cards: int = 21, **kw: object) -> None:
        script = pile_script(split, video, payloads, width, cards)
        seed = split_seed(split) * 100 + video
        super().__init__(payloads, script, width=width, height=height, fps=fps, seed=seed,
                         **kw)  # type: ignore[arg-type]
        rng = np.random.default_rng([seed, 6])
        self.hard = HardRenderer(width, height, seed, int(rng.integers(JPEG[0], JPEG[1] + 1)))
        self.hard.bends = {p.payload: float(rng.uniform(0.0, 0.5)) for p in script}
        self.renderer = self.hard
        self.glare = Glare((float(rng.uniform(0.3, 0.7)) * width, float(rng.uniform(0.3, 0.7))
                            * height), float(rng.uniform(15, 35)) * width / 1280,
                           float(rng.uniform(50, 120)))
        self._finger_rng = [np.random.default_rng([seed, 7, i]) for i in range(len(script))]

    def render(self, index: int) -> SyntheticFrame:
        t = self.scene_time(index)
        cards = self.placed(t)
        fingers = []
        by_payload = {p.payload: i for i, p in enumerate(self.script)}
        for pc in cards:
            i = by_payload[pc.payload]
            play = self.script[i]
            if play.at - play.slide_s <= t < play.at + 0.15:  # pushed in, let go just after
                rng = np.random.default_rng([self.seed, 8, i])  # the same finger each frame
                fingers.append(_finger_on(pc.homography, rng, 0.28 * _card_width_px(pc.homography),
                                          reach=(0.02, 0.2)))
        canvas = self.hard.background()
        self.hard.draw_cards(canvas, cards)
        self.hard.overlay(canvas, fingers, [self.glare])
        image = self.hard.finish(canvas, np.random.default_rng([self.seed, 4, index]))
        truth = self.hard.covered_by_fingers(self.hard.truth(cards), fingers)
        return SyntheticFrame(index, t, image, truth)


def module_px(corners: Corners) -> float:
    """Pixels a module of a version-1 code with these corners (its mean side over 21)."""
    return side_px(corners) / MODULES


__all__ = ["MODULE", "SPLITS", "HardRenderer", "HardTable", "hard_frame", "module_px",
           "pile_script", "tag_px_for"]
