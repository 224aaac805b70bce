"""The web dashboard: the live table on every phone, private seat views, host controls.

``create_app(table, web_config=..., state_dir=...)`` builds the Flask app;
``web.server.serve(app, host, port, threads)`` serves it (Tornado: Flask on a small thread pool, every live stream on one event loop);
``web.auth.host_line(state_dir, host, port)`` is the ``Host:`` line with the host token.

Imports go one way: ``web.app`` (the factory) imports the blueprints (``public``,
``seat``, ``host``, ``api``, ``stream``, ``camera``); they import the helpers
``web.guards`` (access checks), ``web.context`` (``WebState``, ``state()``),
``web.render`` and ``web.scores`` (presentation) and ``web.auth`` (tokens), never the
factory. The web layer uses only the table's public API (``companion.table``,
``companion.inputs``, ``companion.records``, ...), never a game's internals or hardware
(the benchmark, ``bench.web``, is outside the package).
"""

from __future__ import annotations

from web.app import create_app

__all__ = ["create_app"]
