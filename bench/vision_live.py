"""The vision benchmark's runs in a child process of their own (``run_child``), so that
peak memory is the whole process's: the 2304x1296 zones pipeline with the dispute-clip
buffer, the realtime demo feed, the clip buffer alone. ``bench.vision`` runs them."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from bench.vision_kit import TABLE_ZONES, bench_payloads, stats
from vision.decoding import default_decoder
from vision.frames import Frame


def zones_frames(folder: str, count: int = 6, width: int = 2304, height: int = 1296) -> None:
    """Write ``count`` hard frames as gray PNGs (the Y plane) for ``zones_child``."""
    import cv2

    from bench.vision_hardset import hard_frame

    payloads = bench_payloads()
    for i in range(count):
        image = hard_frame("held", 20_000 + i, payloads, width, height).image
        cv2.imwrite(os.path.join(folder, f"{i:02d}.png"), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def zones_child(folder: str, seconds: float = 14.0, fps: float = 30.0) -> dict[str, Any]:
    """The pipeline on a ``fps`` feed of the gray frames in ``folder`` (``zones_frames``),
    decoding its zones as full-resolution crops, with the dispute-clip ring buffer fed
    every frame as ``companion serve`` wires it (14 s: the 12 s buffer is full): does it
    keep up, and how much memory does the whole process take (interpreter, libraries,
    frames, pipeline, clip buffer)?"""
    import cv2

    from companion.config import TrackingConfig, ZonesConfig
    from companion.inputs import TagSeen
    from vision.clips import ClipRecorder
    from vision.pipeline import VisionPipeline

    frames: list[Any] = [cv2.imread(os.path.join(folder, name), cv2.IMREAD_GRAYSCALE)
                         for name in sorted(os.listdir(folder))]
    height, width = frames[0].shape[:2]
    feed = _Feed(frames, fps)
    seen: set[str] = set()

    def on_event(e: Any) -> None:  # a TagSeen, TagLeft or CardLanded
        if isinstance(e, TagSeen):
            seen.add(e.payload)

    recorder = ClipRecorder()
    pipeline = VisionPipeline(feed, default_decoder(), TrackingConfig(),
                              ZonesConfig(polygons=TABLE_ZONES), on_event, decode_zones=True,
                              on_frame=recorder.on_frame)
    pipeline.start()
    time.sleep(seconds)
    status = pipeline.status()
    pipeline.stop()
    return {
        "clip_frames": len(recorder), "clip_buffer_mb": round(recorder.bytes / 2**20, 2),
        "size": f"{width}x{height}", "camera_fps": fps, "delivered": feed.index,
        "decoded": status["frames"], "dropped": status["dropped"],
        "decoded_fps": round(status["frames"] / seconds, 1), "decode_ms": status["decode_ms"],
        "decode_cpu_ms": status["decode_cpu_ms"],
        "tags_seen": len(seen),
        "peak_rss_mb": peak_rss_mb(),
    }


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: since its exec, unlike ``ru_maxrss``,
    which keeps the parent's peak across fork and exec)."""
    try:
        with open("/proc/self/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class _Feed:
    """A camera at ``fps`` cycling through prepared frames (nothing rendered while running)."""

    def __init__(self, frames: list[Any], fps: float) -> None:
        self.frames, self.fps = frames, fps
        self.index = 0
        self._start: float | None = None
        self._closed = False

    def read(self) -> Frame | None:
        if self._closed:
            return None
        if self._start is None:
            self._start = time.monotonic()
        wait = self._start + self.index / self.fps - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        frame = Frame(self.frames[(self.index // 15) % len(self.frames)], time.monotonic(),
                      self.index)
        self.index += 1
        return frame

    def close(self) -> None:
        self._closed = True


def latency_child(seconds: float = 14.0, realtime: bool = True, width: int = 1280,
                  height: int = 720) -> dict[str, Any]:
    """Run the real pipeline on a 30 fps synthetic feed (in this process); latency, memory.

    ``realtime=False`` (the tests): every frame is decoded in turn (lockstep) and times are
    frame times, so the figures do not depend on the machine's speed or load.
    """
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
    table = SyntheticTable(payloads, script, fps=30.0, seed=11, zones=zones, realtime=realtime,
                           width=width, height=height)
    seen: dict[str, tuple[float, float]] = {}
    left: list[str] = []
    decoding: list[float] = [0.0]  # frame time of the frame being decoded (not realtime)

    def on_event(event: Any) -> None:  # a TagSeen, TagLeft or CardLanded
        if isinstance(event, TagSeen):
            now = time.monotonic() if realtime else decoding[0]
            seen.setdefault(event.payload, (now, event.at))
        elif isinstance(event, TagLeft):
            left.append(event.payload)

    def on_frame(frame: Frame) -> None:
        decoding[0] = frame.at

    pipeline = VisionPipeline(table, default_decoder(), TrackingConfig(), ZonesConfig(), on_event,
                              on_frame=on_frame, lockstep=not realtime)
    pipeline.start()
    if realtime:
        time.sleep(seconds)
    else:
        pipeline.wait_ended(timeout=600)
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
        "from_landing_ms": stats(from_landing), "from_first_frame_ms": stats(from_sighting),
        "fps": status["fps"], "dropped": status["dropped"], "frames": status["frames"],
        "peak_rss_mb": peak_rss_mb(),
    }


def clips_child(seconds: float = 14.0, fps: float = 30.0) -> dict[str, Any]:
    """The dispute-clip ring buffer (``vision.clips``) fed a 1280x720 feed at ``fps``, as
    ``companion serve`` wires it: its memory once full, and its cost per camera frame."""
    import cv2

    from vision.clips import ClipRecorder
    from vision.synthetic import SyntheticTable

    cv2.setNumThreads(1)
    feed = SyntheticTable(bench_payloads(), fps=fps, seed=5, realtime=False, loop=True)
    recorder = ClipRecorder()
    costs: list[float] = []
    for i in range(int(seconds * fps)):
        frame = Frame(feed.render(i % 90).image, i / fps, i)  # 3 s of pictures, looped
        t0 = time.perf_counter()
        recorder.on_frame(frame)
        costs.append(time.perf_counter() - t0)
    kept = [c for c in costs if c > 0.0002]
    return {"seconds": recorder.seconds, "frames": len(recorder), "kept_fps": 1 / recorder.period,
            "buffer_mb": round(recorder.bytes / 2**20, 2),
            "budget_mb": round(recorder.max_bytes / 2**20, 1),
            "ms_per_camera_frame": round(statistics.mean(costs) * 1000, 2),
            "ms_per_kept_frame": stats(kept), "peak_rss_mb": peak_rss_mb()}


def run_child(call: str) -> dict[str, Any]:
    code = f"import json; from bench import vision_live; print(json.dumps(vision_live.{call}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the child run {call} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
