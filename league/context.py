"""What one league app holds (``app.extensions["league"]``) and ``state()``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from flask import current_app
from psycopg_pool import ConnectionPool

from league.auth import Bucket, Guard
from league.rater import rate_pending
from league.store import TableAuth, digest, revoke, table_of

EXTENSION = "league"
PAGE_TTL_S = 2.0


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
    clock: Callable[[], float] = time.monotonic
    #: the league's own date and time (a push's times are checked against it)
    wall: Callable[[], float] = time.time
    wake: threading.Event = field(default_factory=threading.Event)
    #: table token (its hash) -> the table, so no query per push (``revoke`` forgets it)
    tables: dict[str, TableAuth] = field(default_factory=dict)
    #: the standings pages rendered by the rater, answered from memory by the server:
    #: URL -> (status, headers, body) (``league.server``)
    fast: dict[str, tuple[int, list[tuple[str, str]], bytes]] = field(default_factory=dict)
    #: something changed the standings (a merge, a revoked table): render them again
    pages_stale: bool = False
    #: rendered standings pages by game: (when, html), kept ``PAGE_TTL_S``. ``fast``
    #: answers only the exact URLs the rater renders; this one covers every other way
    #: of asking (``/?game=illegal&x=1``, the first second after a start), so a reader
    #: varying the query still costs one query per game every ``PAGE_TTL_S``
    pages: dict[str, tuple[float, str]] = field(default_factory=dict)

    def table(self, token: str) -> TableAuth | None:
        key = digest(token)
        found = self.tables.get(key)
        if found is None and token:
            found = table_of(self.pool, token)
            if found is not None:
                self.tables[key] = found
        return found

    def cached(self, key: str, render: Callable[[], str]) -> str:
        """The page ``key`` rendered at most ``PAGE_TTL_S`` ago (hundreds of phones
        reloading the standings cost one query a second, not one each)."""
        now = self.clock()
        hit = self.pages.get(key)
        if hit is not None and now - hit[0] < PAGE_TTL_S:
            return hit[1]
        html = render()
        if len(self.pages) > 100:
            self.pages.clear()
        self.pages[key] = (now, html)
        return html

    def rate_now(self, settle_s: float = 0.0, from_rater: bool = False) -> int:
        """Count and rate new results now (the tests, and the rater thread with
        ``settle_s``); how many games were rated."""
        n = rate_pending(self.pool, settle_s)
        self.pages.clear()
        if not from_rater:  # the pages in memory may be older: Flask answers until redrawn
            self.fast = {}
            self.pages_stale = True
            # and the rater thread draws them again: it may be drawing them from before
            # this pass right now (it clears ``pages_stale`` before it draws), and would
            # then answer those for ever, nothing else changing
            self.wake.set()
        return n

    def revoke(self, key: str) -> str | None:
        """Revoke table ``key`` (``league.store.revoke``); its token works no more."""
        name = revoke(self.pool, key)
        for token_hash, table in list(self.tables.items()):
            if table.key == key:
                del self.tables[token_hash]
        self.changed()
        return name

    def changed(self) -> None:
        """The standings changed outside a push: render them again now."""
        self.pages.clear()
        self.pages_stale = True
        self.wake.set()


def make_state(pool: ConnectionPool, folder: Path, clock: Callable[[], float],
               public_url: str = "", wall: Callable[[], float] = time.time) -> LeagueState:
    return LeagueState(pool, folder, Guard(folder),
                       pushes=Bucket(rate=2.0, burst=30, clock=clock),
                       joins=Bucket(rate=0.1, burst=5, clock=clock),
                       admin_posts=Bucket(rate=1.0, burst=20, clock=clock),
                       public_url=public_url, clock=clock, wall=wall)


def state() -> LeagueState:
    return cast(LeagueState, current_app.extensions[EXTENSION])


__all__ = ["EXTENSION", "LeagueState", "make_state", "state"]
