"""The landing watch runs only for a game that asks about unread landings (``vision.pile``:
``VisionPipeline(landings=callable)``, asked on every frame; ``companion serve`` asks the
running game's engine).

Drawn 320x240 frames (``tests.vision.scenes``) through ``VisionPipeline._process`` one by
one at 30 fps: a card read at the start (its size), then a card that lands at frame 10
with its tag never read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.commands.serve import asks_unread_landings
from companion.config import TrackingConfig, ZonesConfig, parse_config
from companion.inputs import CardLanded, Command, TagSeen
from companion.store import MemoryStore
from companion.table import Table
from tests.vision.scenes import FPS, PILE, READ, card, table
from vision.frames import Detection, Frame, Image
from vision.pipeline import CameraEvent, VisionPipeline

LANDS = 10  # the frame the unread card lands on
FRAMES = 60


class ReadsOne:
    """The decoder: the tag read at the start, on every frame."""

    name = "script"

    def decode(self, image: Image) -> list[Detection]:
        return [Detection(READ[0], tuple(READ[1]), "script")]  # type: ignore[arg-type]


def scene(i: int) -> np.ndarray:
    image = table(i)
    card(image, (212.0, 42.0), 0)  # the card whose tag is read
    if i >= LANDS:
        card(image, (100.0, 120.0))  # lands unread
    return image


def landed(landings: bool | Callable[[], bool], asked: list[int] | None = None,
           frames: int = FRAMES) -> list[CardLanded]:
    """The ``CardLanded`` events of ``frames`` frames; ``asked`` counts the calls."""
    events: list[CameraEvent] = []
    pipeline = VisionPipeline(
        source=None,  # type: ignore[arg-type]  # frames are handed to _process
        decoder=ReadsOne(), tracker_config=TrackingConfig(),
        zones=ZonesConfig(polygons={"pile": PILE}), on_event=events.append,
        landings=landings)
    for i in range(frames):
        if asked is not None:
            asked.append(i)
        pipeline._process(Frame(scene(i), 100.0 + i / FPS, i))
    return [e for e in events if isinstance(e, CardLanded)]


def test_a_game_that_asks_gets_the_landing_one_that_does_not_gets_none() -> None:
    calls: list[int] = []

    def asks() -> bool:
        calls.append(1)
        return True

    (found,) = landed(asks)
    assert found.zone == "pile" and found.at == pytest.approx(100.0 + LANDS / FPS, abs=2 / FPS)
    assert len(calls) == FRAMES  # asked on every frame
    assert landed(lambda: False) == []
    assert len(landed(True)) == 1 and landed(False) == []


def test_turned_off_while_a_card_settles_nothing_stale_is_reported_later() -> None:
    """The game asks until frame 20 (the card landed at 10 and is settling, not yet
    reported), then not until frame 40, then again: the card that landed meanwhile is
    the pile's new look, never a landing reported late."""
    frame: list[int] = []

    def asks() -> bool:
        return not 20 <= len(frame) - 1 < 40

    assert landed(asks, asked=frame, frames=90) == []
    # the same card landing while the game asks again is reported
    later: list[int] = []
    assert len(landed(lambda: len(later) - 1 < 5 or len(later) - 1 >= 8, asked=later)) == 1


def test_a_callable_that_raises_stops_the_watch_not_the_frame() -> None:
    def broken() -> bool:
        raise RuntimeError("no table")

    events: list[Any] = []
    pipeline = VisionPipeline(None, ReadsOne(), TrackingConfig(),  # type: ignore[arg-type]
                              ZonesConfig(polygons={"pile": PILE}), events.append,
                              landings=broken)
    for i in range(FRAMES):
        pipeline._process(Frame(scene(i), 100.0 + i / FPS, i))
    assert [e.payload for e in events if isinstance(e, TagSeen)] == [READ[0]]  # still read
    assert not any(isinstance(e, CardLanded) for e in events)


def test_serve_asks_the_running_games_engine() -> None:
    tbl = Table(MemoryStore(), clock=lambda: 100.0)
    asks = asks_unread_landings(tbl)
    assert asks() is False  # no game yet
    start = Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]})
    assert tbl.process(start).accepted
    assert asks() is True
    assert tbl.process(Command("end", {})).accepted
    assert asks() is False
    illegal = Command("start", {"game": "illegal", "players": ["Ann", "Ben", "Cy"]})
    assert tbl.process(illegal).accepted
    assert asks() is False  # Illegal does not ask about unread landings


class NoFrames:
    """A camera that sends no frame (the pipeline's threads end at once)."""

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_serve_builds_the_pipeline_with_the_config_and_the_games_question(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion serve`` on a real table: ``[camera] card_sides`` reaches the landing
    watch, and the watch asks the running game."""
    from companion import hwprobe
    from companion.commands import serve

    monkeypatch.setattr(hwprobe, "has_camera", lambda: True)
    monkeypatch.setattr("vision.sources.open_source", lambda cfg: NoFrames())
    config = parse_config(tomllib.loads("[camera]\ncard_sides = [2.2, 3.1]\n"))
    tbl = Table(MemoryStore())
    parts: list[Any] = []
    try:
        camera = serve._start_vision(config, tbl, False, "nasty7", parts)
        pipeline = camera.pipeline
        assert pipeline.card_sides == (2.2, 3.1) == pipeline.landings.card_sides
        assert pipeline._watching_landings() is False  # no game yet
        start = Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]})
        assert tbl.process(start).accepted
        assert pipeline._watching_landings() is True
    finally:
        for part in reversed(parts):
            part.stop() if hasattr(part, "stop") else part.close()
