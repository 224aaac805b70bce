"""The table set: videos of The Nasty 7 at a real table, and what the table makes of them.

A generator of its own with seeds of its own (``SPLITS``), apart from the hard set's:
``table-tune`` may be looked at while changing the table; ``table-held`` is only ever
measured. Each video plays cards of the demo deck onto a pile a host drew (``PILE``) at
The Nasty 7's pace, one every 0.6-2.0 s, each over the one before (stacked piles), the
pile swept off every seven cards: codes with 3-6 px modules, a finger pushing each card
in (over its tag), hands resting on the pile for 1.1-1.8 s after some cards, a lamp's
glare spot, cards landing off-centre and one in ten beside the pile (outside every
zone), all through the hard set's camera (tilt, curved cards, blur, noise, JPEG).

``run_table_videos`` decodes every frame (lockstep) through the real ``VisionPipeline``
and feeds the events to The Nasty 7's real engine, the way the table does, then counts
per card: exactly one ``TagSeen`` where the tag was fully visible in at least two
frames, false events, refusals of cards that never moved (no card is ever played twice
here, so every refusal is one), silent drops (a card seen but neither played nor put to
the host) and hesitation penalties (no gap here exceeds 3 s, so every one is false),
beside the decoder's CPU time a frame (median, p95) for the shipped decoder and
zxing-cpp alone on the same frames.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from bench.vision_hardset import (
    JPEG,
    SKIN,
    HardRenderer,
    _card_width_px,
    _finger_on,
    tag_px_for,
)
from bench.vision_hardset import Glare as HardGlare
from vision.frames import Decoder, Detection, Image
from vision.synthetic import CardPlay, Patch, SyntheticFrame, SyntheticTable

#: each split's videos come from its own seed (never the hard set's)
SPLITS = {"table-tune": 300_011, "table-held": 300_012}
#: the pile as a host drew it around where cards land
PILE = [(0.3, 0.22), (0.7, 0.22), (0.7, 0.78), (0.3, 0.78)]
MODULE_PX = (3.0, 6.0)
GAP_S = (0.6, 2.0)
REST_S = (1.1, 1.8)
PILE_SIZE = 7


def table_script(split: str, video: int, payloads: Sequence[str], width: int = 1280,
                 cards: int = 21) -> tuple[list[CardPlay], list[Patch]]:
    """The cards of one video and the hands resting on the pile."""
    rng = np.random.default_rng([SPLITS[split], video, 2])
    order = rng.choice(len(payloads), size=min(cards, len(payloads)), replace=False)
    plays: list[CardPlay] = []
    hands: list[Patch] = []
    pile: list[int] = []
    cx, cy = 0.5 + float(rng.uniform(-0.04, 0.04)), 0.5 + float(rng.uniform(-0.05, 0.05))
    t = 1.0
    for n, k in enumerate(order):
        if n and n % PILE_SIZE == 0:
            t += 0.6  # the pile is swept off
            plays = [replace(p, removed_at=t - 0.3) if i in pile else p
                     for i, p in enumerate(plays)]
            pile = []
        beside = rng.random() < 0.1
        if beside:  # outside the drawn pile, left or right of it
            x = cx + (0.33 if rng.random() < 0.5 else -0.33)
            y = cy + float(rng.uniform(-0.1, 0.1))
        else:  # off-centre on the pile
            x, y = cx + float(rng.uniform(-0.08, 0.08)), cy + float(rng.uniform(-0.1, 0.1))
        module = float(rng.uniform(*MODULE_PX))
        plays.append(CardPlay(payloads[int(k)], at=t, position=(x, y),
                              angle=float(rng.uniform(0, 360)),
                              tag_px=tag_px_for(module, width),
                              slide_s=float(rng.uniform(0.15, 0.3)),
                              removed_at=t + 1.2 if beside else None))
        if not beside:
            pile.append(len(plays) - 1)
        gap = float(rng.uniform(*GAP_S))
        if not beside and rng.random() < 0.3:  # a hand rests on the pile
            rest = float(rng.uniform(*REST_S))
            hands.append(Patch("hand", t + 0.3, t + 0.3 + rest, (x, y), 0.085))
            gap = max(gap, 0.3 + rest + 0.3)
        t += gap
    return plays, hands


class TableVideo(SyntheticTable):
    """One video of the table set; counts the frames each tag is fully visible in."""

    def __init__(self, split: str, video: int, payloads: Sequence[str], *, width: int = 1280,
                 height: int = 720, fps: float = 30.0, cards: int = 21) -> None:
        script, hands = table_script(split, video, payloads, width, cards)
        seed = SPLITS[split] * 100 + video
        super().__init__(payloads, script, width=width, height=height, fps=fps, seed=seed,
                         realtime=False, clock=lambda: 0.0, patches=hands)
        rng = np.random.default_rng([seed, 6])
        self.hard = HardRenderer(width, height, seed, int(rng.integers(JPEG[0], JPEG[1] + 1)))
        self.hard.bends = {p.payload: float(rng.uniform(0.0, 0.4)) for p in script}
        self.renderer = self.hard
        self.lamp = HardGlare((float(rng.uniform(0.3, 0.7)) * width,
                               float(rng.uniform(0.3, 0.7)) * height),
                              float(rng.uniform(15, 35)) * width / 1280,
                              float(rng.uniform(60, 140)))
        self.visible_frames: dict[str, int] = {}

    def render(self, index: int) -> SyntheticFrame:
        t = self.scene_time(index)
        cards = self.placed(t)
        hands = [p for p in self.patches if p.active(t)]
        by_payload = {p.payload: i for i, p in enumerate(self.script)}
        fingers = []
        for pc in cards:
            i = by_payload[pc.payload]
            play = self.script[i]
            if play.at - play.slide_s <= t < play.at + 0.15:  # pushed in, let go just after
                rng = np.random.default_rng([self.seed, 8, i])
                fingers.append(_finger_on(pc.homography, rng, 0.28 * _card_width_px(pc.homography),
                                          reach=(0.02, 0.2)))
        canvas = self.hard.background()
        self.hard.draw_cards(canvas, cards)
        self.hard.overlay(canvas, fingers, [self.lamp])
        _draw_hands(canvas, hands)
        image = self.hard.finish(canvas, np.random.default_rng([self.seed, 4, index]))
        truth = self.hard.covered_by_fingers(self.hard.truth(cards, hands), fingers)
        for tag in truth:
            if tag.fully_visible:
                self.visible_frames[tag.payload] = self.visible_frames.get(tag.payload, 0) + 1
        return SyntheticFrame(index, t, image, truth)


def _draw_hands(canvas: Image, hands: Sequence[Patch]) -> None:
    h, w = canvas.shape[:2]
    for k, p in enumerate(hands):
        poly = np.round(p.polygon(w, h)).astype(np.int32)
        cv2.fillPoly(canvas, [poly], SKIN[k % len(SKIN)])


class _Timed:
    """A decoder that keeps the CPU time of every frame it decodes."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder, self.name = decoder, decoder.name
        self.times: list[float] = []

    def expect(self, texts: frozenset[str]) -> None:
        """Passed on to the shipped decoder, as the pipeline tells it (``RetryDecoder``)."""
        inner = getattr(self.decoder, "expect", None)
        if inner is not None:
            inner(texts)

    def decode(self, image: Image) -> list[Detection]:
        cpu0 = time.thread_time()
        found = self.decoder.decode(image)
        self.times.append(time.thread_time() - cpu0)
        return found


@dataclass
class CardScore:
    """Per-card-event figures of one decoder over the videos of one split."""

    cards: int = 0
    eligible: int = 0
    exact: int = 0
    false_events: int = 0
    refusals: int = 0
    silent_drops: int = 0
    host_notes: int = 0
    false_penalties: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: CardScore) -> None:
        """Sum another video's figures into these."""
        for name in ("cards", "eligible", "exact", "false_events", "refusals", "silent_drops",
                     "host_notes", "false_penalties"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times += other.times

    def summary(self) -> dict[str, Any]:
        ts = sorted(self.times)
        return {
            "cards": self.cards, "eligible": self.eligible, "exactly_one": self.exact,
            "exactly_one_share": round(self.exact / self.eligible, 4) if self.eligible else None,
            "false_events": self.false_events, "refusals_of_unmoved": self.refusals,
            "silent_drops": self.silent_drops, "put_to_host": self.host_notes,
            "false_hesitation_penalties": self.false_penalties, "frames": len(ts),
            "median_ms": round(statistics.median(ts) * 1000, 2) if ts else None,
            "p95_ms": round(ts[int(0.95 * (len(ts) - 1))] * 1000, 2) if ts else None,
        }


def run_table_videos(split: str, videos: int, decoders: dict[str, Decoder] | Sequence[str],
                     width: int = 1280, height: int = 720, cards: int = 21, jobs: int = 1,
                     cores: Sequence[int] = ()) -> dict[str, Any]:
    """Every decoder over ``videos`` videos of ``split``: per-card figures and CPU time.

    Each video is rendered once and every frame goes to one real ``VisionPipeline`` per
    decoder in turn (lockstep: every frame decoded), so the decoders see the same frames
    in the same thread. ``decoders``: decoder objects (run here), or names of
    ``table_decoder`` (``shipped``, ``zxing``); with names and ``jobs`` > 1 the videos
    run in ``jobs`` worker processes, each pinned to one of ``cores`` (default: the cores
    this process may use) and single-threaded (a frame's CPU time is one core's, whichever
    worker decoded it): the full-scale held-apart set on a 2-core machine."""
    names = list(decoders)
    if jobs > 1 and not isinstance(decoders, dict):
        import multiprocessing
        import os
        from concurrent.futures import ProcessPoolExecutor

        usable = tuple(cores) or tuple(sorted(os.sched_getaffinity(0)))
        ctx = multiprocessing.get_context("spawn")  # no threads inherited
        with ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
            parts = list(pool.map(_one_video, [(split, v, tuple(names), width, height, cards,
                                                usable[v % min(jobs, len(usable))])
                                               for v in range(videos)]))
    else:
        made = decoders if isinstance(decoders, dict) else {n: table_decoder(n) for n in names}
        parts = [_video_scores(split, v, made, width, height, cards) for v in range(videos)]
    out: dict[str, Any] = {}
    for name in names:
        score = CardScore()
        for part in parts:
            score.add(part[name])
        out[name] = score.summary()
    shipped, alone = out.get("shipped"), out.get("zxing")
    if shipped and alone and alone["p95_ms"]:
        out["p95_ratio"] = round(shipped["p95_ms"] / alone["p95_ms"], 2)
        out["median_ratio"] = round(shipped["median_ms"] / alone["median_ms"], 2)
    return out


def table_decoder(name: str) -> Decoder:
    """``shipped`` (the table's decoder) or ``zxing`` (zxing-cpp alone)."""
    from vision.decoding import default_decoder

    return default_decoder({"shipped": "auto", "zxing": "zxing"}[name])


def _one_video(job: tuple[str, int, tuple[str, ...], int, int, int, int]
               ) -> dict[str, CardScore]:
    """One video in a worker process: pinned to its core, OpenCV on one thread."""
    import os

    split, video, names, width, height, cards, core = job
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    return _video_scores(split, video, {n: table_decoder(n) for n in names}, width, height,
                         cards)


def _video_scores(split: str, video: int, decoders: dict[str, Decoder], width: int,
                  height: int, cards: int) -> dict[str, CardScore]:
    from companion.demo import demo_payloads

    payloads = sorted(p for kind in demo_payloads("nasty7").values() for p in kind)
    feed = TableVideo(split, video, payloads, width=width, height=height, cards=cards)
    timed = {name: _Timed(d) for name, d in decoders.items()}
    events = _events(feed, timed)
    out: dict[str, CardScore] = {}
    for name, t in timed.items():
        score = out[name] = CardScore()
        _score_video(score, feed, events[name])
        score.times += t.times
    return out


def _events(feed: TableVideo, decoders: dict[str, _Timed]) -> dict[str, list[Any]]:
    """Every frame of ``feed``, rendered once, through one pipeline per decoder: each
    pipeline's ``_process`` (decode, tracking, events) as its decode thread runs it in
    lockstep, without the threads."""
    from companion.config import TrackingConfig, ZonesConfig
    from companion.decks import resolve_tag
    from vision.pipeline import VisionPipeline

    events: dict[str, list[Any]] = {name: [] for name in decoders}
    pipelines = [VisionPipeline(feed, decoder, TrackingConfig(),
                                ZonesConfig(polygons={"pile": PILE}), events[name].append,
                                resolve=resolve_tag, lockstep=True)
                 for name, decoder in decoders.items()]
    while (frame := feed.read()) is not None:
        for pipeline in pipelines:
            pipeline._process(frame)
    feed.close()
    return events


def _score_video(score: CardScore, feed: TableVideo, events: Sequence[Any]) -> None:
    from companion.inputs import TagSeen

    played = {p.payload for p in feed.script}
    seen = [e for e in events if isinstance(e, TagSeen)]
    score.false_events += sum(1 for e in seen if e.payload not in played)
    for payload in played:
        score.cards += 1
        if feed.visible_frames.get(payload, 0) >= 2:
            score.eligible += 1
            score.exact += sum(1 for e in seen if e.payload == payload) == 1
    table = fold_events(events)
    score.refusals += table.refusals
    score.silent_drops += table.silent_drops
    score.host_notes += table.host_notes
    score.false_penalties += table.penalties


@dataclass
class Folded:
    refusals: int = 0
    silent_drops: int = 0
    host_notes: int = 0
    penalties: int = 0
    landed_unread: int = 0  # cards the camera saw land unread (not put to a host here)


def fold_events(events: Sequence[Any], seats: int = 3) -> Folded:
    """The events through The Nasty 7's engine as the table takes them (deadlines first,
    then the tag's action, or the camera's word on glare over the pile); the host counts
    a card seen beside the pile at once."""
    from companion.games import get
    from companion.games.base import IllegalAction, Setup, SightInput, TagInput
    from companion.inputs import CardLanded, PileSight, TagSeen

    engine = get("nasty7")
    state: Any = engine.new_game(Setup(("Ann", "Ben", "Cy")[:seats], {}))
    out = Folded()

    def deliver(t: float) -> Any:
        def keep(_t: float, evs: Sequence[Any]) -> None:
            out.penalties += sum(1 for e in evs if getattr(e, "why", "") == "hesitation")
        return engine.deliver_deadlines(state, t, keep)

    for e in events:
        state = deliver(e.at)
        if isinstance(e, CardLanded):  # a card landed unread: counted by the conditions
            out.landed_unread += 1
            continue
        if isinstance(e, PileSight):  # glare over the pile: the clock off, or on again
            sight = engine.action_for_input(state, SightInput(e.blind, e.at))
            state = state if sight is None else engine.run(state, sight, e.at)[0]
            continue
        if e.status != "ok" or e.game != "nasty7":
            continue
        inp = TagInput(isinstance(e, TagSeen), e.card, e.serial, e.zone, e.at)
        try:
            action = engine.action_for_input(state, inp)
            if action is None:
                dropped = inp.seen and e.serial not in state.pile_serials
                out.silent_drops += dropped
                continue
            typed = engine.parse(action)
            state, _ = engine.run(state, typed, e.at)
            if typed.do == "seen_beside":
                out.host_notes += 1
                state, _ = engine.run(state, {"do": "count_seen", "count": True}, e.at)
        except IllegalAction:
            out.refusals += 1
    return out
