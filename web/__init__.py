"""The web dashboard: the live table on every phone, private seat views, host controls.

``create_app(table, web_config=..., state_dir=...)`` builds the Flask app;
``web.server.serve(app, host, port, threads)`` serves it (cheroot, SSE unbuffered);
``web.auth.host_line(state_dir, host, port)`` is the ``Host:`` line with the host token.
"""

from __future__ import annotations

from web.app import create_app

__all__ = ["create_app"]
