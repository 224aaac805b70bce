"""What one guest may not exceed: posts per seat, and lines of the log about one fault.

``PostLimit`` is a token bucket per key (a seat of a game): a phone that posts faster than
``rate`` a second, past a burst of ``burst``, is answered 429 before its post reaches the
table, so a seat posting garbage costs the table nothing. ``LogLimit`` is a logging filter:
at most ``burst`` lines a minute about the same fault (one logger, one message template);
the rest are counted and said in one line when the minute is over.
Both take their clock, so tests drive them without waiting.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

Clock = Callable[[], float]

SEAT_POSTS_PER_S = 4.0
SEAT_POST_BURST = 12
TOO_FAST = ("Too many actions from this phone at once: nothing was done. Wait a moment, "
            "then try again.")

LOG_BURST = 10
LOG_WINDOW_S = 60.0


class PostLimit:
    """A token bucket per key: ``allow(key)`` is False once the key posts too fast."""

    def __init__(self, rate: float = SEAT_POSTS_PER_S, burst: int = SEAT_POST_BURST,
                 clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (tokens, when)
        self._lock = threading.Lock()

    def allow(self, key: Hashable) -> bool:
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > 4096:  # old keys (games gone) are forgotten
                self._buckets.pop(next(iter(self._buckets)))
            return True


class LogLimit(logging.Filter):
    """At most ``burst`` records a ``window`` about the same fault; then one line saying
    how many were left out (a guest must not fill the SD card with the same line)."""

    def __init__(self, burst: int = LOG_BURST, window: float = LOG_WINDOW_S,
                 clock: Clock = time.monotonic) -> None:
        super().__init__()
        self.burst, self.window, self.clock = burst, window, clock
        self._seen: dict[tuple[str, str], tuple[float, int, int]] = {}  # start, kept, left out
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        with self._lock:
            start, kept, dropped = self._seen.get(key, (now, 0, 0))
            if now - start >= self.window:
                if dropped:
                    record.msg = (f"{record.msg} [{dropped} more like this in the last "
                                  f"{self.window:.0f} s were left out of the log]")
                start, kept, dropped = now, 0, 0
            if kept >= self.burst:
                self._seen[key] = (start, kept, dropped + 1)
                return False
            self._seen[key] = (start, kept + 1, dropped)
            if len(self._seen) > 1024:
                self._seen.pop(next(iter(self._seen)))
            return True


#: the loggers a guest can make speak: the server, Tornado's and asyncio's
GUARDED_LOGGERS = ("web", "tornado", "asyncio")


class GuardedLogLimit(LogLimit):
    """A ``LogLimit`` for the records of ``GUARDED_LOGGERS`` only (set on a handler, it
    sees every logger's records; the table's own lines pass)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.split(".")[0] not in GUARDED_LOGGERS:
            return True
        return super().filter(record)


def limit_logs(limit: LogLimit | None = None) -> LogLimit:
    """Put one ``GuardedLogLimit`` on every handler of the root logger (once; returns it).

    On the handlers, not the loggers: a logger's filter does not see its children's
    records (``tornado.general``, ``web.server``).
    """
    handlers = logging.getLogger().handlers
    for handler in handlers:
        for f in handler.filters:
            if isinstance(f, LogLimit):
                return f
    limit = limit or GuardedLogLimit()
    for handler in handlers:
        handler.addFilter(limit)
    return limit


__all__ = ["GuardedLogLimit", "LogLimit", "PostLimit", "TOO_FAST", "limit_logs"]
