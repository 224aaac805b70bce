"""A synthetic table: QR-tagged cards played onto a table, rendered with ground truth.

``SyntheticTable`` is a ``FrameSource`` (the ``--demo`` camera, in real time at its fps)
and a deterministic generator: ``render(index)`` is a pure function of the seed, the
script and the frame index. ``random_scene`` renders one still frame of 1..N cards
(for the benchmark). Tags are version-1 QR codes (segno), seen through a tilted camera
(perspective), rotated, blurred, unevenly lit and noisy. Imports only ``vision.frames``,
``vision.truth`` (what a camera could read of each tag) and its own pieces from vision
(``vision.sources.open_source`` imports this module, never the reverse):

- ``vision.synthscript``: the script's parts (``CardPlay``, ``Patch``, ``Bump``), which
  this module offers too: a scene is written against ``SyntheticTable``;
- ``vision.synthcard``: the card canvas and where it lands in the picture;
- ``vision.synthrender``: the ``Renderer`` (the table, the cards, the camera's look).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import Frame, Image, Point
from vision.synthcard import Matrix
from vision.synthrender import Renderer, _Placed

# the script's parts, offered with the table that plays them out
from vision.synthscript import Bump as Bump
from vision.synthscript import CardPlay as CardPlay
from vision.synthscript import Patch as Patch
from vision.synthscript import demo_script
from vision.truth import TagTruth as TagTruth  # re-exported: the benches read it here


@dataclass(frozen=True)
class SyntheticFrame:
    index: int
    t: float  # seconds since the start of the script
    image: Image
    truth: tuple[TagTruth, ...]


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
    ``tail_s``: how long the table is still filmed after the script's last event.
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
        tail_s: float = 2.0,
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
        self.duration = (max(ends) if ends else 0.0) + tail_s
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
