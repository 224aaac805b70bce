"""The synthetic table's renderer: placed cards drawn over a table, then seen by a camera.

``Renderer`` draws at one resolution and one look drawn from its seed (camera tilt,
lighting, lens blur, sensor noise, JPEG): the table (and the floor around it), the
cards (``_Placed``: a card canvas carried into the picture, sliding cards motion
blurred), hands, a lamp's light and glare, and each tag's ground truth
(``vision.truth``). ``vision.synthetic`` says what is where in each frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import Image, Point
from vision.synthcard import (
    MODULE,
    Matrix,
    _apply,
    _card_quad,
    _similarity,
    card_image,
    tag_corners_canvas,
)
from vision.synthscript import Patch
from vision.truth import TagTruth, tag_truths


@dataclass(frozen=True)
class _Placed:
    payload: str
    homography: Matrix  # card canvas -> image
    landed: bool
    zone: str | None
    motion: Point = (0.0, 0.0)  # pixels per frame, for motion blur


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

