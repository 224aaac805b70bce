"""systemd notifications (``Type=notify``): READY, STATUS, WATCHDOG, STOPPING.

``notify("READY=1")`` sends one datagram to ``$NOTIFY_SOCKET``; without systemd (the
variable unset) it does nothing and returns False. ``Watchdog`` pings ``WATCHDOG=1``
only while the table loop's heartbeat is recent, so a hung loop stops the pings and
systemd restarts the service (``WatchdogSec=`` in systemd/companion.service).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to systemd; False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket: the name starts with a NUL byte
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.settimeout(2.0)  # never hang the caller on a full socket queue
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as exc:
        log.warning("cannot notify systemd at %s: %s", address, exc)
        return False
    return True


def watchdog_interval() -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds (systemd's advice), or None when not asked.

    ``$WATCHDOG_PID``, when set, must be this process: a child must not ping for it.
    """
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid.isdigit() and int(pid) != os.getpid()):
        return None
    try:
        return int(usec) / 2e6
    except ValueError:
        return None


class HasHeartbeat(Protocol):
    """The table loop sets ``heartbeat`` to ``clock()`` on every turn of its loop."""

    heartbeat: float
    clock: Callable[[], float]


class Watchdog:
    """A thread that sends ``WATCHDOG=1`` every ``interval`` s while the table is alive.

    The table counts as alive while ``table.clock() - table.heartbeat < stale_after``
    (the loop turns at least every 0.5 s). When it goes stale the pings stop and
    ``STATUS=`` says why, so systemd's watchdog restarts the service.
    """

    def __init__(self, table: HasHeartbeat, interval: float,
                 stale_after: float | None = None) -> None:
        self.table = table
        self.interval = interval
        self.stale_after = stale_after if stale_after is not None else max(2.0, 2 * interval)
        self.pings = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._stale_reported = False

    def alive(self) -> bool:
        return self.table.clock() - self.table.heartbeat < self.stale_after

    def beat(self) -> bool:
        """One check: ping if alive; True when a ping was sent.

        A table whose loop thread ended is started again from the store first
        (``ensure_running``); only a loop that then really turns is pinged for.
        """
        revive = getattr(self.table, "ensure_running", None)
        if revive is not None:
            try:
                revive()
            except Exception:
                log.exception("could not start the table loop again")
        if self.alive():
            self._stale_reported = False
            if notify("WATCHDOG=1"):
                self.pings += 1
                return True
            return False
        if not self._stale_reported:
            self._stale_reported = True
            log.error("the table loop has not turned for %.1f s: watchdog pings stop",
                      self.table.clock() - self.table.heartbeat)
            notify("STATUS=table loop not responding; systemd will restart it")
        return False

    def start(self) -> Watchdog:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.beat()

    def stop(self) -> None:
        """Stop pinging (safe twice)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.interval + 1.0)
            self._thread = None

    def __enter__(self) -> Watchdog:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
