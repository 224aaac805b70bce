"""``companion bench web``: a stand-in until ``web/bench.py`` moves here (helper
"trustweb" moves it; on that merge, keep the moved module and drop this file)."""

from __future__ import annotations

from web.bench import main

__all__ = ["main"]
