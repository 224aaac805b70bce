"""Which cards of a synthetic video a camera could have read, from the renderer's truth.

Issue 36's goal is "exactly one pile event per readable card": a card whose tag a camera
could have read, fully visible, at rest, for long enough. The conditions bench counted
only the cards the camera read (a card the tracker never confirmed dropped out of the
count); ``Sightings`` follows, frame by frame, the truth of each tag (``TagTruth``:
``fully_visible`` is landed, uncovered by later cards and hands, inside the frame, its
centre out of a lamp's washed-out core) beside what the decoder read, so a card is
counted whether or not the camera read it, and a missed card can say why (``why``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from vision.synthetic import TagTruth

#: a card is readable once its tag was fully visible in this many frames after it landed.
#: Two, as the tracker confirms a tag read in two frames (``TrackingConfig.seen_in`` of the
#: last ``of_last``): a single clear frame is a flicker no tracker may take for a card
#: (``tests/vision/test_tracking.py``: one read is no card), while two clear frames are the
#: evidence it asks for. They need not follow each other: a camera that reads a card
#: through the gaps between fingers has seen it, and a count that asks more (two in a row)
#: would let the camera off for the cards it is worst at.
READABLE_FRAMES = 2


@dataclass
class Sight:
    """One card's frames: where its tag was fully visible, where the decoder read it."""

    landed: int | None = None  # the first frame it lay landed in
    visible: list[int] = field(default_factory=list)  # frames fully visible, landed
    read: list[int] = field(default_factory=list)  # frames the decoder read it in
    washed: float = 0.0  # the most of its tag a reflection washed out in a landed frame
    glared: int = 0  # landed frames its tag's centre lay in a reflection's core


class Sightings:
    """Per frame, each tag's truth and the decoder's reads (``frame``); then which cards
    were readable (``readable``) and, for one the table missed, why (``why``)."""

    def __init__(self) -> None:
        self.cards: dict[str, Sight] = {}

    def frame(self, index: int, truth: Iterable[TagTruth], read: Collection[str]) -> None:
        """Frame ``index``: its truth (``SyntheticTable.last_truth``) and the payloads the
        decoder read in it (undamaged)."""
        for t in truth:
            sight = self.cards.setdefault(t.payload, Sight())
            if t.landed:
                if sight.landed is None:
                    sight.landed = index
                sight.washed = max(sight.washed, t.washed)
                sight.glared += t.glared
            if t.fully_visible:
                sight.visible.append(index)
        for payload in read:
            self.cards.setdefault(payload, Sight()).read.append(index)

    def readable(self, frames: int = READABLE_FRAMES) -> set[str]:
        """The payloads fully visible in at least ``frames`` frames after they landed."""
        return {p for p, s in self.cards.items() if len(s.visible) >= frames}

    def why(self, payload: str, window: int = 3) -> dict[str, Any]:
        """What the truth and the decoder say of one card: frames fully visible (and the
        longest run of them), frames read (while fully visible, after landing), the most
        reads in any ``window`` frames (the tracker's ``of_last``: it confirms at
        ``seen_in``), the frames between its reads, and the glare over it."""
        s = self.cards.get(payload, Sight())
        landed = s.landed if s.landed is not None else 0
        after = [i for i in s.read if i >= landed]
        shown = set(s.visible)
        return {
            "landed_frame": s.landed,
            "visible_frames": len(s.visible),
            "visible_run": _longest_run(s.visible),
            "visible_span": [s.visible[0] - landed, s.visible[-1] - landed] if s.visible else [],
            "read_frames": len(s.read),
            "read_after_landing": len(after),
            "read_while_visible": sum(1 for i in s.read if i in shown),
            "reads_in_window": _most_in_window(after, window),
            "read_gaps": [b - a for a, b in zip(after, after[1:], strict=False)],
            "read_at": [i - landed for i in after][:12],
            "washed": round(s.washed, 2),
            "glared_frames": s.glared,
        }


def _longest_run(frames: list[int]) -> int:
    best = run = 0
    for i, f in enumerate(frames):
        run = run + 1 if i and f == frames[i - 1] + 1 else 1
        best = max(best, run)
    return best


def _most_in_window(frames: list[int], window: int) -> int:
    """The most of ``frames`` (sorted indices) within any ``window`` frames in a row."""
    best, lo = 0, 0
    for hi, f in enumerate(frames):
        while f - frames[lo] >= window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best
