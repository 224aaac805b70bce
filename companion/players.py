"""League player cards at the table: what a card's QR code says, and cards the camera saw.

A league player card (printed from the league, ``/players/N/card``) carries a QR code
of the address ``<league>/c/<code>``: a phone's camera opens the player's league page;
the table reads the code after ``/c/`` and finds the player in the list of the league's
players it keeps (``companion.outbox``), whatever address the league was reached at.

``SCANS`` keeps the cards the table's camera saw lately (``companion.table`` hands it
every decoded tag that is not a game card): the setup page seats them.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

#: a card code as the league makes them (12 hex digits), or up to 40 letters and digits
_CODE = re.compile(r"[A-Za-z0-9_-]{1,40}")
_URL = re.compile(r"^https?://[^\s/]+(?:/[^\s]*)?/c/([A-Za-z0-9_-]{1,40})/?$")
#: a scan is offered to the setup page this long (seconds)
SCAN_TTL_S = 15 * 60.0


def card_code(payload: str) -> str | None:
    """The card code in a league player card's QR text, or None when it is not one."""
    m = _URL.match(payload.strip())
    return m.group(1) if m and _CODE.fullmatch(m.group(1)) else None


class Scans:
    """Player cards seen by the table's camera: card codes, newest last, each once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def saw(self, payload: str) -> bool:
        """Note a decoded QR text; whether it was a league player card."""
        code = card_code(payload)
        if code is None:
            return False
        with self._lock:
            self._seen.pop(code, None)
            self._seen[code] = self.clock()
        return True

    def recent(self) -> list[str]:
        """The card codes seen in the last ``SCAN_TTL_S``, oldest first."""
        now = self.clock()
        with self._lock:
            return [c for c, t in self._seen.items() if now - t < SCAN_TTL_S]

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


SCANS = Scans()

__all__ = ["SCANS", "SCAN_TTL_S", "Scans", "card_code"]
