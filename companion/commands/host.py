"""``companion host``: the host URL (with its token) of the table running as a service.

Prints the same ``Host: http://<address>:<port>/host?token=<token>`` line that
``companion serve`` prints at startup. The token lives in the state directory (mode
0600), so run it as the user the service runs as.
"""

from __future__ import annotations

import argparse
import socket
import sys

from companion.config import ConfigError, load_config
from companion.paths import default_config_path, state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="the configuration file (default: the service's)")


def _answering(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from web.auth import host_line

    path = Path(args.config) if getattr(args, "config", None) else default_config_path()
    try:
        web = load_config(path).web
        line = host_line(state_dir(), web.host, web.port)
    except ConfigError as exc:
        print(f"cannot read the configuration: {exc}", file=sys.stderr)
        return 1
    except PermissionError as exc:
        print(f"cannot read the host token ({exc.filename}): run this as the user the "
              "service runs as, e.g. 'sudo -u companion companion host'", file=sys.stderr)
        return 1
    print(line)
    if not _answering(web.port):
        print(f"note: nothing answers on port {web.port} yet; start the table with "
              "'companion serve' (or 'systemctl start table-companion').", file=sys.stderr)
    return 0
