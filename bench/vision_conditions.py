"""Held-apart conditions of issue 36, each its own video through the real pipeline.

Rendered with seeds of their own (``SPLITS``: ``cond-tune`` may be looked at while changing
the check or the table; ``cond-held`` is only ever measured), on the synthetic table
(``vision.synthetic``) at 1280x720 and 30 fps, cards of the demo deck with 3.5-5 px
modules played onto a drawn pile ``GAP_S`` (0.35-0.8 s) apart:

- ``fast``: only that pace;
- ``glare``: a lamp's reflection (``Patch("glare")``, radius 0.045-0.07 of the width)
  over one part of the pile; some cards land under it;
- ``bump``: the camera knocked 50-110 px and 1.5-3 degrees after the zones were drawn
  (a table whose edge and grain the camera sees);
- ``beside`` / ``beside-no-seats``: one card in three lands beside the pile, towards a
  seat's area to its right, with and without that seat's zone drawn.

Every frame goes through ``VisionPipeline._process`` (lockstep, no threads), the check
(``vision.check``) included. Per condition: cards with exactly one ``TagSeen``; tags
under the glare's washed-out core, how many were read and how many the check flagged
(the part of the pile they lie in was ``lost`` or ``barely`` when they landed); whether
the knock was noticed and followed (the drawn pile's corners, moved as the pipeline
moves its zones, within ``FOLLOWED_PX`` of where the table took them); growths of the pile into the seat's area (goal 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.synthetic import Bump, CardPlay, Patch, SyntheticTable

SPLITS = {"cond-tune": 400_021, "cond-held": 400_022}
CONDITIONS = ("fast", "glare", "bump", "beside", "beside-no-seats")
PILE = [(0.3, 0.25), (0.6, 0.25), (0.6, 0.75), (0.3, 0.75)]
SEAT = [(0.72, 0.3), (0.95, 0.3), (0.95, 0.7), (0.72, 0.7)]  # a player's area, right
TABLE = (0.04, 0.06, 0.96, 0.94)
GAP_S = (0.35, 0.8)
MODULE_PX = (3.5, 5.0)
FOLLOWED_PX = 5.0
W, H, FPS = 1280, 720, 30.0


def condition_video(split: str, condition: str, video: int, payloads: Sequence[str],
                    cards: int = 12) -> tuple[SyntheticTable, dict[str, Any]]:
    """One video of ``condition``: the feed, and what was put in it (spot, bump)."""
    rng = np.random.default_rng([SPLITS[split], CONDITIONS.index(condition), video])
    order = rng.choice(len(payloads), size=min(cards, len(payloads)), replace=False)
    what: dict[str, Any] = {"beside": set()}
    patches: list[Patch] = []
    bumps: list[Bump] = []
    if condition == "glare":
        corner = (float(rng.choice([0.36, 0.54])), float(rng.choice([0.35, 0.65])))
        spot = Patch("glare", 0.0, 1e9, corner, float(rng.uniform(0.045, 0.07)))
        patches.append(spot)
        what["spot"] = spot
    plays: list[CardPlay] = []
    t = 1.0
    for n, k in enumerate(order):
        beside = condition.startswith("beside") and n % 3 == 2
        if beside:  # towards the seat's area: just right of the pile, or in the seat's area
            x = float(rng.uniform(0.64, 0.70) if rng.random() < 0.5 else rng.uniform(0.76, 0.9))
            y = float(rng.uniform(0.35, 0.65))
            what["beside"].add(payloads[int(k)])
        elif condition == "glare" and n % 3 == 1:  # under the spot
            x, y = (c + float(rng.uniform(-0.02, 0.02)) for c in what["spot"].center)
        else:
            x, y = float(rng.uniform(0.36, 0.54)), float(rng.uniform(0.33, 0.67))
        module = float(rng.uniform(*MODULE_PX))
        plays.append(CardPlay(payloads[int(k)], at=t, position=(x, y),
                              angle=float(rng.uniform(0, 360)), tag_px=module * 21,
                              slide_s=float(rng.uniform(0.15, 0.3))))
        t += float(rng.uniform(*GAP_S))
    if condition == "bump":
        at = plays[len(plays) // 3].at + 0.2
        size = float(rng.uniform(50, 110))
        turn = float(rng.uniform(1.5, 3.0)) * (1 if rng.random() < 0.5 else -1)
        a = float(rng.uniform(0, 2 * math.pi))
        bumps.append(Bump(at, (size * math.cos(a), size * math.sin(a)), turn))
        what["bump"] = bumps[0]
    zones = {"pile": PILE} if condition != "beside" else {"pile": PILE, "seat:1": SEAT}
    what["zones"] = zones
    feed = SyntheticTable(payloads, plays, width=W, height=H, fps=FPS,
                          seed=SPLITS[split] * 10 + CONDITIONS.index(condition) * 100 + video,
                          zones=zones, realtime=False, clock=lambda: 0.0, patches=patches,
                          bumps=bumps, table=TABLE if condition == "bump" else None)
    return feed, what


def run_condition(split: str, condition: str, videos: int = 1, cards: int = 12
                  ) -> dict[str, Any]:
    """``videos`` videos of ``condition`` through the real pipeline; the figures summed."""
    out = {"videos": videos, "cards": 0, "read": 0, "under_glare": 0, "under_glare_read": 0,
           "under_glare_flagged": 0, "glare_level": [], "bumps": 0, "noticed": 0,
           "followed": 0, "follow_error_px": [], "growths": 0, "growths_into_seat": 0}
    for v in range(videos):
        _one(split, condition, v, cards, out)
    return out


def _one(split: str, condition: str, video: int, cards: int, out: dict[str, Any]) -> None:
    from companion.config import TrackingConfig, ZonesConfig
    from companion.decks import resolve_tag
    from companion.demo import demo_payloads
    from companion.inputs import TagSeen
    from vision.check import GRID, PART_WORDS
    from vision.decoding import default_decoder
    from vision.frames import Frame
    from vision.pipeline import VisionPipeline
    from vision.zonegrow import polygons_overlap

    payloads = sorted(p for kind in demo_payloads("nasty7").values() for p in kind)
    feed, what = condition_video(split, condition, video, payloads, cards)
    events: list[Any] = []
    saved: list[dict[str, Any]] = []
    parts_at: dict[int, dict[str, dict[str, str]]] = {}
    pipeline = VisionPipeline(feed, default_decoder("auto"), TrackingConfig(),
                              ZonesConfig(polygons=what["zones"]), events.append,
                              resolve=resolve_tag, lockstep=True, on_zones=saved.append)

    def on_frame(frame: Frame) -> None:
        parts_at[frame.index] = {k: dict(p) for k, p in pipeline.check.parts.items()}

    pipeline.on_frame = on_frame
    while (frame := feed.read()) is not None:
        pipeline._process(frame)
    feed.close()
    seen = [e for e in events if isinstance(e, TagSeen)]
    for play in feed.script:
        out["cards"] += 1
        out["read"] += sum(1 for e in seen if e.payload == play.payload) == 1
    spot = what.get("spot")
    if spot is not None:
        levels = [v.get("pile", {}) for v in parts_at.values()]
        out["glare_level"].append("red" if any("lost" in p.values() for p in levels[-30:])
                                  else "amber" if any(levels[-30:]) else "green")
        for play in feed.script:
            x, y = play.position or (0.0, 0.0)
            if math.hypot((x - spot.center[0]) * W, (y - spot.center[1]) * H) > \
                    0.8 * spot.radius * W:
                continue
            out["under_glare"] += 1
            out["under_glare_read"] += any(e.payload == play.payload for e in seen)
            xs, ys = [p[0] for p in PILE], [p[1] for p in PILE]
            col = min(GRID - 1, int((x - min(xs)) / (max(xs) - min(xs)) * GRID))
            row = min(GRID - 1, int((y - min(ys)) / (max(ys) - min(ys)) * GRID))
            landed = int(math.ceil(play.at * FPS))
            part = PART_WORDS[row][col]
            out["under_glare_flagged"] += part in parts_at.get(landed, {}).get("pile", {})
    bump = what.get("bump")
    if bump is not None:
        out["bumps"] += 1
        last = pipeline.watch.last
        state = last.state if last is not None else "steady"
        out["noticed"] += state != "steady"
        m = bump.matrix(W, H)
        truth = [_warp(m, (x * W, y * H)) for x, y in PILE]
        moved = pipeline._moved  # the table's motion the zones follow (the drawing's frame)
        now = [_warp(moved, (x * W, y * H)) for x, y in PILE]
        err = max(math.dist(a, b) for a, b in zip(truth, now, strict=True))
        out["follow_error_px"].append(round(err, 1))
        out["followed"] += state == "followed" and err <= FOLLOWED_PX
    if condition.startswith("beside"):
        out["growths"] += len(saved)
        out["growths_into_seat"] += sum(polygons_overlap(z["pile"], SEAT) for z in saved)


def _warp(m: Any, p: tuple[float, float]) -> tuple[float, float]:
    v = m @ np.array([p[0], p[1], 1.0])
    return (float(v[0] / v[2]), float(v[1] / v[2]))


def run_conditions(videos: int = 1, cards: int = 12,
                   splits: Sequence[str] = ("cond-held", "cond-tune")) -> dict[str, Any]:
    """Every condition on ``splits`` (both by default, held-apart first)."""
    return {split: {c: run_condition(split, c, videos, cards) for c in CONDITIONS}
            for split in splits}


def print_conditions(report: dict[str, Any]) -> None:
    """The conditions' lines of the report (``run_conditions``)."""
    for split, by in report.items():
        tag = "HELD-APART" if split == "cond-held" else "tuning"
        print(f"\n{tag} conditions ({split}), every frame through the pipeline and the check:")
        for name, r in by.items():
            line = f"  {name:16} cards read {r['read']}/{r['cards']}"
            if name == "glare":
                line += (f"; tags under the glare {r['under_glare']}, read "
                         f"{r['under_glare_read']}, flagged by the check "
                         f"{r['under_glare_flagged']}; glare verdict {r['glare_level']}")
            if name == "bump":
                line += (f"; knocks {r['bumps']}, noticed {r['noticed']}, followed "
                         f"{r['followed']} (pile corners off by {r['follow_error_px']} px)")
            if name.startswith("beside"):
                line += (f"; growths {r['growths']}, into the seat's area "
                         f"{r['growths_into_seat']} (goal 0)")
            print(line)
