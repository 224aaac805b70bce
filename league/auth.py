"""Who may do what in the league: the admin token, table tokens, CSRF, rate limits.

- The admin token lives in the league's folder (mode 0600, made on first start); the
  admin opens ``/admin?token=...`` once and gets a signed cookie.
- A table's token is given once when it joins and stored only as a hash
  (``league.store``); a push names no table: the token says which table it is, so a
  table writes only its own games.
- Every form carries the CSRF token of its browser (a cookie and an HMAC of it), as in
  ``web/``; the JSON API is for tables and needs a token in ``Authorization``.
- Writes are rate limited per table and per address (a token bucket on an injected
  clock).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from flask import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from companion.paths import read_or_create_secret

ADMIN_TOKEN_FILE = "league_admin_token"
SECRET_FILE = "league_secret"
ADMIN_COOKIE = "lg_admin"
CSRF_COOKIE = "lg_csrf"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30


read_or_create = read_or_create_secret


def admin_token(folder: Path) -> str:
    return read_or_create(folder / ADMIN_TOKEN_FILE)


@dataclass
class Bucket:
    """A token bucket per key: ``rate`` requests a second, bursts of ``burst``."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    _state: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            tokens, last = self._state.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if len(self._state) > 10000:  # forget the oldest keys: memory stays bounded
                self._state.clear()
            if tokens < 1:
                self._state[key] = (tokens, now)
                return False
            self._state[key] = (tokens - 1, now)
            return True


class Guard:
    """Signs and checks the admin cookie and CSRF tokens of one league app."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._secret = read_or_create(folder / SECRET_FILE)
        self._signer = URLSafeTimedSerializer(self._secret, salt="table-companion-league")

    def admin_ok(self, token: str | None) -> bool:
        want = admin_token(self.folder)
        return bool(token) and hmac.compare_digest(str(token).encode(errors="replace"),
                                                   want.encode())

    def admin_cookie(self) -> str:
        return self._signer.dumps({"a": self._fingerprint()})

    def is_admin(self, request: Request) -> bool:
        value = request.cookies.get(ADMIN_COOKIE)
        if not value:
            return False
        try:
            data = self._signer.loads(value, max_age=COOKIE_MAX_AGE)
        except BadSignature:
            return False
        return isinstance(data, dict) and hmac.compare_digest(str(data.get("a", "")),
                                                              self._fingerprint())

    def _fingerprint(self) -> str:
        return hashlib.sha256(admin_token(self.folder).encode()).hexdigest()[:24]

    def csrf_for(self, cookie: str) -> str:
        return hmac.new(self._secret.encode(), cookie.encode(errors="replace"),
                        "sha256").hexdigest()

    def csrf_ok(self, request: Request) -> bool:
        cookie = request.cookies.get(CSRF_COOKIE)
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        if not cookie or not sent:
            return False
        return hmac.compare_digest(sent.encode(errors="replace"), self.csrf_for(cookie).encode())


def bearer(request: Request) -> str:
    """The token of ``Authorization: Bearer <token>``, or ""."""
    value = request.headers.get("Authorization", "")
    kind, _, token = value.partition(" ")
    return token.strip() if kind.lower() == "bearer" else ""


__all__ = ["ADMIN_COOKIE", "Bucket", "CSRF_COOKIE", "Guard", "admin_token", "bearer",
           "read_or_create"]
