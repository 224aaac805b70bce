"""A save that the disk refused, told to the person instead of a 500.

Every save under the state folder goes through :func:`companion.atomic.write_atomic`,
which raises :class:`companion.atomic.SaveError` with a sentence saying what went wrong
(the disk is full, the card is read-only, the folder is not ours) and what to do. Any
route whose save fails answers with that sentence: ``{"accepted": false, "reason": ...}``
for the API, the readable error page for people, with status 507 (Insufficient
Storage). Nothing was changed on disk, so nothing is claimed as saved.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, render_template, request

from companion.atomic import SaveError

log = logging.getLogger(__name__)

#: HTTP 507 Insufficient Storage: the server could not store what the request needed
STATUS = 507


def not_saved(exc: SaveError) -> tuple[Any, int]:
    """The refused save in words: JSON for ``/api/``, the error page otherwise."""
    log.error("not saved on %s %s: %s (%s)", request.method, request.path, exc.reason,
              exc.path)
    if request.path.startswith("/api/"):
        return jsonify({"accepted": False, "reason": exc.reason, "error": "Not saved"}), STATUS
    return render_template("error.html", code=STATUS, name="Not saved",
                           description=exc.reason), STATUS


def install(app: Flask) -> None:
    """Answer every route's :class:`SaveError` with :func:`not_saved`."""
    app.register_error_handler(SaveError, not_saved)


__all__ = ["STATUS", "install", "not_saved"]
