"""``companion league serve``: the league server (PostgreSQL), on any laptop or server.

The only module of companion/web/vision/hardware that imports ``league``: the Pi never
loads it. ``--db`` (or ``LEAGUE_DATABASE_URL``) names the PostgreSQL database; the
league's secrets (admin token, cookie key) live in ``--dir``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from companion.paths import state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="league_command", metavar="ACTION")
    serve = sub.add_parser("serve", help="run the league server")
    serve.add_argument("--db", default=os.environ.get("LEAGUE_DATABASE_URL", ""),
                       help="PostgreSQL, e.g. postgresql://league@localhost/league "
                            "(default: $LEAGUE_DATABASE_URL)")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=8090, help="port (default 8090)")
    serve.add_argument("--dir", type=Path, default=None,
                       help="folder for the league's secrets (default: the state folder)")
    serve.add_argument("--url", default="",
                       help="the address tables reach the league at (for join codes)")
    serve.add_argument("--threads", type=int, default=16, help="request threads")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "league_command", None) != "serve":
        print("usage: companion league serve --db postgresql://... [--port 8090]",
              file=sys.stderr)
        return 2
    if not args.db:
        print("companion league serve: say which PostgreSQL database to use with --db "
              "postgresql://user@host/dbname (or set LEAGUE_DATABASE_URL)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from league.app import create_app
    from league.auth import admin_token
    from league.db import DatabaseError, open_pool
    from league.server import READ_THREADS, serve

    folder = args.dir or state_dir() / "league"
    try:  # a connection for each writer thread, each reader thread and the rater
        pool = open_pool(args.db, size=max(4, min(args.threads, 32)) + READ_THREADS + 1)
    except DatabaseError as exc:
        print(f"companion league serve: {exc}", file=sys.stderr)
        return 1
    app = create_app(pool, folder, public_url=args.url.rstrip("/"))
    shown = args.host if args.host not in ("", "0.0.0.0", "::") else "localhost"

    def ready(port: int) -> None:
        print(f"League: http://{shown}:{port}/", flush=True)
        print(f"Admin: http://{shown}:{port}/admin?token={admin_token(folder)}", flush=True)

    try:
        serve(app, args.host, args.port, threads=args.threads, on_ready=ready)
    finally:
        pool.close()
    return 0
