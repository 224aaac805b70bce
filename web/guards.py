"""Who may see and do what, request by request: CSRF, host and seat checks, cookies.

``web.auth`` makes and checks the tokens (host token, signed cookies, join tokens, CSRF
values); this module applies them to the current request. Views use the decorators
``host_required`` / ``seat_required`` and the checks ``is_host`` / ``seat_allowed``;
templates get ``csrf_token``. ``web.app.create_app`` runs ``check_csrf`` before every
request and ``finish_response`` after it (the CSRF cookie and the security headers).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Response, abort, g, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from web.auth import CSRF_COOKIE, SEAT_COOKIE, SEAT_MAX_AGE, same_origin
from web.context import state

F = TypeVar("F", bound=Callable[..., Any])

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)
HOST_ONLY = ("Host only: open the 'Host:' URL that companion serve printed "
             "(or run 'companion host').")
OTHER_SEAT = ("This is another player's seat. Scan your own join code on the host's screen "
              "to join your seat.")


# --- CSRF and cookies --------------------------------------------------------------------


def check_csrf() -> None:
    """Refuse a state-changing request without its CSRF token or from another site."""
    if request.method in SAFE_METHODS:
        return
    if not same_origin(request) or not state().guard.csrf_ok(request):
        abort(403, description="This request is missing its security token: reload the page.")


def csrf_token() -> str:
    """The CSRF token for this browser (sets its cookie on the response if new)."""
    cookie = request.cookies.get(CSRF_COOKIE) or getattr(g, "new_csrf", None)
    if not cookie:
        cookie = secrets.token_urlsafe(18)
        g.new_csrf = cookie
    return state().guard.csrf_for(cookie)


def set_cookie(resp: BaseResponse, name: str, value: str, max_age: int = SEAT_MAX_AGE,
               samesite: str = "Strict") -> None:
    """Set a cookie HttpOnly, SameSite=Strict (unless told), and Secure over https."""
    resp.set_cookie(name, value, max_age=max_age, httponly=True, samesite=samesite,
                    secure=request.is_secure, path="/")


def seat_cookie_name(seat: int) -> str:
    """The name of seat ``seat``'s cookie."""
    return SEAT_COOKIE.format(seat)


def finish_response(resp: Response) -> Response:
    """Set a new CSRF cookie, the security headers, and no caching of private pages."""
    new = getattr(g, "new_csrf", None)
    if new:
        set_cookie(resp, CSRF_COOKIE, new)
    resp.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "same-origin")  # the host token is in a URL
    resp.headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith(("/api/", "/host", "/seat", "/join")):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


# --- host and seats ----------------------------------------------------------------------


def is_host() -> bool:
    """Whether this request comes from the host's browser."""
    return state().guard.is_host(request)


def host_required(view: F) -> F:
    """403 unless the request carries the host cookie."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_host():
            abort(403, description=HOST_ONLY)
        return view(*args, **kwargs)

    return cast(F, wrapper)


def seat_allowed(seat: int) -> bool:
    """Whether this request holds ``seat``'s cookie for the running game."""
    st = state()
    return st.guard.has_seat(request, seat, st.table.hub.latest().game_id)


REJOIN = {
    "old_game": ("New game: scan your code again",
                 "A new game has started, so this phone is no longer a seat. Scan your own "
                 "join code on the host's screen to join the new game."),
    "replaced": ("Your seat was handed to another phone",
                 "The host showed this seat's code again, so the seat went to another phone "
                 "and this phone no longer shows its private view. If this is your seat, "
                 "ask the host to show its code and scan it with this phone."),
}


def seat_required(view: F) -> F:
    """403 unless the request holds the cookie of the seat in the URL (``n``).

    A phone whose cookie is of an earlier game, or of a seat the host re-issued, gets
    the rejoin page (nothing private) instead of "another player's seat".
    """

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        seat = int(kwargs["n"])
        if not seat_allowed(seat):
            st = state()
            hold = st.guard.seat_hold(request, seat, st.table.hub.latest().game_id)
            if hold in REJOIN and not request.path.startswith("/api/"):
                title, text = REJOIN[hold]
                page = render_template("error.html", code=403, name=title, description=text,
                                       rejoin=True)
                return Response(page, status=403, mimetype="text/html")
            abort(403, description=OTHER_SEAT)
        return view(*args, **kwargs)

    return cast(F, wrapper)


def my_seats() -> list[tuple[int, str]]:
    """The seats of the running game this browser joined: ``(seat, player name)``."""
    st = state()
    snap = st.table.hub.latest()
    players = list(snap.players)
    return [(n, players[n]) for n in st.guard.seats_of(request, snap.game_id, len(players))]


__all__ = ["HOST_ONLY", "OTHER_SEAT", "check_csrf", "csrf_token", "finish_response",
           "host_required", "is_host", "my_seats", "seat_allowed", "seat_cookie_name", "seat_required",
           "set_cookie"]
