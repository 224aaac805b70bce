"""Dispute clips: the camera's last seconds in memory, saved to disk when a dispute is decided.

``ClipRecorder.on_frame`` is the ``VisionPipeline.on_frame`` hook (decode thread): it keeps
a downscaled JPEG of at most ``fps`` frames a second, each stamped with its capture time,
in a ring buffer bounded by ``seconds`` and by ``max_bytes`` (40 MB at most). The oldest
frames go first.

``ClipKeeper`` listens to the table (``Table.subscribe``; it only reads ``game_id`` and
the view's ``dispute``, so vision does not import the table): when a new dispute appears
it takes the buffered frames from the dispute's ``start`` to its ``end`` (game time, turned
into capture time with ``origin()``) and writes them on a thread of its own to
``<folder>/<game id>/<n>/`` as ``meta.json`` plus ``0000.jpg``, ``0001.jpg``, ... The
dashboard (``web.clips``) reads that format. Clips belong to the running game: when
another game starts, the earlier games' clips are deleted; a game's clips are bounded by
``max_game_bytes`` (the oldest clips go first). Without a camera nothing is recorded and
no clip is written.

The clip folder format (``meta.json``)::

    {"game_id": "...", "n": 1, "title": "Ben: no card within 3 s", "kind": "hesitation",
     "seat": 1, "name": "Ben", "start": 12.4, "end": 15.400001, "seconds": 3.0,
     "limit": 3.0, "frames": [{"file": "0000.jpg", "t": 12.41}, ...]}

``t``, ``start`` and ``end`` are game seconds; ``limit`` is the hesitation option.
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import re
import shutil
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from vision.frames import Frame, Image

log = logging.getLogger(__name__)

#: the most memory the ring buffer may ever hold
MAX_BYTES = 40 * 1024 * 1024
#: a game id as the store makes it (also what the dashboard accepts)
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class ClipFrame:
    """One recorded frame: capture time (the pipeline's clock) and a JPEG."""

    at: float
    jpeg: bytes


def shrink(image: Image, width: int, quality: int) -> bytes:
    """``image`` scaled down to ``width`` pixels wide (never up) as JPEG bytes.

    Bilinear, not area averaging: a quarter of the cost (under 1 ms at 1280x720 to 480 on
    one core) on the decode thread, and sharp enough to watch a card land.
    """
    h, w = image.shape[:2]
    if w > width:
        image = cv2.resize(image, (width, max(1, round(h * width / w))),
                           interpolation=cv2.INTER_LINEAR)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return bytes(buf.tobytes())


class ClipRecorder:
    """A ring buffer of the last ``seconds`` of downscaled JPEG frames (``max_bytes``)."""

    def __init__(self, seconds: float = 12.0, max_bytes: int = 16 * 1024 * 1024,
                 width: int = 480, quality: int = 65, fps: float = 15.0) -> None:
        if not 0 < max_bytes <= MAX_BYTES:
            raise ValueError(f"max_bytes must be between 1 and {MAX_BYTES}, got {max_bytes}")
        self.seconds, self.max_bytes = seconds, max_bytes
        self.width, self.quality, self.period = width, quality, 1.0 / fps
        self._frames: deque[ClipFrame] = deque()
        self._bytes = 0
        self._lock = threading.Lock()

    def on_frame(self, frame: Frame) -> None:
        """Keep ``frame`` (the pipeline's hook): skipped when closer than 1/fps to the last."""
        with self._lock:
            last = self._frames[-1].at if self._frames else None
        if last is not None and 0 <= frame.at - last < self.period * 0.999:
            return
        picture = frame.display if frame.display is not None else frame.image
        self.add(ClipFrame(frame.at, shrink(picture, self.width, self.quality)))

    def add(self, item: ClipFrame) -> None:
        """Append one encoded frame and drop what is too old or over the byte budget."""
        with self._lock:
            self._frames.append(item)
            self._bytes += len(item.jpeg)
            while self._frames and (self._bytes > self.max_bytes
                                    or self._frames[0].at < item.at - self.seconds):
                self._bytes -= len(self._frames.popleft().jpeg)

    def between(self, start: float, end: float) -> list[ClipFrame]:
        """The buffered frames captured from ``start`` to ``end`` (capture clock)."""
        with self._lock:
            return [f for f in self._frames if start <= f.at <= end]

    @property
    def bytes(self) -> int:
        """JPEG bytes held now (the buffer's memory, less a few hundred bytes a frame)."""
        with self._lock:
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._frames)


def write_clip(folder: Path, meta: Mapping[str, Any], frames: Sequence[ClipFrame],
               origin: float) -> int:
    """Write one clip (``meta.json`` + JPEGs) into ``folder``; returns its bytes on disk."""
    tmp = folder.with_name(folder.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    listed, size = [], 0
    for i, f in enumerate(frames):
        name = f"{i:04d}.jpg"
        (tmp / name).write_bytes(f.jpeg)
        size += len(f.jpeg)
        listed.append({"file": name, "t": round(f.at - origin, 3)})
    body = json.dumps({**meta, "frames": listed}, ensure_ascii=False)
    (tmp / "meta.json").write_text(body, encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return size + len(body)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


class ClipKeeper:
    """Saves a clip for each decided dispute of the running game (a table listener).

    ``origin()`` is the capture-clock time of game time 0 (``table.clock() - table.now()``).
    ``listener(snapshot, signals)`` returns at once; files are written on a worker thread.
    """

    def __init__(self, recorder: ClipRecorder, folder: Path, origin: Callable[[], float],
                 max_game_bytes: int = 200 * 1024 * 1024) -> None:
        self.recorder, self.folder, self.origin = recorder, folder, origin
        self.max_game_bytes = max_game_bytes
        self._game: str | None = None
        self._seen: int = 0
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="clip-writer", daemon=True)
        self._worker.start()

    def listener(self, snap: Any, signals: object = None) -> None:
        """Table listener: note a new game, and queue the clip of a new dispute."""
        game_id = getattr(snap, "game_id", None)
        if game_id != self._game:
            self._game, self._seen = game_id, 0
            self._jobs.put(functools.partial(self._drop_other_games, game_id))
        view = getattr(snap, "public", None) or {}
        dispute = view.get("dispute") if isinstance(view, Mapping) else None
        if not isinstance(dispute, Mapping) or game_id is None or not GAME_ID.match(game_id):
            return
        n = dispute.get("n")
        if not isinstance(n, int) or n <= self._seen:
            return
        self._seen = n
        origin = self.origin()
        frames = self.recorder.between(float(dispute["start"]) + origin,
                                       float(dispute["end"]) + origin)
        if not frames:
            return
        limit = view.get("hesitation_s")
        meta = {"game_id": game_id, "game": getattr(snap, "game", None),
                **{k: dispute.get(k) for k in ("n", "title", "kind", "seat", "name", "start",
                                               "end", "seconds")},
                "limit": limit}
        self._jobs.put(lambda: self._save(game_id, n, meta, frames, origin))

    def _save(self, game_id: str, n: int, meta: dict[str, Any], frames: list[ClipFrame],
              origin: float) -> None:
        game_dir = self.folder / game_id
        write_clip(game_dir / str(n), meta, frames, origin)
        clips = sorted((p for p in game_dir.iterdir() if p.name.isdigit()),
                       key=lambda p: int(p.name))
        while len(clips) > 1 and folder_bytes(game_dir) > self.max_game_bytes:
            shutil.rmtree(clips.pop(0), ignore_errors=True)

    def _drop_other_games(self, keep: str | None) -> None:
        if not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            if path.is_dir() and path.name != keep:
                shutil.rmtree(path, ignore_errors=True)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                job()
            except OSError as exc:
                log.error("could not save a dispute clip: %s", exc)
            finally:
                self._jobs.task_done()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued clip is written (tests, shutdown)."""
        done = threading.Event()
        self._jobs.put(done.set)
        return done.wait(timeout)

    def stop(self) -> None:
        self._jobs.put(None)
        self._worker.join(5.0)
