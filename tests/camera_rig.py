"""A real table with a real camera pipeline, driven by one fake clock (browser tests).

A synthetic camera (``vision.synthetic.SyntheticTable``) renders the deck's QR cards where
a script puts them; the real decoder, tracker and zones read them; the table loop books
them; the dashboard serves it all on a loopback port. Nothing depends on the machine's
speed: one ``Clock`` drives the table, the camera's frame times and the buttons; frames are
released up to a scripted time (``run_until``) and decoded in lockstep, and the helpers
wait for the table to have handled every input before the test moves on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import TrackingConfig, WebConfig, ZonesConfig
from companion.inputs import Command, TagLeft
from companion.store import SqliteStore
from companion.table import Table
from tests.wait import until
from vision.frames import Frame
from vision.pipeline import VisionPipeline
from vision.synthetic import CardPlay, Patch, SyntheticTable
from web import create_app
from web.server import make_server, stop

Polygon = list[tuple[float, float]]


class Clock:
    """The one clock of the table, the camera and the buttons; moved only by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class GatedCamera:
    """A ``FrameSource`` handing out the synthetic table's frames only up to ``limit``.

    ``run_until(t)`` releases the frames captured at or before ``t`` and returns once the
    camera waits for a later one: with a lockstep pipeline every earlier frame is decoded.
    """

    def __init__(self, feed: SyntheticTable, fps: float) -> None:
        self.feed, self.fps = feed, fps
        self.limit = -1.0
        self.waiting: int | None = None
        self.cond = threading.Condition()
        self.closed = False

    def read(self) -> Frame | None:
        index = self.feed._next  # the next frame index (the feed is not real-time)
        with self.cond:
            self.waiting = index
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.closed or index / self.fps <= self.limit)
            if self.closed:
                return None
            self.waiting = None
        return self.feed.read()

    def run_until(self, t: float) -> None:
        with self.cond:
            self.limit = t
            self.cond.notify_all()
            ok = self.cond.wait_for(
                lambda: self.waiting is not None and self.waiting / self.fps > t, timeout=300)
        assert ok, "the camera feed stalled"

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        self.feed.close()


@dataclass
class Rig:
    """What a test drives: the table, its clock, the gated camera, the dashboard's URL."""

    table: Table
    clock: Clock
    camera: GatedCamera
    pipeline: VisionPipeline
    url: str
    #: called by ``settle`` after the table caught up (e.g. a clip keeper's flush)
    flushes: list[Callable[[], Any]] = field(default_factory=list)

    def settle(self) -> None:
        """Every queued input handled (and every flush done)."""
        res = self.table.submit(TagLeft("barrier", self.table.clock())).result(300)
        assert res.ignored
        for flush in self.flushes:
            assert flush()

    def run_until(self, t: float) -> None:
        """Camera frames up to game time ``t`` decoded and booked; the clock shows ``t``
        and every deadline due by then was delivered by the table loop."""
        self.camera.run_until(t)
        self.settle()
        self.clock.now = t
        # an input wakes the loop, which then reads the moved clock: a deadline due by
        # ``t`` is delivered right after it (not at the loop's next wake, up to 0.5 s on)
        self.settle()

        def delivered() -> bool:
            due = self.table.hub.latest().deadline
            return due is None or due > self.table.now()

        until(delivered, "the table loop to deliver a due deadline", poll=0.005)
        self.settle()

    def view(self) -> Any:
        """The public view of the latest snapshot."""
        return self.table.hub.latest().public


@contextmanager
def dashboard(table: Table, pipeline: VisionPipeline, state_dir: Path) -> Iterator[str]:
    """The dashboard of ``table`` with ``pipeline`` as its camera, served on loopback
    until the block ends; yields its URL."""
    from companion.commands.serve import ZoneSaver

    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                     camera=ZoneSaver(pipeline), testing=True)
    server = make_server(app, "127.0.0.1", 0, 24)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.bind_addr[1]}"
    finally:
        stop(app, server)
        thread.join(300)


@contextmanager
def camera_rig(state_dir: Path, game: str, players: Sequence[str], options: dict[str, Any],
               plays: Sequence[CardPlay], zones: dict[str, Polygon], *, fps: float = 10.0,
               size: tuple[int, int] = (960, 540), seed: int = 3,
               on_frame: Callable[[Frame], None] | None = None,
               before_app: Callable[[Table, Clock, list[Any]],
                                    Callable[[Frame], None] | None] | None = None,
               known_zones: dict[str, Polygon] | None = None,
               patches: Sequence[Patch] = (),
               ) -> Iterator[Rig]:
    """A started game of ``game`` whose camera plays ``plays``; the dashboard on loopback.

    ``before_app(table, clock, parts)`` may attach more (buttons, a clip keeper) and return
    the pipeline's ``on_frame``; every part it appends is stopped (``stop()`` or
    ``close()``) when the rig ends. ``known_zones``: the zones the pipeline starts with
    (default ``zones``; ``{}`` when the test draws and saves them on the camera page).
    ``patches``: hands resting over the cards and glare spots (``vision.synthetic.Patch``).
    """
    from companion.decks import resolve_tag
    from vision.decoding import default_decoder

    clock = Clock()
    store = SqliteStore.in_state_dir(state_dir)
    table = Table(store, clock=clock)
    table.start()
    res = table.submit(Command("start", {"game": game, "players": list(players),
                                         "options": options})).result(300)
    assert res.accepted, res.reason
    feed = SyntheticTable([], list(plays), width=size[0], height=size[1], fps=fps, seed=seed,
                          zones=zones, realtime=False, clock=clock, patches=patches)
    camera = GatedCamera(feed, fps)
    parts: list[Any] = []
    if before_app is not None:
        on_frame = before_app(table, clock, parts) or on_frame
    pipeline = VisionPipeline(camera, default_decoder(), TrackingConfig(),
                              ZonesConfig(polygons=zones if known_zones is None else known_zones),
                              on_event=lambda event: None if table.submit(event) else None,
                              resolve=resolve_tag, clock=clock, on_frame=on_frame,
                              lockstep=True)
    pipeline.start()
    try:
        with dashboard(table, pipeline, state_dir) as url:
            yield Rig(table, clock, camera, pipeline, url)
    finally:
        camera.close()
        pipeline.stop()
        for part in reversed(parts):
            part.stop() if hasattr(part, "stop") else part.close()
        table.stop()
        store.close()
