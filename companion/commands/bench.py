"""``companion bench [store|vision|web|league] [--json]``: the benchmarks (figures, not tests)."""

from __future__ import annotations

import argparse
import importlib
import sys

#: benchmark -> module with ``main(as_json) -> int`` / ``run(as_json) -> int``
BENCHES = {"store": "companion.bench_store", "vision": "vision.bench", "web": "bench.web",
           "league": "bench.league"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("which", nargs="?", choices=[*BENCHES, "all"], default="all",
                        help="which benchmark (default: all)")
    parser.add_argument("--json", action="store_true", help="print figures as JSON")
    parser.add_argument("--clients", type=int, default=None, metavar="N",
                        help="web only: how many live-stream clients (default 500)")
    parser.add_argument("--hostile", type=int, default=None, metavar="N",
                        help="web only: how many connections the hostile guest tries "
                             "(default 300; 0: none)")
    parser.add_argument("--events", type=int, default=None, metavar="N",
                        help="web only: how many snapshots to send (default 100)")


def run(args: argparse.Namespace) -> int:
    for flag in ("clients", "hostile", "events"):
        value = getattr(args, flag, None)
        if value is not None and not 0 <= value <= 5000:
            print(f"companion bench: --{flag} must be between 0 and 5000", file=sys.stderr)
            return 2
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
        # ``main(as_json)`` where a module has one (web.bench's ``run`` takes a client
        # count), else ``run(as_json)``
        entry = getattr(module, "main", None) or module.run
        extra = {k: v for k in ("clients", "hostile", "events")
                 if (v := getattr(args, k, None)) is not None} if name == "web" else {}
        status = max(status, int(entry(args.json, **extra)))
    return status
