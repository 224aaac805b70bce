"""``companion bench vision``: the decoder and the pipeline on the hard, held-apart set.

Figures, never tests (``tests/vision`` checks only the machinery, on a few frames).
Decoding is pinned to one core (process affinity, OpenCV single-threaded) and timed in
CPU time of the decoding thread (``time.thread_time``), so a machine shared with other
jobs shows what one core spends, not how long it waited for one. On the hard
set (``bench.vision_hardset``: 3-5 px modules, motion blur up to 7 px, fingers, glare, curved
cards, JPEG) the shipped decoder and zxing-cpp alone decode the same frames in the same
run, on both splits (``held`` is the one that counts: the retry was tuned on ``tune``):

- per-frame recall of fully visible codes at 1280x720, false reads (a text that is no
  tag in that frame), median and p95 ms a frame, recall by hazard;
- each retry variant's gain (codes zxing-cpp located but could not read, that the
  variant alone reads) and cost (ms an attempt);
- videos of The Nasty 7's pace through the real ``VisionPipeline`` (lockstep: every
  frame decoded): per-card-event recall (each card exactly one ``TagSeen``), false
  events, and whether ``TagSeen.at`` is the capture time of the first frame that read it;
- ms a frame at each camera resolution, whole frame and zones only (full-res crops);
- a child process: the pipeline on a 30 fps 2304x1296 feed decoding its zones (keeps
  up? frames dropped, peak memory), and the realtime latency run on the demo feed.

- the held-apart conditions of issue 36 (``bench.vision_conditions``: a lamp's glare over
  part of the pile, a knocked camera, cards beside the pile towards a seat, fast plays,
  hands resting up to 4 s, fingers on just-played tags): cards read, tags under glare
  flagged by the check, knocks noticed and followed, growths into a seat's area; what a
  real Nasty 7 table ticked every frame made of them (pile events per card read, cards
  booked twice, questions left unanswered, false hesitation penalties, growths into
  another zone); and the decoder's cost as the pipeline runs it (told what the last frame
  read) against zxing-cpp alone on the same frames, median and p95, per split.

``COMPANION_BENCH_SCALE`` (default 1) scales the frame and video counts (0.1 while
developing). ``COMPANION_BENCH_ONLY=conditions`` runs the conditions alone
(``COMPANION_BENCH_CONDITION_VIDEOS`` videos a condition and split, default
``CONDITION_VIDEOS``, in ``COMPANION_BENCH_JOBS`` worker processes, default one a core;
``COMPANION_BENCH_CONDITION_SPLITS``: the splits, default ``cond-held,cond-tune``;
``COMPANION_BENCH_CONDITION_FIRST``: the index of the first video of each condition and
split, default 0, so a change can be measured on videos nobody has run yet, e.g. 10 for
videos 10-19 when 0-9 have been looked at; the report's header names the videos run).
``COMPANION_BENCH_ONLY=table`` runs the table set alone at full scale
(``main_table``: 12 videos a split in worker processes, one core each). The full run takes about 10 minutes on a loaded 2-core machine.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.vision_kit import PI_RATIO, TABLE_ZONES, bench_payloads, scale, stats
from bench.vision_live import run_child, zones_frames
from vision.decoding import default_decoder
from vision.frames import Decoder, Frame

#: frames per split at 1280x720, videos per split, frames per resolution (at scale 1)
FRAMES, VIDEOS, PER_SIZE = 600, 4, 40
#: videos a condition and split of the conditions of issue 36 (``bench.vision_conditions``)
CONDITION_VIDEOS = 3
#: videos per split of the table set (``bench.vision_table``)
TABLE_VIDEOS = 4
#: videos per split of the table set run alone (``COMPANION_BENCH_ONLY=table``): 12 videos
#: of 21 cards, over 250 card events a split
TABLE_VIDEOS_FULL = 12
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


def run_videos(split: str, videos: int, decoders: dict[str, Decoder], width: int = 1280,
               height: int = 720, cards: int = 21) -> dict[str, Any]:
    """Nasty 7 videos through the real pipeline (lockstep): per-card events by decoder."""
    from bench.vision_hardset import HardTable
    from companion.config import TrackingConfig, ZonesConfig
    from companion.inputs import TagSeen
    from vision.pipeline import VisionPipeline

    payloads = bench_payloads()
    out: dict[str, Any] = {}
    for name, decoder in decoders.items():
        played_n = exact = at_first = false_events = 0
        delays: list[float] = []
        for v in range(videos):
            table = HardTable(split, v, payloads, width=width, height=height, cards=cards,
                              realtime=False, clock=lambda: 0.0)
            first_read: dict[str, float] = {}
            seen: list[TagSeen] = []
            recorder = _Recorder(decoder)

            def on_frame(frame: Frame, rec: _Recorder = recorder,
                         first: dict[str, float] = first_read) -> None:
                for text in rec.last:
                    first.setdefault(text, frame.at)

            def on_event(e: Any, into: list[TagSeen] = seen) -> None:
                if isinstance(e, TagSeen):
                    into.append(e)

            pipeline = VisionPipeline(table, recorder, TrackingConfig(), ZonesConfig(), on_event,
                                      on_frame=on_frame, lockstep=True)
            pipeline.start()
            pipeline.wait_ended(timeout=3600)
            pipeline.stop()
            played = {p.payload: p for p in table.script}
            false_events += sum(1 for e in seen if e.payload not in played)
            for payload, play in played.items():
                played_n += 1
                mine = [e for e in seen if e.payload == payload]
                if len(mine) != 1:
                    continue
                exact += 1
                at_first += mine[0].at == first_read.get(payload)
                landed = math.ceil(play.at * table.fps) / table.fps
                delays.append(mine[0].at - landed)
        out[name] = {
            "cards": played_n, "events_exact": exact,
            "event_recall": round(exact / played_n, 4) if played_n else None,
            "false_events": false_events, "at_first_read": at_first,
            "seen_after_landing_ms": stats(delays),
        }
    return out


class _Recorder:
    """A decoder that remembers the texts of the frame it decoded last."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder, self.name = decoder, decoder.name
        self.last: list[str] = []

    def expect(self, texts: frozenset[str]) -> None:
        inner = getattr(self.decoder, "expect", None)
        if inner is not None:
            inner(texts)

    def decode(self, image: Any) -> list[Any]:
        found = self.decoder.decode(image)
        self.last = [d.text for d in found if not d.damaged]
        return found


def run_table_set(videos: int, cards: int, jobs: int = 1, cores: tuple[int, ...] = (),
                  splits: tuple[str, ...] = ("table-held", "table-tune")) -> dict[str, Any]:
    """The table set's splits (``bench.vision_table``), with a Pi estimate of the p95;
    ``jobs`` worker processes (one core each, ``cores``) decode videos side by side."""
    from bench.vision_table import run_table_videos

    out: dict[str, Any] = {}
    for split in splits:
        r = run_table_videos(split, videos, ("shipped", "zxing"), cards=cards, jobs=jobs,
                             cores=cores)
        p95 = r["shipped"]["p95_ms"] or 0.0
        r["pi_p95_ms"] = {pi: round(p95 * ratio, 1) for pi, ratio in PI_RATIO.items()}
        out[split] = r
    return out


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

    k = scale()
    if os.environ.get("COMPANION_BENCH_ONLY") == "table":
        return main_table(as_json, progress)
    if os.environ.get("COMPANION_BENCH_ONLY") == "conditions":
        return main_conditions(as_json, progress)
    frames, videos, per_size = max(4, int(FRAMES * k)), max(1, int(VIDEOS * k)), \
        max(2, int(PER_SIZE * k))
    report: dict[str, Any] = {"machine": machine(), "load_before": os.getloadavg(),
                              "scale": k, "splits": {}, "videos": {}}
    before = _pin_one_core()
    # a smoke run (COMPANION_BENCH_SCALE < 0.25: the suite's test of the whole bench)
    # runs every part on the held-apart split only, with short videos: the same code on
    # half the frames (the tuning split is the same code with other seeds)
    smoke = k < 0.25
    try:
        for split in ("held", "tune"):
            report["splits"][split] = run_split(split, frames, _decoders(ablation=True))
            progress(f"{split}: {frames} frames at 1280x720")
        report["variants"] = {s: run_variants(s, frames)
                              for s in (("held",) if smoke else ("tune", "held"))}
        progress("retry variants")
        for split in ("held",) if smoke else ("held", "tune"):
            report["videos"][split] = run_videos(split, videos, _decoders(),
                                                 cards=4 if smoke else 21)
            progress(f"{split}: {videos} Nasty 7 videos")
        report["table"] = run_table_set(max(1, int(TABLE_VIDEOS * k)), 2 if smoke else 21,
                                        splits=("table-held",) if smoke else
                                        ("table-held", "table-tune"))
        progress("the table set")
        # a smoke run: one card a video, the held split only, zxing-cpp alone not timed
        # beside the shipped decoder
        report["conditions"] = (_conditions(1, ("cond-held",), cost=False, smoke=True)
                                if smoke else _conditions(12))
        progress("the conditions of issue 36")
        report["resolutions"] = run_resolutions(per_size)
        progress("resolutions")
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    import tempfile

    # the live parts run in real time: 14 s each at full scale, a few seconds in a smoke
    # run (COMPANION_BENCH_SCALE=0.01 in the tests: 42 s of the suite went here)
    live = round(max(3.0, 14.0 * min(k, 1.0)), 1)
    with tempfile.TemporaryDirectory() as folder:
        zones_frames(folder)
        report["zones_live"] = run_child(f"zones_child({folder!r}, seconds={live})")
    progress("2304x1296 zones at 30 fps")
    report["latency"] = run_child(f"latency_child(seconds={live})")
    report["clips"] = run_child(f"clips_child(seconds={live})")
    report["load_after"] = os.getloadavg()
    if as_json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


def main_table(as_json: bool, progress: Callable[[str], None]) -> int:
    """``COMPANION_BENCH_ONLY=table``: the table set alone at full scale,
    ``COMPANION_BENCH_TABLE_VIDEOS`` videos a split (default 12: over 250 card events)
    decoded by ``COMPANION_BENCH_JOBS`` worker processes (default: one a core)."""
    import cv2

    cv2.setNumThreads(1)
    cores = tuple(sorted(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else (0,)
    videos = _env_int("COMPANION_BENCH_TABLE_VIDEOS", TABLE_VIDEOS_FULL)
    jobs = _env_int("COMPANION_BENCH_JOBS", len(cores))
    report: dict[str, Any] = {"machine": machine(), "load_before": os.getloadavg(),
                              "scale": scale(), "videos_a_split": videos, "jobs": jobs}
    t0 = time.monotonic()
    report["table"] = run_table_set(videos, 21, jobs, cores)
    report["seconds"] = round(time.monotonic() - t0)
    report["load_after"] = os.getloadavg()
    progress(f"the table set: {videos} videos a split in {report['seconds']} s")
    if as_json:
        print(json.dumps(report))
    else:
        print(f"vision benchmark, the table set alone, on {report['machine']}: {videos} videos "
              f"a split, {jobs} worker processes (one core each); load average "
              f"{_load(report['load_before'])} before, {_load(report['load_after'])} after")
        print_table(report["table"])
    return 0


def _conditions(cards: int, splits: tuple[str, ...] = ("cond-held", "cond-tune"),
                cost: bool = True, smoke: bool = False, jobs: int = 1,
                cores: tuple[int, ...] = ()) -> dict[str, Any]:
    """The conditions of issue 36: ``COMPANION_BENCH_CONDITION_VIDEOS`` videos a condition
    and split (default ``CONDITION_VIDEOS``) from video ``COMPANION_BENCH_CONDITION_FIRST``
    (default 0); a smoke run one small video of each."""
    from bench.vision_conditions import FULL, SMOKE, run_conditions

    videos = 1 if smoke else _env_int("COMPANION_BENCH_CONDITION_VIDEOS", CONDITION_VIDEOS)
    first = _env_int("COMPANION_BENCH_CONDITION_FIRST", 0, least=0)
    return run_conditions(videos, cards, splits, cost, SMOKE if smoke else FULL, jobs, cores,
                          first)


def main_conditions(as_json: bool, progress: Callable[[str], None]) -> int:
    """``COMPANION_BENCH_ONLY=conditions``: the held-apart conditions of issue 36 alone."""
    import cv2

    from bench.vision_condreport import print_conditions, which_videos

    cv2.setNumThreads(1)
    cores = tuple(sorted(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else (0,)
    jobs = _env_int("COMPANION_BENCH_JOBS", len(cores))
    before = _pin_one_core() if jobs == 1 else None
    report: dict[str, Any] = {"machine": machine(), "load_before": os.getloadavg(),
                              "jobs": jobs}
    t0 = time.monotonic()
    try:
        splits = tuple(os.environ.get("COMPANION_BENCH_CONDITION_SPLITS",
                                      "cond-held,cond-tune").split(","))
        report["conditions"] = _conditions(12, splits, jobs=jobs, cores=cores)
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    report["seconds"] = round(time.monotonic() - t0)
    report["load_after"] = os.getloadavg()
    progress(f"the conditions in {report['seconds']} s")
    if as_json:
        print(json.dumps(report))
    else:
        ran = "; ".join(f"{split} {which_videos(r)}"
                        for split, r in report["conditions"].items())
        print(f"vision benchmark, the conditions of issue 36 ({ran}), on {report['machine']}; "
              f"load average {_load(report['load_before'])} before, "
              f"{_load(report['load_after'])} after; {report['seconds']} s, {jobs} worker "
              "process(es), one core each")
        print_conditions(report["conditions"])
    return 0


def _env_int(name: str, default: int, least: int = 1) -> int:
    """The whole number in the environment's ``name`` (at least ``least``), else
    ``default``."""
    try:
        return max(least, int(os.environ.get(name, default)))
    except ValueError:
        return default


def print_report(report: dict[str, Any]) -> None:
    out = print
    out(f"vision benchmark on {report['machine']} (decoding pinned to one core); "
        f"load average {_load(report['load_before'])} before, {_load(report['load_after'])} after; "
        f"scale {report['scale']}")
    for split, scores in report["splits"].items():
        tag = "HELD-APART" if split == "held" else "tuning"
        out(f"\n{tag} split ({split}), 1280x720 hard frames: decoder  frames  recall "
            "(read/visible)  false  median CPU ms  p95")
        for name, s in scores.items():
            read = f"({s['read']}/{s['visible']})"
            out(f"  {name:9} {s['frames']:5}  {s['recall']:7.2%}  {read:13} {s['false_reads']:5}"
                f"  {s['median_ms']:9.2f}  {s['p95_ms']:6.2f}")
        for name, s in scores.items():
            out(f"  {name} by hazard: " + ", ".join(f"{h} {v}" for h, v in s["by_hazard"].items()))
    for split, v in report["variants"].items():
        out(f"\nretry variants on the {split} split: {v['located_unread']} codes located but not "
            f"read by zxing-cpp; shipped order {' > '.join(v['order'])}")
        for name, g in v["variants"].items():
            out(f"  {name:14} rescued {g['rescued']:3}/{g['attempts']:<3}  false {g['false']}  "
                f"{g['ms_per_attempt']} CPU ms an attempt")
    for split, by in report["videos"].items():
        out(f"\nNasty 7 videos ({split}), every frame through the pipeline:")
        for name, r in by.items():
            d = r["seen_after_landing_ms"]
            out(f"  {name:8} per-card-event recall {r['event_recall']:.2%} "
                f"({r['events_exact']}/{r['cards']} cards with exactly one TagSeen), "
                f"false events {r['false_events']}, at = first read frame {r['at_first_read']}, "
                f"TagSeen.at after landing median {d['median']} ms, p95 {d['p95']} ms")
    print_table(report.get("table", {}))
    if "conditions" in report:
        from bench.vision_condreport import print_conditions

        print_conditions(report["conditions"])
    out("\nCPU ms a frame (shipped decoder, one core, Y plane): whole frame | zones only "
        "(a pile and four seats) | Pi 4 / Pi 5 estimate of the zones median "
        f"(ratios {PI_RATIO})")
    for size, r in report["resolutions"].items():
        w, z = r["whole_ms"], r["zones_ms"]
        pi = " / ".join(str(e["zones"]) for e in r["pi_estimate_ms"].values())
        out(f"  {size:9} {r['camera']:45} median {w['median']} (p95 {w['p95']}) | "
            f"{z['median']} (p95 {z['p95']}, {r['zones_share']:.0%} of the frame) | {pi}")
    z = report["zones_live"]
    out(f"\n{z['size']} zones at {z['camera_fps']} fps through the pipeline: {z['decoded']} of "
        f"{z['delivered']} frames decoded ({z['decoded_fps']} fps), {z['dropped']} dropped, "
        f"decode median {z['decode_ms']} ms wall, {z['decode_cpu_ms']} ms CPU "
        f"(keeps up with {z['camera_fps']:g} fps on one core: "
        f"{'yes' if z['decode_cpu_ms'] * z['camera_fps'] < 1000 else 'no'}), "
        f"peak memory {z['peak_rss_mb']} MB with the dispute-clip buffer full "
        f"({z['clip_frames']} frames, {z['clip_buffer_mb']} MB)")
    live = report["latency"]
    out(f"demo feed 1280x720 at 30 fps: {live['seen']}/{live['cards']} cards seen, "
        f"{live['fps']} fps decoded, {live['dropped']} dropped; capture of landing -> TagSeen "
        f"median {live['from_landing_ms']['median']} ms; peak memory {live['peak_rss_mb']} MB")
    c = report["clips"]
    out(f"dispute clip buffer (1280x720 in, {c['kept_fps']:g} fps kept, {c['seconds']:g} s): "
        f"{c['buffer_mb']} MB held (budget {c['budget_mb']} MB), "
        f"{c['ms_per_camera_frame']} ms per camera frame on average "
        f"({c['ms_per_kept_frame']['median']} ms per kept frame); "
        f"peak memory {c['peak_rss_mb']} MB")


def print_table(table: dict[str, Any]) -> None:
    """The table set's lines of the report (``run_table_set``)."""
    out = print
    for split, r in table.items():
        tag = "HELD-APART" if split == "table-held" else "tuning"
        out(f"\n{tag} table set ({split}): hands resting, cards beside the pile, every frame "
            "through the pipeline and The Nasty 7's engine")
        for name in ("shipped", "zxing"):
            c = r[name]
            out(f"  {name:8} exactly one TagSeen {c['exactly_one']}/{c['eligible']} cards fully "
                f"visible in 2+ frames ({c['exactly_one_share']:.2%}), false events "
                f"{c['false_events']}, refusals of unmoved cards {c['refusals_of_unmoved']}, "
                f"silent drops {c['silent_drops']}, put to the host {c['put_to_host']}, "
                f"false hesitation penalties {c['false_hesitation_penalties']}; "
                f"CPU ms a frame median {c['median_ms']} p95 {c['p95_ms']} ({c['frames']} frames)")
        pi = ", ".join(f"{k} {v} ms" for k, v in r["pi_p95_ms"].items())
        out(f"  shipped / zxing-cpp alone: p95 {r['p95_ratio']}x, median {r['median_ratio']}x; "
            f"shipped p95 estimated on {pi} (frame budget 33 ms at 30 fps)")


def _load(v: Iterable[float]) -> str:
    return "/".join(f"{x:.1f}" for x in v)
