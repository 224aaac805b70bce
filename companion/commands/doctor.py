"""``companion doctor [--demo] [--json]``: self-test of camera, decoder, GPIO, storage,
network and Pi power; a table of OK/WARN/FAIL with the fix for each problem.

Exit status 1 when any row FAILs. No camera and no GPIO are WARN, not FAIL: the table
then runs as ``companion serve --demo``, and the ``demo`` row says whether it would.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.config import ConfigError, load_config
from companion.doctor import Check, Level
from companion.doctor_hw import exit_status, run_checks
from companion.paths import default_config_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="check only what `companion serve --demo` needs")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--config", type=Path, default=None,
                        help="the config file (default: $TABLE_COMPANION_CONFIG, "
                        "/etc/table-companion/config.toml, or the state dir's)")


def render(rows: list[Check]) -> str:
    """The rows as a fixed-width table; each problem's fix on the line below it."""
    width_area = max(len(r.area) for r in rows)
    width_item = max(len(r.item) for r in rows)
    lines = []
    for r in rows:
        lines.append(f"{r.level.value:<4}  {r.area:<{width_area}}  {r.item:<{width_item}}  "
                     f"{r.detail}")
        if r.fix and r.level is not Level.OK:
            lines.append(f"{'':<4}  {'':<{width_area}}  {'':<{width_item}}  -> {r.fix}")
    fails = sum(r.level is Level.FAIL for r in rows)
    warns = sum(r.level is Level.WARN for r in rows)
    lines.append(f"\n{fails} failed, {warns} warning(s), "
                 f"{len(rows) - fails - warns} ok")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    path: Path = args.config or default_config_path()
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    rows = run_checks(config, demo=args.demo)
    status = exit_status(rows)
    if args.json:
        print(json.dumps({"config": str(path), "ok": status == 0,
                          "checks": [r.to_json() for r in rows]}, indent=2))
    else:
        print(f"Table Companion doctor (config: {path}"
              f"{'' if path.exists() else ', not found: defaults'})\n")
        print(render(rows))
    return status
