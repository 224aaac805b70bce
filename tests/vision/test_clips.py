"""Dispute clips: the ring buffer's bounds, the saved clip's frames and their times."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.clips import MAX_BYTES, ClipFrame, ClipKeeper, ClipRecorder, shrink
from vision.frames import Frame


def frame(i: int, at: float, w: int = 1280, h: int = 720) -> Frame:
    rng = np.random.default_rng(i)
    image = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)
    return Frame(image, at, i)


def test_frames_are_downscaled_jpegs_with_their_capture_time() -> None:
    rec = ClipRecorder(width=320, fps=30)
    rec.on_frame(frame(0, 10.0))
    (kept,) = rec.between(0, 99)
    assert kept.at == 10.0 and kept.jpeg[:2] == b"\xff\xd8"
    image = cv2.imdecode(np.frombuffer(kept.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (180, 320, 3)


def test_the_buffer_keeps_only_the_last_seconds() -> None:
    rec = ClipRecorder(seconds=2.0, fps=8)
    for i in range(50):  # 6.125 s at 8 fps (exact binary times)
        rec.add(ClipFrame(i / 8, b"x" * 100))
    times = [f.at for f in rec.between(-1, 99)]
    assert times[0] == 4.125 and times[-1] == 6.125 and len(times) == 17
    assert rec.bytes == 100 * len(times)


def test_the_buffer_never_holds_more_than_its_byte_budget() -> None:
    rec = ClipRecorder(seconds=60, max_bytes=10_000, fps=30)
    for i in range(100):
        rec.add(ClipFrame(i / 30, b"y" * 999))
    assert rec.bytes <= 10_000 and len(rec) == 10
    with pytest.raises(ValueError, match="max_bytes must be between"):
        ClipRecorder(max_bytes=MAX_BYTES + 1)


def test_frames_closer_than_the_recording_rate_are_skipped() -> None:
    rec = ClipRecorder(fps=10)
    for i in range(30):  # 30 fps in, 10 fps kept
        rec.on_frame(frame(i, 100 + i / 30, w=64, h=36))
    assert len(rec) == 10


def test_a_full_buffer_at_720p_stays_within_40_mb() -> None:
    rec = ClipRecorder()  # the defaults serve uses: 12 s at 15 fps, 480 px wide
    jpegs = [shrink(frame(i, 0).image, rec.width, rec.quality) for i in range(4)]
    for i in range(int(12 * 15) + 30):  # noise: the worst case for JPEG
        rec.add(ClipFrame(i / 15, jpegs[i % 4]))
    assert 0 < rec.bytes <= rec.max_bytes <= MAX_BYTES
    assert len(rec) <= 12 * 15 + 1


@dataclass
class Snap:
    game_id: str | None
    public: dict[str, Any] = field(default_factory=dict)
    game: str = "nasty7"


def dispute(n: int, start: float, end: float) -> dict[str, Any]:
    return {"dispute": {"n": n, "title": "Ben: no card within 3 s", "kind": "hesitation",
                        "seat": 1, "name": "Ben", "start": start, "end": end, "seconds": 3.0},
            "hesitation_s": 3.0}


def test_a_dispute_saves_its_frames_with_game_times(tmp_path: Path) -> None:
    rec = ClipRecorder(fps=30)
    for i in range(60):  # capture clock 100.0 .. 101.97; game time 0 is 100.0
        rec.add(ClipFrame(100 + i / 30, b"\xff\xd8jpeg%d" % i))
    keeper = ClipKeeper(rec, tmp_path, origin=lambda: 100.0)
    keeper.listener(Snap("g1", dispute(1, 0.5, 1.0)), [])
    keeper.listener(Snap("g1", dispute(1, 0.5, 1.0)), [])  # the same dispute: once
    assert keeper.flush()
    meta = json.loads((tmp_path / "g1" / "1" / "meta.json").read_text())
    times = [f["t"] for f in meta["frames"]]
    assert times[0] == 0.5 and times[-1] == 1.0 and len(times) == 16
    assert meta["title"] == "Ben: no card within 3 s" and meta["limit"] == 3.0
    assert (tmp_path / "g1" / "1" / meta["frames"][3]["file"]).read_bytes() == b"\xff\xd8jpeg18"
    keeper.stop()


def test_clips_go_with_their_game_and_stay_bounded(tmp_path: Path) -> None:
    rec = ClipRecorder(fps=30)
    for i in range(60):
        rec.add(ClipFrame(i / 30, b"z" * 1000))
    keeper = ClipKeeper(rec, tmp_path, origin=lambda: 0.0, max_game_bytes=25_000)
    for n in (1, 2, 3):
        keeper.listener(Snap("g1", dispute(n, 0.0, 0.6)), [])  # 19 frames each
    assert keeper.flush()
    assert sorted(p.name for p in (tmp_path / "g1").iterdir()) == ["3"]  # oldest dropped
    keeper.listener(Snap("g2", {}), [])  # a new game replaces g1: its clips go
    assert keeper.flush()
    assert not (tmp_path / "g1").exists()
    keeper.stop()


def test_without_frames_there_is_no_clip(tmp_path: Path) -> None:
    keeper = ClipKeeper(ClipRecorder(), tmp_path, origin=lambda: 0.0)
    keeper.listener(Snap("g1", dispute(1, 0.0, 3.0)), [])
    assert keeper.flush()
    assert not (tmp_path / "g1" / "1").exists()
    keeper.stop()


def test_the_bench_reports_the_buffers_memory_and_cost() -> None:
    from bench import vision_live

    c = vision_live.clips_child(seconds=1.0)
    assert c["frames"] == 15 and c["kept_fps"] == 15.0  # 30 fps in, every second kept
    assert 0 < c["buffer_mb"] <= c["budget_mb"] <= 40
    assert c["ms_per_camera_frame"] > 0 and c["ms_per_kept_frame"]["median"] is not None
