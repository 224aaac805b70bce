"""``companion bench [store|vision|web] [--json]``: the benchmarks (figures, not tests)."""

from __future__ import annotations

import argparse
import importlib
import sys

#: benchmark -> module with ``main(as_json) -> int`` / ``run(as_json) -> int``
BENCHES = {"store": "companion.bench_store", "vision": "vision.bench", "web": "web.bench"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("which", nargs="?", choices=[*BENCHES, "all"], default="all",
                        help="which benchmark (default: all)")
    parser.add_argument("--json", action="store_true", help="print figures as JSON")


def run(args: argparse.Namespace) -> int:
    names = list(BENCHES) if args.which == "all" else [args.which]
    status = 0
    for name in names:
        try:
            module = importlib.import_module(BENCHES[name])
        except ModuleNotFoundError as exc:
            if exc.name != BENCHES[name]:
                raise
            print(f"not available yet: the {name} benchmark is not built yet", file=sys.stderr)
            status = max(status, 2)
            continue
        entry = getattr(module, "run", None) or module.main
        status = max(status, int(entry(args.json)))
    return status
