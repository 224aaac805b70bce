"""What the vision benchmark's parts share: its scale, its payloads, its table layout, and
how it sums up timings. ``bench.vision`` (the run in this process) and
``bench.vision_live`` (the runs in child processes) both import it."""

from __future__ import annotations

import os
import random
import statistics
import string

#: a whole-table layout: a pile in the middle and four seats at the edges
TABLE_ZONES: dict[str, list[tuple[float, float]]] = {
    "pile": [(0.4, 0.35), (0.6, 0.35), (0.6, 0.65), (0.4, 0.65)],
    "seat1": [(0.05, 0.8), (0.3, 0.8), (0.3, 0.98), (0.05, 0.98)],
    "seat2": [(0.7, 0.8), (0.95, 0.8), (0.95, 0.98), (0.7, 0.98)],
    "seat3": [(0.05, 0.02), (0.3, 0.02), (0.3, 0.2), (0.05, 0.2)],
    "seat4": [(0.7, 0.02), (0.95, 0.02), (0.95, 0.2), (0.7, 0.2)],
}

#: one core of this machine against a Raspberry Pi core, on this workload (zxing-cpp,
#: OpenCV resize/warp: integer and memory bound). Stated, not measured here: from
#: single-thread results of the same class of code (Pi 4 Cortex-A72 1.8 GHz about 4x
#: slower than a current x86 server core, Pi 5 Cortex-A76 2.4 GHz about 1.7x slower).
PI_RATIO = {"Raspberry Pi 4": 4.0, "Raspberry Pi 5": 1.7}


def scale() -> float:
    try:
        return max(0.01, float(os.environ.get("COMPANION_BENCH_SCALE", "1")))
    except ValueError:
        return 1.0


def bench_payloads(n: int = 64, seed: int = 7) -> list[str]:
    """Deck-like payloads: uppercase alphanumeric, 12 characters."""
    rnd = random.Random(seed)
    alphabet = string.ascii_uppercase + string.digits
    return ["".join(rnd.choice(alphabet) for _ in range(12)) for _ in range(n)]



def stats(values: list[float]) -> dict[str, float | None]:
    """Median and p95 of ``values`` (seconds) in milliseconds, one decimal."""
    if not values:
        return {"median": None, "p95": None}
    v = sorted(values)
    return {"median": round(statistics.median(v) * 1000, 1),
            "p95": round(v[int(0.95 * (len(v) - 1))] * 1000, 1)}
