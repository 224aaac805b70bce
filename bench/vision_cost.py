"""The decoder's cost on the conditions' videos, timed as the pipeline runs it.

``PairedDecoder`` stands in the pipeline for its decoder: every frame is decoded by the
shipped decoder, told what the last frame read, and by zxing-cpp alone, each timed in CPU
time of the thread; ``cost_summary`` gives the median and p95 of both and their ratios
(issue 36's goals: 1.0x at the median, 1.3x at p95), and the shipped p95 on a Pi.
"""

from __future__ import annotations

from typing import Any


class PairedDecoder:
    """The shipped decoder as the pipeline runs it (told what the last frame read), and
    zxing-cpp alone on the same frame, each timed in CPU time of this thread; the two
    take turns going first (neither always finds the frame in the caches)."""

    name = "auto"

    def __init__(self, alone: bool = True) -> None:
        from vision.decoding import default_decoder

        self.shipped = default_decoder("auto")
        self.alone = default_decoder("zxing") if alone else None
        self.times: dict[str, list[float]] = {"shipped": [], "zxing": []}

    def expect(self, texts: frozenset[str]) -> None:
        inner = getattr(self.shipped, "expect", None)
        if inner is not None:
            inner(texts)

    def decode(self, image: Any) -> list[Any]:
        import time

        first = len(self.times["shipped"]) % 2 == 0
        if not first:
            self._alone(image)
        t0 = time.thread_time()
        found = self.shipped.decode(image)
        self.times["shipped"].append(time.thread_time() - t0)
        if first:
            self._alone(image)
        return found

    def _alone(self, image: Any) -> None:
        import time

        if self.alone is not None:
            t0 = time.thread_time()
            self.alone.decode(image)
            self.times["zxing"].append(time.thread_time() - t0)


def cost_summary(times: dict[str, list[float]]) -> dict[str, Any]:
    """Median and p95 CPU ms a frame of the shipped decoder and zxing-cpp alone (same
    frames), their ratios, and the shipped p95 on a Pi (``bench.vision_kit.PI_RATIO``)."""
    from bench.vision_kit import PI_RATIO, stats

    shipped, alone = stats(times["shipped"]), stats(times["zxing"])
    out: dict[str, Any] = {"frames": len(times["shipped"]), "shipped_ms": shipped,
                           "zxing_ms": alone}
    for k in ("median", "p95"):
        a, b = shipped[k], alone[k]
        out[f"{k}_ratio"] = round(a / b, 2) if a is not None and b else None
    p95 = shipped["p95"] or 0.0
    out["pi_p95_ms"] = {pi: round(p95 * r, 1) for pi, r in PI_RATIO.items()}
    return out
