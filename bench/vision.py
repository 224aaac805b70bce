"""``companion bench vision``: a stand-in until ``vision/bench.py`` moves here (helper
"camera" moves it; on that merge, keep the moved module or package and drop this file)."""

from __future__ import annotations

from vision.bench import main

__all__ = ["main"]
