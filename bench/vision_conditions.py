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
  seat's area to its right, with and without that seat's zone drawn;
- ``hands``: after one card in four a hand rests over it for 2-4 s (``REST_S``) while the
  next cards land on the other half of the pile;
- ``fingers``: a fingertip stays on each card's tag from halfway through its slide until
  0.2-0.6 s after it landed (``FINGER_S``).

Every frame goes through ``VisionPipeline._process`` (lockstep, no threads), the check
(``vision.check``) included. Per condition: cards with exactly one ``TagSeen``; tags
under the glare's washed-out core, how many were read and how many the check flagged
(the part of the pile they lie in was ``lost`` or ``barely`` when they landed); whether
the knock was noticed and followed (the drawn pile's corners, moved as the pipeline
moves its zones, within ``FOLLOWED_PX`` of where the table took them); growths of the pile into the seat's area (goal 0).

And the table (``bench.vision_tablecount``): a real ``companion.table.Table`` running The
Nasty 7 (``TableRun``) on an injected clock that reads each frame's time, fed the
pipeline's events of each frame and ticked after every frame, as its loop does; a host
answers every question ``HOST_ANSWER_S`` after it was asked. Counted from its committed
events: of the cards the camera read (``count_table``), those with exactly the pile
events they should have (one; none for a card that landed in a seat's drawn zone),
booked twice, questions left unanswered, hesitation penalties and the false ones; and of
the cards a camera *could* have read, says the renderer's truth (``count_readable``,
``bench.vision_readable``: the tag fully visible in ``READABLE_FRAMES`` frames after it
landed), those with exactly one pile event (the issue's goal), booked twice, missed (no
pile event, never put to the host) and asked; each missed card with why (frames fully
visible, frames read, ``TagSeen`` events). The decoder's cost: ``bench.vision_cost``; the
report in words: ``bench.vision_condreport``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.vision_cost import PairedDecoder, cost_summary
from bench.vision_readable import READABLE_FRAMES, Sightings
from bench.vision_tablecount import (
    HOST_ANSWER_S,
    PILE_EVENTS,
    ReadableCount,
    TableCount,
    TableRun,
    count_readable,
    count_table,
)
from vision.landmemory import HOLD_S
from vision.synthetic import Bump, CardPlay, Patch, SyntheticTable

__all__ = ["CONDITIONS", "FULL", "HOST_ANSWER_S", "PILE_EVENTS", "READABLE_FRAMES", "SMOKE",
           "SPLITS", "PairedDecoder", "ReadableCount", "TableCount", "TableRun", "condition_video",
           "cost_summary", "count_readable", "count_table", "empty", "merge", "one_video",
           "played_at", "run_condition", "run_conditions"]

SPLITS = {"cond-tune": 400_021, "cond-held": 400_022}
CONDITIONS = ("fast", "glare", "bump", "beside", "beside-no-seats", "hands", "fingers")
PILE = [(0.3, 0.25), (0.6, 0.25), (0.6, 0.75), (0.3, 0.75)]
SEAT = [(0.72, 0.3), (0.95, 0.3), (0.95, 0.7), (0.72, 0.7)]  # a player's area, right
TABLE = (0.04, 0.06, 0.96, 0.94)
GAP_S = (0.35, 0.8)
MODULE_PX = (3.5, 5.0)
FOLLOWED_PX = 5.0
W, H, FPS = 1280, 720, 30.0
#: how long a hand rests over a card just played (``hands``), and how long after landing a
#: fingertip leaves a card's tag (``fingers``)
REST_S, FINGER_S = (2.0, 4.0), (0.2, 0.6)
#: a card that landed unread is the script's card landed this long before or after the
#: time the camera gave (the median time its picture settled)
LANDED_EARLY_S, LANDED_LATE_S = 0.3, 0.6
#: how long the table is filmed after the last card lands: a real table's camera keeps
#: looking, and the landing watch waits up to ``HOLD_S`` (2.2 s) for the tag of a card
#: something lies on before it asks the host, so the last card of a video that ended 2 s
#: after it (the renderer's default) could not be asked about at all (cond-tune glare 68
#: #29: landed 7.47 s, the video ended at 9.43 s, held till 9.67 s)
TAIL_S = HOLD_S + 1.3


@dataclass(frozen=True)
class Size:
    """A video's frame size and rate: ``FULL`` for the figures, ``SMOKE`` for the suite's
    run of the whole bench (every part runs, on a quarter of the pixels at half the rate;
    the tags keep their size in pixels, so the decoder still reads them)."""

    width: int = W
    height: int = H
    fps: float = FPS


FULL = Size()
SMOKE = Size(640, 360, 15.0)


def condition_video(split: str, condition: str, video: int, payloads: Sequence[str],
                    cards: int = 12, size: Size = FULL) -> tuple[SyntheticTable, dict[str, Any]]:
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
    rest_until = -1.0  # a hand rests on the pile's left half until then (``hands``)
    for n, k in enumerate(order):
        beside = condition.startswith("beside") and n % 3 == 2
        if condition == "hands":  # the left half under a resting hand, else either half
            # a new hand rests only once the last has lifted: before, a card due for a hand
            # while one still rested went to the right half, its hand with it, and the next
            # cards landed on the right half too, under that hand (as no card can: cond-tune
            # hands video 2, a false penalty)
            rests = n % 4 == 1 and t >= rest_until
            right = t < rest_until or (not rests and rng.random() < 0.5)
            x = float(rng.uniform(0.49, 0.555) if right else rng.uniform(0.34, 0.39))
            y = float(rng.uniform(0.3, 0.7))
            if rests:  # a hand rests over this card while the next ones land beside it
                rest_until = t + 0.3 + float(rng.uniform(*REST_S))
                patches.append(Patch("hand", t + 0.3, rest_until, (x, y), 0.045))
        elif beside:  # towards the seat's area: just right of the pile, or in the seat's area
            x = float(rng.uniform(0.64, 0.70) if rng.random() < 0.5 else rng.uniform(0.76, 0.9))
            y = float(rng.uniform(0.35, 0.65))
            what["beside"].add(payloads[int(k)])
        elif condition == "glare" and n % 3 == 1:  # under the spot
            x, y = (c + float(rng.uniform(-0.02, 0.02)) for c in what["spot"].center)
        else:
            x, y = float(rng.uniform(0.36, 0.54)), float(rng.uniform(0.33, 0.67))
        module = float(rng.uniform(*MODULE_PX))
        slide = float(rng.uniform(0.15, 0.3))
        plays.append(CardPlay(payloads[int(k)], at=t, position=(x, y),
                              angle=float(rng.uniform(0, 360)), tag_px=module * 21,
                              slide_s=slide))
        if condition == "fingers":  # a fingertip over the tag, lifted just after landing
            patches.append(Patch("hand", t - slide / 2, t + float(rng.uniform(*FINGER_S)),
                                 (x, y), 0.022))
        t += float(rng.uniform(*GAP_S))
    if condition == "bump":
        at = plays[len(plays) // 3].at + 0.2
        knock = float(rng.uniform(50, 110)) * size.width / W  # px of a 1280-wide frame
        turn = float(rng.uniform(1.5, 3.0)) * (1 if rng.random() < 0.5 else -1)
        a = float(rng.uniform(0, 2 * math.pi))
        bumps.append(Bump(at, (knock * math.cos(a), knock * math.sin(a)), turn))
        what["bump"] = bumps[0]
    zones = {"pile": PILE} if condition != "beside" else {"pile": PILE, "seat:1": SEAT}
    what["zones"] = zones
    feed = SyntheticTable(payloads, plays, width=size.width, height=size.height, fps=size.fps,
                          seed=SPLITS[split] * 10 + CONDITIONS.index(condition) * 100 + video,
                          zones=zones, realtime=False, clock=lambda: 0.0, patches=patches,
                          bumps=bumps, table=TABLE if condition == "bump" else None,
                          tail_s=TAIL_S)
    return feed, what


def empty(videos: int = 0) -> dict[str, Any]:
    """A condition's figures before any video (``run_condition``'s keys)."""
    return {"videos": videos, "cards": 0, "read": 0, "under_glare": 0, "under_glare_read": 0,
            "under_glare_flagged": 0, "glare_level": [], "bumps": 0, "noticed": 0,
            "followed": 0, "reported_moved": 0, "follow_error_px": [], "growths": 0,
            "growths_into_seat": 0, "table": TableCount().__dict__.copy(),
            "readable": ReadableCount().__dict__.copy(), "missed_cards": [],
            "glimpsed": ReadableCount().__dict__.copy(),
            "cost": {"shipped": [], "zxing": []}}


def merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    """``part``'s figures (one or more videos) added to ``into``'s."""
    for k, v in part.items():
        if isinstance(v, dict):
            merge(into[k], v)
        elif isinstance(v, list):
            into[k] += v
        else:
            into[k] += v


def run_condition(split: str, condition: str, videos: int = 1, cards: int = 12,
                  cost: bool = True, size: Size = FULL, first: int = 0) -> dict[str, Any]:
    """``videos`` videos of ``condition`` from video ``first`` through the real pipeline
    and a real Nasty 7 table; the figures summed. ``cost``: zxing-cpp alone decodes every
    frame too."""
    out = empty()
    for v in range(first, first + videos):
        merge(out, one_video(split, condition, v, cards, cost, size))
    return out


def one_video(split: str, condition: str, video: int, cards: int = 12, cost: bool = True,
              size: Size = FULL) -> dict[str, Any]:
    """One video's figures (``empty``'s keys, ``videos`` 1)."""
    out = empty(1)
    _one(split, condition, video, cards, out, cost, size)
    return out


def _one(split: str, condition: str, video: int, cards: int, out: dict[str, Any],
         cost: bool = True, size: Size = FULL) -> None:
    import cv2

    from companion.config import TrackingConfig, ZonesConfig
    from companion.decks import resolve_tag
    from companion.demo import demo_payloads
    from companion.inputs import TagSeen
    from vision.check import GRID, PART_WORDS
    from vision.frames import Frame
    from vision.pipeline import VisionPipeline
    from vision.zonegrow import polygons_overlap

    payloads = sorted(p for kind in demo_payloads("nasty7").values() for p in kind)
    feed, what = condition_video(split, condition, video, payloads, cards, size)
    w, h = size.width, size.height
    events: list[Any] = []
    saved: list[dict[str, Any]] = []
    parts_at: dict[int, dict[str, dict[str, str]]] = {}
    table = TableRun()
    serial = {p.payload: resolve_tag(p.payload).serial for p in feed.script}
    named: set[str] = set()
    read_later = [0]  # landings of cards the camera read after all (the host: none)
    by_hand: list[str] = []  # the cards the host named

    def saw_land(at: float) -> str | None:
        """What the host saw land at ``at`` (game time): the card of the script that
        landed then (not one already named). The camera read it after all (booked): the
        host says no other card landed (``read_later``); no card landed then at all: an
        invented landing."""
        read = {e.payload for e in events if isinstance(e, TagSeen)}
        near = [p for p in sorted(feed.script, key=lambda p: abs(p.at - at))
                if -LANDED_EARLY_S <= at - p.at <= LANDED_LATE_S and p.payload not in named]
        for p in near:
            named.add(p.payload)
            if p.payload in read:
                read_later[0] += 1
                return None
            card = resolve_tag(p.payload).card
            by_hand.append(p.payload)
            return str(card) if card is not None else None
        return None

    table.truth = saw_land
    decoder = PairedDecoder(alone=cost)
    pipeline = VisionPipeline(feed, decoder, TrackingConfig(),
                              ZonesConfig(polygons=what["zones"]), events.append,
                              resolve=resolve_tag, lockstep=True, on_zones=saved.append,
                              clock=table.clock)
    table.connect(pipeline)

    def on_frame(frame: Frame) -> None:
        parts_at[frame.index] = {k: dict(p) for k, p in pipeline.check.parts.items()}

    pipeline.on_frame = on_frame
    sightings = Sightings()  # the truth of each tag beside what the decoder read
    while (frame := feed.read()) is not None:
        # the Y plane, as the Pi camera delivers it (``PiCamera2Source``): the decoders, the
        # check and the table watch all work on gray, and no decoder pays for a conversion
        frame = Frame(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), frame.at, frame.index)
        table.now = frame.at
        done = len(events)
        pipeline._process(frame)
        latest = pipeline._latest[1] if pipeline._latest is not None else ()
        sightings.frame(frame.index, feed.last_truth,
                        {d.text for d in latest if d.text and not d.damaged})
        table.frame(events[done:])
    feed.close()
    table.finish(1.0 / size.fps)
    out["cost"]["shipped"] += decoder.times["shipped"]
    out["cost"]["zxing"] += decoder.times["zxing"]
    seen = [e for e in events if isinstance(e, TagSeen)]
    for play in feed.script:
        out["cards"] += 1
        out["read"] += sum(1 for e in seen if e.payload == play.payload) == 1
    read = {e.payload for e in seen if e.status == "ok"}
    expected = {serial[p.payload]: 0 if _in_other_zone(tag_centre(feed, p), what["zones"])
                else 1 for p in feed.script if p.payload in read}
    counted = count_table(table.events(), expected, played_at(feed, what["zones"]),
                          table.hesitation_s, 1.0 / size.fps)
    counted.refused = table.refused
    counted.invented = table.invented - read_later[0]
    # a card the host named by hand that the camera then read and booked too: twice
    booked = {getattr(e, "serial", None) for e in table.events()
              if type(e).__name__ in PILE_EVENTS}
    counted.booked_twice += sum(1 for p in by_hand if serial[p] in booked)
    counted.read_later = read_later[0]
    # the camera answered a landing with a card that landed later (a new card over it)
    landed_at = {serial[p.payload]: p.at for p in feed.script}
    counted.wrong_answers = sum(
        1 for e in table.events() if type(e).__name__ == "MissedCardAdded"
        and getattr(e, "read", False)
        and landed_at.get(getattr(e, "serial", None), 0.0) > e.landed + LANDED_EARLY_S)
    grown = [z["pile"] for z in saved if "pile" in z]
    others = [SEAT, *(z for n, z in what["zones"].items() if n != "pile")]
    counted.growths_into_other = sum(any(polygons_overlap(g, o) for o in others)
                                     for g in grown)
    for k, v in counted.__dict__.items():
        out["table"][k] += v
    _readable(feed, what["zones"], sightings, seen, table, serial, by_hand, named, out)
    spot = what.get("spot")
    if spot is not None:
        levels = [v.get("pile", {}) for v in parts_at.values()]
        out["glare_level"].append("red" if any("lost" in p.values() for p in levels[-30:])
                                  else "amber" if any(levels[-30:]) else "green")
        for play in feed.script:
            x, y = play.position or (0.0, 0.0)
            if math.hypot((x - spot.center[0]) * w, (y - spot.center[1]) * h) > \
                    0.8 * spot.radius * w:
                continue
            out["under_glare"] += 1
            out["under_glare_read"] += any(e.payload == play.payload for e in seen)
            xs, ys = [p[0] for p in PILE], [p[1] for p in PILE]
            col = min(GRID - 1, int((x - min(xs)) / (max(xs) - min(xs)) * GRID))
            row = min(GRID - 1, int((y - min(ys)) / (max(ys) - min(ys)) * GRID))
            landed = int(math.ceil(play.at * size.fps))
            part = PART_WORDS[row][col]
            out["under_glare_flagged"] += part in parts_at.get(landed, {}).get("pile", {})
    bump = what.get("bump")
    if bump is not None:
        out["bumps"] += 1
        last = pipeline.watch.last
        state = last.state if last is not None else "steady"
        out["noticed"] += state != "steady"
        out["reported_moved"] += state == "moved"  # the host told to draw the zones again
        m = bump.matrix(w, h)
        truth = [_warp(m, (x * w, y * h)) for x, y in PILE]
        moved = pipeline._moved  # the table's motion the zones follow (the drawing's frame)
        now = [_warp(moved, (x * w, y * h)) for x, y in PILE]
        err = max(math.dist(a, b) for a, b in zip(truth, now, strict=True))
        out["follow_error_px"].append(round(err, 1))
        out["followed"] += state == "followed" and err <= FOLLOWED_PX * w / W
    if condition.startswith("beside"):
        out["growths"] += len(saved)
        out["growths_into_seat"] += sum(polygons_overlap(z["pile"], SEAT) for z in saved)


def _readable(feed: SyntheticTable, zones: dict[str, list[tuple[float, float]]],
              sightings: Sightings, seen: Sequence[Any], table: TableRun,
              serial: dict[str, int | None], by_hand: Sequence[str], named: set[str],
              out: dict[str, Any]) -> None:
    """What the table made of every card a camera could have read (``count_readable``),
    and, for each it missed, why (``Sightings.why``, with the ``TagSeen`` events of it);
    apart, the cards fully visible in fewer frames than that, but in one at least
    (``glimpsed``: not readable, counted the same way)."""
    hand = [s for p in by_hand if (s := serial[p]) is not None]
    asked = {s for p in named if (s := serial[p]) is not None}
    events = table.events()
    readable = sightings.readable()
    for key, cards in (("readable", readable), ("glimpsed", sightings.readable(1) - readable)):
        plays = [p for p in feed.script if p.payload in cards]
        expected = {s: 0 if _in_other_zone(tag_centre(feed, p), zones) else 1
                    for p in plays if (s := serial[p.payload]) is not None}
        got = count_readable(events, expected, hand, asked)
        for k, v in got.__dict__.items():
            out[key][k] += v
        for p in plays:
            if key == "readable" and serial[p.payload] in got.missed_serials:
                why = sightings.why(p.payload)
                why.update(serial=serial[p.payload], landed_s=round(p.at, 2),
                           seen_events=sum(1 for e in seen if e.payload == p.payload))
                out["missed_cards"].append(why)


def tag_centre(feed: SyntheticTable, play: CardPlay) -> tuple[float, float] | None:
    """Where ``play``'s tag lies once the card landed (normalised): the zone a card is in
    is the one that holds its tag's centre, not the card's (a card just beside a seat's
    zone may have its tag inside it)."""
    from vision.synthcard import _apply, tag_corners_canvas

    for placed in feed.placed(play.at + 0.01):
        if placed.payload == play.payload:
            xs, ys = zip(*_apply(placed.homography, tag_corners_canvas()), strict=True)
            w, h = feed.renderer.width, feed.renderer.height
            return (sum(xs) / len(xs) / w, sum(ys) / len(ys) / h)
    return play.position


def played_at(feed: SyntheticTable, zones: dict[str, list[tuple[float, float]]]
              ) -> list[float]:
    """When each card of ``feed``'s script that is a play landed: every card but one put
    down in another drawn zone (a seat's: the table books nothing there, so it is no play
    and stops no 3-second clock; a penalty after it is right, not false: cond-tune beside
    video 2, its last card laid in the seat's zone 0.6 s after the last play, and the
    penalty 3 s after that play)."""
    return [p.at for p in feed.script if not _in_other_zone(tag_centre(feed, p), zones)]


def _in_other_zone(position: tuple[float, float] | None,
                   zones: dict[str, list[tuple[float, float]]]) -> bool:
    """Whether a card landed at ``position`` (normalised) in a drawn zone other than the
    pile: the table books no card there."""
    if position is None:
        return False
    p = (float(position[0]), float(position[1]))
    return any(_inside(z, p) for n, z in zones.items() if n != "pile")


def _inside(polygon: Sequence[tuple[float, float]], p: tuple[float, float]) -> bool:
    """``p`` inside ``polygon`` (or on its edge)."""
    import cv2

    contour = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(contour, p, False) >= 0)


def _warp(m: Any, p: tuple[float, float]) -> tuple[float, float]:
    v = m @ np.array([p[0], p[1], 1.0])
    return (float(v[0] / v[2]), float(v[1] / v[2]))


def run_conditions(videos: int = 1, cards: int = 12,
                   splits: Sequence[str] = ("cond-held", "cond-tune"), cost: bool = True,
                   size: Size = FULL, jobs: int = 1, cores: Sequence[int] = (),
                   first: int = 0) -> dict[str, Any]:
    """Every condition on ``splits`` (both by default, held-apart first), ``videos`` videos
    a condition and split from video ``first`` (each its own seed: ``first`` 10 runs videos
    nobody looked at when 0-9 have been run): per split, the videos run (``first``,
    ``videos``), the figures of each condition and (``cost``) the decoder's cost over all of
    its frames. ``jobs`` > 1: the videos run in that many worker processes, each pinned to
    one of ``cores`` (default: the cores this process may use) with OpenCV on one thread,
    so a frame's CPU time is one core's."""
    work = [(split, c, v) for split in splits for c in CONDITIONS
            for v in range(first, first + videos)]
    if jobs > 1:
        import multiprocessing
        import os
        from concurrent.futures import ProcessPoolExecutor

        usable = tuple(cores) or tuple(sorted(os.sched_getaffinity(0)))
        ctx = multiprocessing.get_context("spawn")  # no threads inherited
        with ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
            parts = list(pool.map(_worker, [(s, c, v, cards, cost, size,
                                             usable[i % min(jobs, len(usable))])
                                            for i, (s, c, v) in enumerate(work)]))
    else:
        parts = [one_video(s, c, v, cards, cost, size) for s, c, v in work]
    out: dict[str, Any] = {}
    for split in splits:
        by = {c: empty() for c in CONDITIONS}
        for (s, c, _), part in zip(work, parts, strict=True):
            if s == split:
                merge(by[c], part)
        costs = [r.pop("cost") for r in by.values()]
        times = {name: [t for c in costs for t in c[name]] for name in ("shipped", "zxing")}
        out[split] = {"first": first, "videos": videos, "conditions": by,
                      "cost": cost_summary(times)}
    return out


def _worker(job: tuple[str, str, int, int, bool, Size, int]) -> dict[str, Any]:
    """One video in a worker process: pinned to its core, OpenCV on one thread."""
    import os

    import cv2

    split, condition, video, cards, cost, size, core = job
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    return one_video(split, condition, video, cards, cost, size)
