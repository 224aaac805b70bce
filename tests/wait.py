"""Waiting on a condition in a test, whatever the machine's speed.

A test waits for what it needs (a line printed, a state reached), polling it; the only
time limit is a safety net of minutes against hanging for ever, far beyond what any slow
machine needs. Nothing here is a deadline a loaded machine could miss.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: the safety net: a test that waits this long has hung
SAFETY = 300.0


def until(check: Callable[[], T | None], what: str, safety: float = SAFETY,
          poll: float = 0.05) -> T:
    """``check()``'s first result that is not None or False; fails after ``safety``."""
    give_up = time.monotonic() + safety
    while True:
        found = check()
        if found is not None and found is not False:
            return found
        if time.monotonic() > give_up:
            raise AssertionError(f"waited {safety:.0f} s for {what}: it never happened")
        time.sleep(poll)  # a poll interval, not a synchronisation: the check decides
