"""Tornado requests as WSGI calls: the environment of a request, one Flask call, replies.

``web.server`` reads a request on its event loop and runs the Flask app on a pool
thread through ``call_wsgi``; the whole answer comes back as bytes (a live stream's
view returns at once with a ``web.stream.Push`` in the environment instead).
"""

from __future__ import annotations

import contextlib
import sys
from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask
from tornado import httputil
from tornado.iostream import StreamClosedError

from companion.wsgi_call import Environ, run_wsgi, status_code
from web.stream import PUSH_KEY, Push


def environ_of(request: httputil.HTTPServerRequest, bind: tuple[str, int]) -> Environ:
    """The WSGI environment of a Tornado request (PEP 3333)."""
    path = request.path or "/"
    environ: Environ = {
        "REQUEST_METHOD": request.method or "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": request.query or "",
        "REMOTE_ADDR": request.remote_ip or "",
        "SERVER_NAME": bind[0],
        "SERVER_PORT": str(bind[1]),
        "SERVER_PROTOCOL": request.version or "HTTP/1.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": request.protocol or "http",
        "wsgi.input": BytesIO(request.body or b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        PUSH_KEY: None,
    }
    for key, value in request.headers.get_all():
        if key.lower() == "content-type":
            environ["CONTENT_TYPE"] = value
        elif key.lower() == "content-length":
            environ["CONTENT_LENGTH"] = value
        else:
            name = "HTTP_" + key.replace("-", "_").upper()
            environ[name] = f"{environ[name]},{value}" if name in environ else value
    return environ


def call_wsgi(app: Flask, environ: Environ) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run the Flask app for one request on a pool thread; the whole body as bytes (none
    when the view handed the request to a live stream)."""
    status, headers, body = run_wsgi(
        app, environ, body=not isinstance(environ.get(PUSH_KEY), Push))
    return status_code(status), headers, body


def reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def plain(conn: Any, status: int, text: str) -> None:
    head = httputil.HTTPHeaders({"Content-Type": "text/plain; charset=utf-8",
                                 "Connection": "close", "Retry-After": "1"})
    with contextlib.suppress(StreamClosedError):
        conn.write_headers(httputil.ResponseStartLine("HTTP/1.1", status, reason(status)),
                           head, text.encode())
        conn.finish()


__all__ = ["Environ", "call_wsgi", "environ_of", "plain", "reason"]
