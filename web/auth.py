"""Who may see and do what: the host token, seat cookies, join tokens and CSRF.

The host token and the cookie-signing secret live in the state directory (mode 0600,
created on first use). A seat cookie is signed and bound to one game: a new game means
joining again, so last game's phone never sees this game's secrets. Join tokens are
one-time and kept in memory only. Every state-changing request must carry the CSRF
token of its browser (``X-CSRF-Token`` header or ``csrf_token`` form field).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from flask import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from companion.paths import read_or_create_secret, write_secret

HOST_TOKEN_FILE = "host_token"
SECRET_FILE = "web_secret"
#: seats' code generations and joined state (survive a restart)
SEATS_FILE = "seats.json"

log = logging.getLogger(__name__)
HOST_COOKIE = "tc_host"
#: The host cookie is SameSite=Lax, the others Strict: the host signs in from a link
#: (``/host?token=``) opened wherever it was, often another site or app, and the
#: sign-in's redirect to ``/host`` belongs to that cross-site navigation, which a Strict
#: cookie never joins (Chromium showed "Host only" after a valid sign-in,
#: tests/web/test_host_signin_browser.py). Lax still keeps the cookie off other sites'
#: POSTs, frames, images and scripts; every POST needs the CSRF token besides.
HOST_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE = "tc_csrf"
SEAT_COOKIE = "tc_seat{}"
SEAT_MAX_AGE = 60 * 60 * 24 * 30  # a month: long-lived, but bound to one game anyway
JOIN_MAX_AGE = 60 * 60 * 12


_read_or_create = read_or_create_secret


def host_token(state_dir: Path) -> str:
    """The host token of this table (created on first use)."""
    return _read_or_create(state_dir / HOST_TOKEN_FILE)


def secret_key(state_dir: Path) -> str:
    """The secret that signs seat and host cookies (created on first use)."""
    return _read_or_create(state_dir / SECRET_FILE)


def lan_address() -> str:
    """This machine's address on the local network, or ``<hostname>.local``.

    Asks the kernel which source address a route outward would use; nothing is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never contacted
            ip = str(s.getsockname()[0])
        except OSError:
            ip = ""
    if ip and not ip.startswith("127."):
        return ip
    return f"{socket.gethostname()}.local"


def public_host(host: str) -> str:
    """The host name phones should use for a server bound to ``host``."""
    if host in ("", "0.0.0.0", "::", "[::]"):
        return lan_address()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def host_line(state_dir: Path, host: str, port: int) -> str:
    """``Host: http://<lan address>:<port>/host?token=<token>`` for the terminal."""
    return f"Host: http://{public_host(host)}:{port}/host?token={host_token(state_dir)}"


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass
class JoinTokens:
    """One-time join tokens per (game, seat), in memory; a used token is gone.

    Each seat of a game has a *generation*: the host re-issuing a seat's code bumps it,
    which drops the seat's unused codes and makes the cookie of the phone that had
    joined it stale (that phone is told it was replaced). ``joined`` says which seats
    a phone holds now. With a ``path``, generations and joined seats are kept in that
    file, so a restart neither lets a replaced phone back in nor locks out its successor.
    """

    max_age: float = JOIN_MAX_AGE
    path: Path | None = None
    _tokens: dict[str, tuple[str, int, float]] = field(default_factory=dict)
    _generation: dict[tuple[str, int], int] = field(default_factory=dict)
    _joined: set[tuple[str, int]] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self._generation = {(str(g), int(s)): int(v) for g, s, v in data["generations"]}
            self._joined = {(str(g), int(s)) for g, s in data["joined"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("ignoring %s (%s): every seat keeps its first code", self.path, exc)

    def _save(self) -> None:
        """Write generations and joined seats (called with the lock held)."""
        if self.path is None:
            return
        data = {"generations": [[g, s, v] for (g, s), v in self._generation.items()],
                "joined": [[g, s] for g, s in self._joined]}
        write_secret(self.path, json.dumps(data), what="the seats")

    def for_seat(self, game_id: str, seat: int) -> str:
        """The unused token of ``seat`` in ``game_id`` (a new one if none is left)."""
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            for token, (g, s, _) in self._tokens.items():
                if g == game_id and s == seat:
                    return token
            token = secrets.token_urlsafe(12)
            self._tokens[token] = (game_id, seat, now)
            return token

    def peek(self, token: str) -> tuple[str, int] | None:
        """``(game_id, seat)`` of a valid token, without using it."""
        with self._lock:
            self._expire(time.monotonic())
            found = self._tokens.get(token)
        return None if found is None else (found[0], found[1])

    def consume(self, token: str) -> tuple[str, int] | None:
        """``(game_id, seat)`` of a valid token, which is then used up (the seat joined)."""
        with self._lock:
            self._expire(time.monotonic())
            found = self._tokens.pop(token, None)
            if found is not None and (found[0], found[1]) in self._joined:
                found = None  # a joined seat changes phones only when the host hands it over
            if found is not None:
                self._joined.add((found[0], found[1]))
                try:
                    self._save()
                except OSError as exc:  # the phone still joins; a restart forgets the join
                    log.error("cannot save the seats to %s: %s", self.path, exc)
        return None if found is None else (found[0], found[1])

    def generation(self, game_id: str, seat: int) -> int:
        """How many times the host re-issued ``seat``'s code in ``game_id``."""
        with self._lock:
            return self._generation.get((game_id, seat), 0)

    def joined(self, game_id: str, seat: int) -> bool:
        """Whether a phone joined ``seat`` of ``game_id`` (since its last re-issue)."""
        with self._lock:
            return (game_id, seat) in self._joined

    def reissue(self, game_id: str, seat: int) -> None:
        """A new code for ``seat``: its old codes and the phone that joined it stop working."""
        with self._lock:
            for token in [t for t, (g, s, _) in self._tokens.items()
                          if g == game_id and s == seat]:
                del self._tokens[token]
            before = dict(self._generation), set(self._joined)
            self._generation[(game_id, seat)] = self._generation.get((game_id, seat), 0) + 1
            self._joined.discard((game_id, seat))
            try:
                self._save()
            except OSError:  # not saved: the phone holding the seat keeps it
                self._generation, self._joined = before
                raise

    def _expire(self, now: float) -> None:
        for token in [t for t, (_, _, made) in self._tokens.items() if now - made > self.max_age]:
            del self._tokens[token]


#: what a browser's cookie says about one seat: it holds the seat now, it held it in an
#: earlier game, the host gave the seat a new code since, or no cookie at all
SeatHold = Literal["ok", "old_game", "replaced", "none"]


class Guard:
    """Signs and checks the cookies of one app (host, seats, CSRF)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self._secret = secret_key(state_dir)
        # read once: a request never touches a file to know the host (with every file
        # descriptor taken by guests, a per-request read made the host's actions fail)
        self._host_token = host_token(state_dir)
        self._signer = URLSafeTimedSerializer(self._secret, salt="table-companion")
        self.joins = JoinTokens(path=state_dir / SEATS_FILE)

    # --- host -----------------------------------------------------------------------

    def host_token_ok(self, token: str | None) -> bool:
        """Whether ``token`` is this table's host token (constant-time compare)."""
        return bool(token) and hmac.compare_digest(str(token).encode(errors="replace"),
                                                   self._host_token.encode())

    def host_cookie(self) -> str:
        return self._signer.dumps({"h": _fingerprint(self._host_token)})

    def is_host(self, request: Request) -> bool:
        """Whether the request carries a valid host cookie (for the current host token)."""
        data = self._loads(request.cookies.get(HOST_COOKIE), SEAT_MAX_AGE)
        want = _fingerprint(self._host_token)
        return data is not None and hmac.compare_digest(str(data.get("h", "")), want)

    # --- seats ----------------------------------------------------------------------

    def seat_cookie(self, game_id: str, seat: int) -> str:
        return self._signer.dumps({"g": game_id, "s": seat,
                                   "v": self.joins.generation(game_id, seat)})

    def seat_hold(self, request: Request, seat: int, game_id: str | None) -> SeatHold:
        """What the request's cookie for ``seat`` says about game ``game_id``."""
        data = self._loads(request.cookies.get(SEAT_COOKIE.format(seat)), SEAT_MAX_AGE)
        if data is None or data.get("s") != seat:
            return "none"
        if game_id is None or data.get("g") != game_id:
            return "old_game"
        if data.get("v", 0) != self.joins.generation(game_id, seat):
            return "replaced"
        return "ok"

    def has_seat(self, request: Request, seat: int, game_id: str | None) -> bool:
        """Whether the request holds seat ``seat``'s cookie for game ``game_id``."""
        if game_id is None or seat < 0:
            return False
        return self.seat_hold(request, seat, game_id) == "ok"

    def stale_seats(self, request: Request, game_id: str | None) -> list[tuple[int, SeatHold]]:
        """Seats this browser held before (an earlier game, or replaced): ``(seat, why)``."""
        out: list[tuple[int, SeatHold]] = []
        for name in request.cookies:
            if name.startswith(SEAT_COOKIE.format("")) and name[len(SEAT_COOKIE) - 2:].isdigit():
                seat = int(name[len(SEAT_COOKIE) - 2:])
                hold = self.seat_hold(request, seat, game_id)
                if hold in ("old_game", "replaced"):
                    out.append((seat, hold))
        return sorted(out)

    def seats_of(self, request: Request, game_id: str | None, n_seats: int) -> list[int]:
        """The seats of ``game_id`` this browser has joined."""
        return [s for s in range(n_seats) if self.has_seat(request, s, game_id)]

    # --- CSRF -----------------------------------------------------------------------

    def csrf_for(self, cookie_value: str) -> str:
        """The CSRF token that goes with a browser's CSRF cookie."""
        return hmac.new(self._secret.encode(), cookie_value.encode(errors="replace"),
                        "sha256").hexdigest()

    def csrf_ok(self, request: Request) -> bool:
        """Whether a state-changing request carries its browser's CSRF token."""
        cookie = request.cookies.get(CSRF_COOKIE)
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        if not cookie or not sent:
            return False
        return hmac.compare_digest(sent.encode(errors="replace"), self.csrf_for(cookie).encode())

    def _loads(self, value: str | None, max_age: int) -> dict[str, Any] | None:
        if not value:
            return None
        try:
            data = self._signer.loads(value, max_age=max_age)
        except BadSignature:
            return None
        return data if isinstance(data, dict) else None


def same_origin(request: Request) -> bool:
    """False when the browser says the request comes from another site.

    Uses ``Sec-Fetch-Site`` and ``Origin`` when the browser sends them; ``Origin: null``
    (privacy modes) proves nothing either way, so the CSRF token decides.
    """
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        return False
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        return True
    return origin.rstrip("/") == request.host_url.rstrip("/")
