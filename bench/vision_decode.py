"""``companion bench vision``: the decoders alone on the hard set's frames.

``run_split``: the shipped decoder and zxing-cpp alone (``_decoders``) on the same hard
frames (``bench.vision_hardset``), timed in CPU time of the decoding thread: recall of
fully visible codes, false reads, median and p95 ms a frame, recall by hazard (a
``Score`` per decoder). ``run_variants``: each retry variant's gain and cost on the codes
zxing-cpp located but could not read. ``run_resolutions``: ms a frame at each camera
resolution (``RESOLUTIONS``), whole frame and zones only. ``bench.vision`` runs them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.vision_kit import PI_RATIO, TABLE_ZONES, bench_payloads, stats
from vision.decoding import default_decoder
from vision.frames import Decoder

#: camera resolutions: (width, height, what gives it)
RESOLUTIONS = (
    (640, 480, "USB webcam VGA"),
    (1280, 720, "USB webcam / Camera Module 3 cropped"),
    (1920, 1080, "USB webcam 1080p / HQ camera 2028x1080 class"),
    (2304, 1296, "Camera Module 3, 2x2 binned (56 fps)"),
    (4608, 2592, "Camera Module 3, full sensor (14 fps)"),
)


@dataclass
class Score:
    frames: int = 0
    visible: int = 0
    read: int = 0
    false: int = 0
    times: list[float] = field(default_factory=list)
    by_hazard: dict[str, list[int]] = field(default_factory=dict)  # name -> [read, visible]

    def count(self, hazard: str, read: bool) -> None:
        cell = self.by_hazard.setdefault(hazard, [0, 0])
        cell[0] += read
        cell[1] += 1

    def summary(self) -> dict[str, Any]:
        ts = sorted(self.times)
        return {
            "frames": self.frames,
            "recall": round(self.read / self.visible, 4) if self.visible else None,
            "read": self.read,
            "visible": self.visible,
            "false_reads": self.false,
            "median_ms": round(statistics.median(ts) * 1000, 2) if ts else None,
            "p95_ms": round(ts[int(0.95 * (len(ts) - 1))] * 1000, 2) if ts else None,
            "by_hazard": {k: f"{r}/{v}" for k, (r, v) in sorted(self.by_hazard.items())},
        }


def _decoders(ablation: bool = False) -> dict[str, Decoder]:
    """The shipped decoder and zxing-cpp alone; with ``ablation``, also the shipped decoder
    without its search (``RetryDecoder._search``): the search's gain and cost."""
    from vision.retry import RetryDecoder

    out: dict[str, Decoder] = {"shipped": default_decoder("auto")}
    if ablation:
        out["no search"] = RetryDecoder(search=False)
    out["zxing"] = default_decoder("zxing")
    return out


def _hazards(h: Any) -> list[str]:
    out = ["modules 3-4 px" if h.module_px < 4 else "modules 4-5 px"]
    blur = h.blur_px
    out.append("blur 0" if blur == 0 else "blur 1-3 px" if blur <= 3 else
               "blur 3-5 px" if blur <= 5 else "blur 5-7 px")
    if h.bend > 0:
        out.append("curved")
    if h.glare:
        out.append("glare")
    return out


def run_split(split: str, count: int, decoders: dict[str, Decoder], width: int = 1280,
              height: int = 720) -> dict[str, Any]:
    """Every decoder over ``count`` hard frames of ``split``; scores by decoder."""
    from bench.vision_hardset import hard_frame_hazards
    from vision.backends import to_gray

    payloads = bench_payloads()
    scores = {name: Score() for name in decoders}
    for i in range(count):
        frame, hazards = hard_frame_hazards(split, i, payloads, width, height)
        gray = to_gray(frame.image)  # what a Pi camera delivers: the Y plane
        visible = {t.payload for t in frame.truth if t.fully_visible}
        present = {t.payload for t in frame.truth}
        for name, decoder in decoders.items():
            t0 = time.thread_time()
            texts = {d.text for d in decoder.decode(gray) if not d.damaged}
            s = scores[name]
            s.times.append(time.thread_time() - t0)
            s.frames += 1
            s.visible += len(visible)
            s.read += len(visible & texts)
            s.false += len(texts - present)
            for p in visible:
                for h in _hazards(hazards[p]):
                    s.count(h, p in texts)
    return {name: s.summary() for name, s in scores.items()}


def run_variants(split: str, count: int) -> dict[str, Any]:
    """Each retry variant alone on every code zxing-cpp located but could not read."""
    from bench.vision_hardset import hard_frame
    from vision.backends import to_gray, zx_corners
    from vision.quads import is_real, overlap
    from vision.retry import ORDER, VARIANTS, RetryDecoder

    payloads = bench_payloads()
    retry = RetryDecoder()
    gain = {name: [0, 0, 0.0, 0] for name in [*VARIANTS, "shipped order"]}
    located = 0
    for i in range(count):
        frame = hard_frame(split, i, payloads)
        gray = to_gray(frame.image)
        results = retry._zx.read(gray, errors=True)
        read = [zx_corners(r.position) for r in results if r.valid]
        present = {t.payload for t in frame.truth}
        for r in results:
            corners = zx_corners(r.position)
            if r.valid or not is_real(corners) or any(overlap(corners, c) for c in read):
                continue
            located += 1
            for name, order in [*((n, [n]) for n in VARIANTS), ("shipped order", list(ORDER))]:
                t0 = time.thread_time()
                texts = {d.text for d in retry.retry(gray, corners, order=order)}
                cell = gain[name]
                cell[0] += 1
                cell[1] += bool(texts & present)
                cell[2] += time.thread_time() - t0
                cell[3] += len(texts - present)
    return {"located_unread": located, "order": list(ORDER), "variants": {
        name: {"attempts": a, "rescued": r, "false": f,
               "ms_per_attempt": round(t / a * 1000, 2) if a else None}
        for name, (a, r, t, f) in gain.items()}}


def run_resolutions(per_size: int) -> dict[str, Any]:
    """ms a frame of the shipped decoder at each resolution: whole frame, and zones only."""
    import cv2

    from bench.vision_hardset import hard_frame
    from vision.zonecrop import ZoneDecoder, area_share, zone_boxes

    payloads = bench_payloads()
    decoder = default_decoder("auto")
    zoned = ZoneDecoder(decoder, lambda: TABLE_ZONES)
    out: dict[str, Any] = {}
    for width, height, what in RESOLUTIONS:
        n = max(2, per_size // 4 if width > 2500 else per_size)
        whole, zones = [], []
        for i in range(n):
            gray = cv2.cvtColor(hard_frame("held", 10_000 + i, payloads, width, height).image,
                                cv2.COLOR_BGR2GRAY)  # the Y plane a Pi camera delivers
            whole.append(_timed(decoder.decode, gray))
            zones.append(_timed(zoned.decode, gray))
        boxes = zone_boxes(TABLE_ZONES, (width, height))
        out[f"{width}x{height}"] = {
            "camera": what, "frames": n,
            "whole_ms": stats(whole), "zones_ms": stats(zones),
            "zones_share": round(area_share(boxes, (width, height)), 3),
            "pi_estimate_ms": {pi: {"whole": _times(stats(whole)["median"], r),
                                    "zones": _times(stats(zones)["median"], r)}
                               for pi, r in PI_RATIO.items()},
        }
    return out


def _timed(fn: Callable[[Any], object], arg: Any) -> float:
    t0 = time.thread_time()
    fn(arg)
    return time.thread_time() - t0


def _times(v: float | None, r: float) -> float | None:
    return None if v is None else round(v * r, 1)
