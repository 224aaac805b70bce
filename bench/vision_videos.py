"""``companion bench vision``: videos through the real pipeline.

``run_videos``: the hard set's Nasty 7 videos through ``VisionPipeline`` (lockstep:
every frame decoded), per decoder: per-card-event recall, false events, whether
``TagSeen.at`` is the capture time of the first frame that read the card.
``run_table_set``: the table set's splits (``bench.vision_table``) with a Pi estimate.
``bench.vision`` runs them.
"""

from __future__ import annotations

import math
from typing import Any

from bench.vision_kit import PI_RATIO, bench_payloads, stats
from vision.frames import Decoder, Frame


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
