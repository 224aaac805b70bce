"""Scoring a decoder on the shared real photos (``../shared/data/qr-photos``) by folder.

Each folder has an expectation file ``tests/vision/expectations/<folder>.json``:
``kind`` says where the truth is ("single": ``NAME.txt`` beside each image; "none": no
code at all; "listed": the texts in ``expected``; "structured_append": the parts of
``NAME-K.png`` joined in order equal ``NAME.txt``), ``min_read`` is the count of images
(or sequences) the shipped decoder read when it was measured, and ``also_present`` names
real codes in an image that its truth file does not list (they are not false reads).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.frames import Decoder
from vision.sources import IMAGE_SUFFIXES, read_image

HERE = Path(__file__).parent
EXPECTATIONS = HERE / "expectations"
def _find_photos() -> Path:
    """The shared photos: $TABLE_COMPANION_PHOTOS, ../shared beside the clone, /work/shared."""
    candidates = [Path(os.environ["TABLE_COMPANION_PHOTOS"])] if os.environ.get(
        "TABLE_COMPANION_PHOTOS") else []
    candidates += [Path(__file__).resolve().parents[3] / "shared" / "data" / "qr-photos",
                   Path("/work/shared/data/qr-photos")]
    for path in candidates:
        if path.is_dir():
            return path
    return candidates[0]


DATA = _find_photos()


@dataclass
class FolderScore:
    read: int = 0
    total: int = 0
    false_reads: list[str] = field(default_factory=list)


def truth_text(path: Path) -> str:
    """A truth file's text exactly (bytes as UTF-8: no newline translation)."""
    return path.read_bytes().decode("utf-8")


def images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def texts(decoder: Decoder, path: Path) -> list[str]:
    return [d.text for d in decoder.decode(read_image(path)) if not d.damaged]


def score(decoder: Decoder, folder: Path, spec: dict[str, Any]) -> FolderScore:
    """How many images ``decoder`` read right, and every text it read that is not expected."""
    kind = spec["kind"]
    also = spec.get("also_present", {})
    s = FolderScore()
    if kind == "structured_append":
        return _score_sequences(decoder, folder)
    for path in images(folder):
        got = texts(decoder, path)
        if kind == "none":
            expected: list[str] = []
        elif kind == "listed":
            expected = spec["expected"].get(path.name, [])
        else:
            expected = [truth_text(path.with_suffix(".txt"))]
        s.total += 1 if kind != "listed" else len(expected)
        if kind == "listed":
            s.read += len(set(expected) & set(got))
        elif expected and expected[0] in got:
            s.read += 1
        allowed = set(expected) | set(also.get(path.name, []))
        s.false_reads += [f"{path.name}: {t!r}" for t in got if t not in allowed]
    return s


def _score_sequences(decoder: Decoder, folder: Path) -> FolderScore:
    s = FolderScore()
    for truth in sorted(folder.glob("*.txt")):
        if truth.name.endswith(".result.txt"):
            continue
        expected = truth_text(truth)
        parts = sorted(folder.glob(f"{truth.stem}-*.png"))
        s.total += 1
        joined = ""
        for part in parts:
            got = texts(decoder, part)
            s.false_reads += [f"{part.name}: {t[:40]!r}" for t in got if t not in expected]
            joined += got[0] if len(got) == 1 else ""
        s.read += joined == expected
    return s


def load_expectations() -> dict[str, dict[str, Any]]:
    """Expectation specs by folder name."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(EXPECTATIONS.glob("*.json"))}
