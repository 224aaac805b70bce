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

This module runs them (``main``, ``main_table``, ``main_conditions``); the decoders on
frames are ``bench.vision_decode``'s, the videos through the pipeline
``bench.vision_videos``'s, the printed report ``bench.vision_report``'s.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.vision_decode import _decoders, run_resolutions, run_split, run_variants
from bench.vision_kit import scale
from bench.vision_live import run_child, zones_frames
from bench.vision_report import _load, print_report, print_table
from bench.vision_videos import run_table_set, run_videos

#: frames per split at 1280x720, videos per split, frames per resolution (at scale 1)
FRAMES, VIDEOS, PER_SIZE = 600, 4, 40
#: videos a condition and split of the conditions of issue 36 (``bench.vision_conditions``)
CONDITION_VIDEOS = 3
#: videos per split of the table set (``bench.vision_table``)
TABLE_VIDEOS = 4
#: videos per split of the table set run alone (``COMPANION_BENCH_ONLY=table``): 12 videos
#: of 21 cards, over 250 card events a split
TABLE_VIDEOS_FULL = 12


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
