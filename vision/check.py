"""The pre-game check: is this camera, at this height and in this light, ready to play?

``CheckMeter`` watches the frames the pipeline decodes (a small sample of the picture
every ``EVERY`` frames, the reads of every frame) and ``CheckMeter.report()`` answers
four questions, each green, amber or red with the fix in one sentence:

- **light**: the mean brightness of the picture;
- **glare**: the share of the play area (the zones) washed out to white by a lamp;
- **reads**: of the codes the decoder located in the last frames, the share it read
  (lay the calibration card or a few cards in each zone to measure it);
- **size**: the smallest code read, in pixels a module (reliable from
  ``RELIABLE_MODULE_PX``: ``vision.calibration``).

During play, ``warnings()`` names each zone with a washed-out patch (a quiet warning on
the host page and the camera page, never a refusal). Pure numbers in, sentences out:
no clock and no thread here; the pipeline calls it on its decode thread.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from vision.calibration import MODULES, RELIABLE_MODULE_PX
from vision.frames import Detection, Image, Point

Level = Literal["green", "amber", "red"]
#: a sample of the picture every this many frames; reads are counted on every frame
EVERY = 10
#: how many frames the reads are counted over (about 3 s at 30 fps)
WINDOW = 90
#: a pixel this bright (0-255) is washed out
SATURATED = 250
#: a zone is under glare when this share of it is washed out
GLARE_WARN = 0.02
GLARE_RED = 0.08


@dataclass(frozen=True)
class Verdict:
    """One question of the check: ``what`` (light, glare, reads, size), its level, the
    sentence the host reads (what was seen, and the fix when it is not green)."""

    what: str
    level: Level
    sentence: str

    def to_json(self) -> dict[str, str]:
        return {"what": self.what, "level": self.level, "sentence": self.sentence}


class CheckMeter:
    """Rolling figures of the last frames, for ``report`` and ``warnings``."""

    def __init__(self) -> None:
        self.light: float | None = None
        self.glare: dict[str, float] = {}
        self._reads: deque[tuple[int, int]] = deque(maxlen=WINDOW)  # (read, located) a frame
        self._modules: deque[float] = deque(maxlen=WINDOW)  # px a module of each read
        self._count = 0

    def update(self, image: Image, detections: Sequence[Detection],
               zones: Mapping[str, Sequence[Point]]) -> None:
        """Count one decoded frame; sample its picture every ``EVERY`` frames."""
        read = [d for d in detections if d.text and not d.damaged]
        self._reads.append((len(read), len(detections)))
        self._modules.extend(module_px(d.corners) for d in read)
        if self._count % EVERY == 0:
            self._sample(image, zones)
        self._count += 1

    def _sample(self, image: Image, zones: Mapping[str, Sequence[Point]]) -> None:
        small = image[::4, ::4]
        gray = small if small.ndim == 2 else small.mean(axis=2)
        self.light = float(gray.mean())
        h, w = gray.shape[:2]
        glare = {}
        for name, polygon in (zones or {"play area": [(0, 0), (1, 0), (1, 1), (0, 1)]}).items():
            xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
            box = gray[int(min(ys) * h):max(int(max(ys) * h), int(min(ys) * h) + 1),
                       int(min(xs) * w):max(int(max(xs) * w), int(min(xs) * w) + 1)]
            glare[name] = float((box >= SATURATED).mean()) if box.size else 0.0
        self.glare = glare

    def warnings(self) -> list[str]:
        """One quiet sentence for each zone with a washed-out patch."""
        return [f"Glare over the {_zone_words(name)} ({share:.0%} washed out): tilt or move "
                "the lamp so it does not shine into the camera."
                for name, share in sorted(self.glare.items()) if share >= GLARE_WARN]

    def report(self) -> dict[str, Any]:
        """The four verdicts and the overall level (the worst of them)."""
        verdicts = [self._light(), self._glare(), self._read_rate(), self._size()]
        order: list[Level] = ["green", "amber", "red"]
        worst = max((v.level for v in verdicts), key=order.index)
        return {"level": worst, "verdicts": [v.to_json() for v in verdicts],
                "warnings": self.warnings()}

    def _light(self) -> Verdict:
        light = self.light
        if light is None:
            return Verdict("light", "amber", "No picture yet: the camera has sent no frame.")
        if light < 45:
            return Verdict("light", "red", "Too dark to read the cards: turn on a lamp over "
                           "the table.")
        if light < 75:
            return Verdict("light", "amber", "The table is dim: more light over it helps the "
                           "camera read small codes.")
        if light > 215:
            return Verdict("light", "amber", "The picture is very bright: dim the lamp or "
                           "turn it away from the table.")
        return Verdict("light", "green", "The light is good.")

    def _glare(self) -> Verdict:
        if not self.glare:
            return Verdict("glare", "amber", "No picture yet to look for glare in.")
        name, share = max(self.glare.items(), key=lambda kv: kv[1])
        where = _zone_words(name)
        if share >= GLARE_RED:
            return Verdict("glare", "red", f"A lamp's reflection washes out {share:.0%} of "
                           f"the {where}: tilt or move the lamp until it is gone.")
        if share >= GLARE_WARN:
            return Verdict("glare", "amber", f"A small reflection on the {where} "
                           f"({share:.0%}): tilt the lamp a little.")
        return Verdict("glare", "green", "No glare over the play area.")

    def _read_rate(self) -> Verdict:
        read = sum(r for r, _ in self._reads)
        located = sum(n for _, n in self._reads)
        if not located:
            return Verdict("reads", "amber", "No card in view: lay the calibration card or a "
                           "few cards where the pile is (and in each zone) to check the reads.")
        rate = read / located
        if rate >= 0.95:
            return Verdict("reads", "green", f"{rate:.0%} of the codes in view are read.")
        level: Level = "amber" if rate >= 0.8 else "red"
        return Verdict("reads", level, f"Only {rate:.0%} of the codes in view are read: add "
                       "light, or lower the camera closer to the table.")

    def _size(self) -> Verdict:
        if not self._modules:
            return Verdict("size", "amber", "No code read yet, so the smallest readable size "
                           "is unknown: lay the calibration card on the table.")
        smallest = min(self._modules)
        if smallest >= RELIABLE_MODULE_PX:
            return Verdict("size", "green", f"The smallest code read has {smallest:.1f} px "
                           "modules: codes this size are read reliably.")
        level: Level = "amber" if smallest >= 3.0 else "red"
        return Verdict("size", level, f"Codes are as small as {smallest:.1f} px a module: "
                       "lower the camera or print larger stickers (companion tags --size).")


def module_px(corners: Sequence[Point]) -> float:
    """Pixels a module of a version-1 code with these corners (its mean side over 21)."""
    pts = np.array(corners, dtype=np.float64)
    sides = np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)
    return float(sides.mean()) / MODULES


def _zone_words(name: str) -> str:
    return {"pile": "pile", "play": "play zone", "play area": "play area"}.get(
        name, f"zone {name}")
