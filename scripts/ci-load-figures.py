#!/usr/bin/env python3
"""How much CI's load slows a wall-clock wait: the figures in docs/dev/testing.md.

    .venv/bin/python scripts/ci-load-figures.py     (on a quiet machine)

Runs ``tests/core/test_ci_load.naive_wait`` (0.3 s of CPU work) pinned to one core,
beside no load and beside busy loops on that core at several priorities, five times
each, and prints wall seconds per CPU second (min, median, max) as a Markdown table.
The wait in that test allows 1.5x: a load "catches" it when even the minimum is above.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.core.test_ci_load import SLACK, naive_wait, pinned_to_one_core  # noqa: E402

LOADS = [("none", 0, 0), ("one loop, nice 0 (.ci/run)", 1, 0), ("one loop, nice 5", 1, 5),
         ("one loop, nice 10", 1, 10), ("one loop, nice 19", 1, 19),
         ("two loops, nice 0 (.ci/run before)", 2, 0)]


def main() -> None:
    print("| load on that core | min | median | max | the 1.5x wait |\n|---|---|---|---|---|")
    with pinned_to_one_core() as core:
        for label, n, nice in LOADS:
            cmd = ["nice", "-n", str(nice), "taskset", "-c", str(core),
                   "bash", "-c", "while :; do :; done"]
            loops = [subprocess.Popen(cmd) for _ in range(n)]
            try:
                time.sleep(0.5)  # the loops running (figures, not a test)
                ratios = [naive_wait() for _ in range(5)]
            finally:
                for p in loops:
                    p.kill()
                    p.wait()
            verdict = "fails" if min(ratios) > SLACK else "passes"
            print(f"| {label} | {min(ratios):.2f} | {statistics.median(ratios):.2f} | "
                  f"{max(ratios):.2f} | {verdict} |")


if __name__ == "__main__":
    main()
