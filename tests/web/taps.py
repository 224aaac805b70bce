"""Taps per turn, as the "your move" browser tests count them.

``record(game, turns)`` prints the median taps of a plain turn and writes every turn to
``artifacts/taps-per-turn.json`` (one entry per game), which the README's "Taps per
turn" table quotes.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence

from tests.browser import ROOT

TAPS = ROOT / "artifacts" / "taps-per-turn.json"


def record(game: str, turns: Sequence[tuple[str, int, bool]]) -> float:
    """``turns``: (what, taps, plain); returns the median taps of the plain turns."""
    plain = [taps for _, taps, is_plain in turns if is_plain]
    median = float(statistics.median(plain))
    print(f"\n{game}: taps per plain turn {plain}, median {median:g}")
    found = json.loads(TAPS.read_text()) if TAPS.exists() else {}
    found[game] = {"median": median, "plain_turns": len(plain),
                   "turns": [{"what": w, "taps": t, "plain": p} for w, t, p in turns]}
    TAPS.parent.mkdir(parents=True, exist_ok=True)
    TAPS.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    return median
