"""The connection budget: how many sockets guests may hold, and room kept for the host.

Per-address limits are not a budget: a guest can give a laptop dozens of addresses in one
command (20 addresses x 64 slow connections used up the service's 1,024 open files, and
then new phones timed out and the host's actions failed). So the server keeps one budget
for the whole process, decided when a connection is accepted, before any file is read:

- at most ``total`` connections in all, below the process's open-file limit
  (``RLIMIT_NOFILE``, raised to its hard limit at start; the unit sets ``LimitNOFILE``)
  with ``FD_SPARE`` left for the store, the camera, logs and templates;
- a connection is *unproven* until its request head shows a valid host cookie or the
  cookie of a seat joined in the running game (checked in memory: the host token and the
  signing secret are read once); unproven connections may hold at most
  ``total - reserve``, at most ``per_address`` of them from one address;
- when guests hold their whole share, a new connection takes the place of the oldest
  unproven one that is not being answered (a slow head, an idle keep-alive, an unread
  stream): a new phone or the host always gets in, the flood only churns itself.

Proven connections do not count against their address: the host is never capped (only
``total``, the process's own limit, holds for everyone).
"""

from __future__ import annotations

import logging
import resource
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 2048
MAX_CONNECTIONS_PER_ADDRESS = 64
RESERVED = 256  # kept for the host and joined seats
FD_SPARE = 128  # open files kept for everything that is not a connection


def open_file_limit() -> int:
    """The process's open-file limit, raised to its hard limit first when allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def budget_for(nofile: int, wanted: int = MAX_CONNECTIONS,
               reserve: int = RESERVED) -> tuple[int, int]:
    """``(total, reserve)`` for a process allowed ``nofile`` open files."""
    total = max(16, min(wanted, nofile - FD_SPARE))
    return total, min(reserve, total // 2)


@dataclass(eq=False)
class Conn:
    """One open connection as the budget sees it."""

    stream: Any
    ip: str
    proven: bool = False
    busy: int = 0  # requests of it being answered now


class Budget:
    """Who holds which connection; ``admit`` decides at accept time."""

    def __init__(self, total: int, reserve: int,
                 per_address: int = MAX_CONNECTIONS_PER_ADDRESS) -> None:
        self.total, self.reserve, self.per_address = total, reserve, per_address
        self._unproven: dict[Any, Conn] = {}  # oldest first
        self._proven: dict[Any, Conn] = {}
        self._by_address: dict[str, int] = {}  # unproven connections per address
        self.evicted = 0
        self.refused = 0

    @property
    def open(self) -> int:
        return len(self._unproven) + len(self._proven)

    def of_address(self, ip: str) -> int:
        """How many unproven connections ``ip`` holds now."""
        return self._by_address.get(ip, 0)

    def admit(self, stream: Any, ip: str) -> bool:
        """Count ``stream`` of ``ip`` in, making room if guests hold their share; False:
        the caller closes it (its address holds its share, or nothing can give way)."""
        if self._by_address.get(ip, 0) >= self.per_address:
            self.refused += 1
            return False
        if self.open >= self.total or len(self._unproven) >= self.total - self.reserve:
            if not self._evict_one():
                self.refused += 1
                return False
        self._unproven[stream] = Conn(stream, ip)
        self._by_address[ip] = self._by_address.get(ip, 0) + 1
        return True

    def _evict_one(self) -> bool:
        for conn in self._unproven.values():
            if not conn.busy:
                self.forget(conn.stream)
                self.evicted += 1
                try:
                    conn.stream.close()
                except Exception:
                    log.debug("closing an evicted connection failed", exc_info=True)
                return True
        return False

    def prove(self, stream: Any) -> None:
        """``stream`` showed a host or seat cookie: it leaves the guests' share."""
        conn = self._unproven.pop(stream, None)
        if conn is not None:
            self._less(conn.ip)
            conn.proven = True
            self._proven[stream] = conn

    def busy(self, stream: Any, more: int) -> None:
        """A request of ``stream`` starts (+1) or ends (-1): it is not evicted meanwhile."""
        conn = self._unproven.get(stream) or self._proven.get(stream)
        if conn is not None:
            conn.busy = max(0, conn.busy + more)

    def streams(self) -> list[Any]:
        """Every stream still counted (to close them all when the server stops)."""
        return [*self._unproven, *self._proven]

    def forget(self, stream: Any) -> None:
        """``stream`` closed (safe twice)."""
        conn = self._unproven.pop(stream, None)
        if conn is not None:
            self._less(conn.ip)
        else:
            self._proven.pop(stream, None)

    def _less(self, ip: str) -> None:
        left = self._by_address.get(ip, 1) - 1
        if left > 0:
            self._by_address[ip] = left
        else:
            self._by_address.pop(ip, None)


__all__ = ["Budget", "MAX_CONNECTIONS", "MAX_CONNECTIONS_PER_ADDRESS", "RESERVED",
           "budget_for", "open_file_limit"]
