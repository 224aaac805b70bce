"""What one league app holds (``app.extensions["league"]``) and ``state()``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from flask import current_app
from psycopg_pool import ConnectionPool

from league.auth import Bucket, Guard
from league.rater import rate_pending

EXTENSION = "league"


@dataclass
class LeagueState:
    """The pool, the guard, the rate limits, and the rater's wake-up."""

    pool: ConnectionPool
    folder: Path
    guard: Guard
    pushes: Bucket
    joins: Bucket
    admin_posts: Bucket
    public_url: str = ""
    wake: threading.Event = field(default_factory=threading.Event)

    def rate_now(self) -> int:
        """Fold new results into the ratings now (the tests and the rater thread)."""
        return rate_pending(self.pool)


def make_state(pool: ConnectionPool, folder: Path, clock: Callable[[], float],
               public_url: str = "") -> LeagueState:
    return LeagueState(pool, folder, Guard(folder),
                       pushes=Bucket(rate=2.0, burst=30, clock=clock),
                       joins=Bucket(rate=0.1, burst=5, clock=clock),
                       admin_posts=Bucket(rate=1.0, burst=20, clock=clock),
                       public_url=public_url)


def state() -> LeagueState:
    return cast(LeagueState, current_app.extensions[EXTENSION])


__all__ = ["EXTENSION", "LeagueState", "make_state", "state"]
