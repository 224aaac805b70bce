"""One WSGI call made whole: the app run once, its status, headers and body as bytes.

The table's dashboard (``web.server``) and the league's server (``league.server``) both
read a request on Tornado's event loop and run the Flask app for it on a pool thread.
This is that one call, so both do it the same way (PEP 3333: whatever the app writes
through ``start_response``'s ``write`` and whatever it returns, in that order, and the
answer's ``close()`` called even when reading it fails). Neither package may import the
other (``league-edges``, ``nothing-imports-league`` in pyproject.toml), so it lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Environ = dict[str, Any]
StartResponse = Callable[..., Callable[[bytes], Any]]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]


def run_wsgi(app: WsgiApp, environ: Environ, *,
             body: bool = True) -> tuple[str, list[tuple[str, str]], bytes]:
    """Call ``app`` for ``environ``: its status line (``"200 OK"``), headers and body.

    ``body=False`` closes the answer without reading it (a live stream's view answers
    at once and goes on elsewhere)."""
    found: dict[str, Any] = {}
    chunks: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Callable[[bytes], Any]:
        found["status"], found["headers"] = status, list(headers)
        return chunks.append

    answer = app(environ, start_response)
    try:
        if body:
            chunks.extend(answer)
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()
    return str(found["status"]), found["headers"], b"".join(chunks) if body else b""


def status_code(status: str) -> int:
    """The number of a WSGI status line: ``"404 NOT FOUND"`` → 404."""
    return int(status.split(" ", 1)[0])


__all__ = ["Environ", "WsgiApp", "run_wsgi", "status_code"]
