"""``companion bench vision``: recall, false reads, speed, latency and memory of the decoders.

On 1,000 synthetic table frames (600 at 1280x720, 400 at 640x480, 1-8 cards each) every
backend and the shipped pipeline decode every frame (OpenCV, ~50x slower, one in four),
timed on one core (process pinned
to one CPU, OpenCV single-threaded). Recall counts fully visible tags (landed, not
covered, inside the frame); a false read is a text that is no tag in that frame. Then a
child process runs the real ``VisionPipeline`` on a 30 fps synthetic feed and reports
capture->event latency and its peak resident memory. Takes about 3 minutes on 2 cores.
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import statistics
import string
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from vision.decoding import default_decoder
from vision.frames import Decoder, Detection, Image

SETS = ((1280, 720, 600), (640, 480, 400))
LOOK_EVERY = 25  # a new camera/lighting look every this many frames
#: OpenCV's multi-code detector takes ~150 ms a 1280x720 frame: it decodes 1 frame in 4
#: (still 250 frames), so the whole benchmark stays under ~4 minutes
EVERY = {"opencv": 4}


def bench_payloads(n: int = 64, seed: int = 7) -> list[str]:
    """Deck-like payloads: uppercase alphanumeric, 12 characters."""
    rnd = random.Random(seed)
    alphabet = string.ascii_uppercase + string.digits
    return ["".join(rnd.choice(alphabet) for _ in range(12)) for _ in range(n)]


@dataclass
class Score:
    frames: int = 0
    visible: int = 0
    read: int = 0
    false: int = 0
    times: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        ts = sorted(self.times)
        return {
            "frames": self.frames,
            "recall": round(self.read / self.visible, 4) if self.visible else None,
            "read": self.read,
            "visible": self.visible,
            "false_reads": self.false,
            "median_ms": round(statistics.median(ts) * 1000, 2),
            "p95_ms": round(ts[int(0.95 * (len(ts) - 1))] * 1000, 2),
        }


class _NaivePyzbar:
    """``pyzbar.decode`` on the full colour frame, as a first attempt would call it."""

    name = "naive-pyzbar"

    def __init__(self) -> None:
        from pyzbar import pyzbar

        self._pz = pyzbar

    def decode(self, image: Image) -> list[Detection]:
        try:
            found = self._pz.decode(image)
        except ValueError:
            return []
        return [Detection(d.data.decode("latin-1"), (), self.name) for d in found]


def _decoders() -> dict[str, Decoder]:
    out: dict[str, Decoder] = {"shipped": default_decoder("auto")}
    for name in ("zxing", "pyzbar", "opencv"):
        out[name] = default_decoder(name)
    out["naive-pyzbar"] = _NaivePyzbar()
    return out


def run_frames(decoders: dict[str, Decoder], progress: Callable[[str], None]) -> dict[str, Any]:
    """Every decoder over every synthetic frame; scores by resolution and decoder."""
    from vision.synthetic import Renderer, random_scene

    payloads = bench_payloads()
    results: dict[str, Any] = {}
    for width, height, count in SETS:
        scores = {name: Score() for name in decoders}
        renderer = Renderer(width, height, 0)
        for i in range(count):
            if i % LOOK_EVERY == 0:
                renderer = Renderer(width, height, 1000 + i)
            frame = random_scene(renderer, payloads, 1 + i % 8, seed=width * 10_000 + i)
            visible = {t.payload for t in frame.truth if t.fully_visible}
            present = {t.payload for t in frame.truth}
            for name, decoder in decoders.items():
                if i % EVERY.get(name, 1):
                    continue
                t0 = time.perf_counter()
                texts = {d.text for d in decoder.decode(frame.image) if not d.damaged}
                s = scores[name]
                s.times.append(time.perf_counter() - t0)
                s.frames += 1
                s.visible += len(visible)
                s.read += len(visible & texts)
                s.false += len(texts - present)
        results[f"{width}x{height}"] = {name: s.summary() for name, s in scores.items()}
        progress(f"{width}x{height}: {count} frames done")
    return results


def latency_child(seconds: float = 14.0) -> dict[str, Any]:
    """Run the real pipeline on a 30 fps synthetic feed (in this process); latency, memory."""
    from companion.config import TrackingConfig, ZonesConfig
    from companion.inputs import TagLeft, TagSeen
    from vision.pipeline import VisionPipeline
    from vision.synthetic import CardPlay, SyntheticTable

    payloads = bench_payloads()
    zones = ZonesConfig().polygons
    script = []
    for i in range(int((seconds - 1.5) / 0.5)):
        spot = (0.2 + 0.6 * ((i * 7) % 10) / 9, 0.25 + 0.5 * ((i * 3) % 5) / 4)
        script.append(CardPlay(payloads[i], at=1.0 + 0.5 * i, position=spot,
                               removed_at=1.0 + 0.5 * i + 2.4))
    table = SyntheticTable(payloads, script, fps=30.0, seed=11, zones=zones, realtime=True)
    seen: dict[str, tuple[float, float]] = {}
    left: list[str] = []

    def on_event(event: TagSeen | TagLeft) -> None:
        if isinstance(event, TagSeen):
            seen.setdefault(event.payload, (time.monotonic(), event.at))
        else:
            left.append(event.payload)

    pipeline = VisionPipeline(table, default_decoder(), TrackingConfig(), ZonesConfig(), on_event)
    pipeline.start()
    time.sleep(seconds)
    status = pipeline.status()
    pipeline.stop()
    from_landing, from_sighting = [], []
    for play in script:
        if play.payload not in seen:
            continue
        delivered, first_at = seen[play.payload]
        landed = min((at for i, at in table.captured.items() if i >= play.at * table.fps),
                     default=None)
        if landed is not None:
            from_landing.append(delivered - landed)
        from_sighting.append(delivered - first_at)
    return {
        "cards": len(script), "seen": len(seen), "left": len(left),
        "from_landing_ms": _stats(from_landing), "from_first_frame_ms": _stats(from_sighting),
        "fps": status["fps"], "dropped": status["dropped"], "frames": status["frames"],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def _stats(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "p95": None}
    v = sorted(values)
    return {"median": round(statistics.median(v) * 1000, 1),
            "p95": round(v[int(0.95 * (len(v) - 1))] * 1000, 1)}


def _run_child() -> dict[str, Any]:
    code = "import json; from vision.bench import latency_child; print(json.dumps(latency_child()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the latency run failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def machine() -> str:
    """A one-line description of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def _pin_one_core() -> set[int] | None:
    import cv2

    cv2.setNumThreads(1)
    if not hasattr(os, "sched_setaffinity"):
        return None
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    return before


def main(as_json: bool) -> int:
    """Run the benchmark; print a report (or one JSON object). Returns the exit status."""
    def progress(msg: str) -> None:
        if not as_json:
            print(f"  … {msg}", file=sys.stderr, flush=True)

    before = _pin_one_core()
    try:
        frames = run_frames(_decoders(), progress)
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    progress("latency run (14 s at 30 fps)")
    live = _run_child()
    hd = frames["1280x720"]
    report = {
        "machine": machine(),
        "frames": frames,
        "speedup_vs_naive_pyzbar_1280x720": round(
            hd["naive-pyzbar"]["median_ms"] / hd["shipped"]["median_ms"], 1),
        "latency": live,
    }
    if as_json:
        print(json.dumps(report))
    else:
        _print_report(report)
    return 0


def _print_report(report: dict[str, Any]) -> None:
    print(f"vision benchmark on {report['machine']} (decoding pinned to one core)")
    for size, scores in report["frames"].items():
        print(f"\n{size}: decoder  frames  recall   (read/visible)  false  median ms  p95 ms")
        for name, s in scores.items():
            read = f"({s['read']}/{s['visible']})"
            print(f"  {name:13} {s['frames']:5}  {s['recall']:7.2%}  {read:15} "
                  f"{s['false_reads']:5}  {s['median_ms']:9.2f}  {s['p95_ms']:6.2f}")
    print(f"\nshipped pipeline vs naive full-frame colour pyzbar at 1280x720: "
          f"{report['speedup_vs_naive_pyzbar_1280x720']}x faster per frame")
    live = report["latency"]
    print(f"30 fps feed: {live['seen']}/{live['cards']} cards seen, decoded at {live['fps']} fps, "
          f"{live['dropped']} frames dropped")
    for key, label in (("from_landing_ms", "capture of landing frame -> TagSeen delivered"),
                       ("from_first_frame_ms", "capture of first frame seen -> TagSeen delivered")):
        v = live[key]
        print(f"  {label}: median {v['median']} ms, p95 {v['p95']} ms")
    print(f"peak memory (whole process: interpreter, feed, pipeline): {live['peak_rss_mb']} MB")
