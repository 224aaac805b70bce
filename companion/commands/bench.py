"""``companion bench [store|vision|web|league] [--json]``: the benchmarks (figures, not tests).

The benchmarks live in the top-level ``bench`` package, which the service never imports;
each is loaded here by module name, only when asked for.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

#: benchmark -> module with ``main(as_json) -> int`` / ``run(as_json) -> int``
BENCHES = {"store": "bench.store", "vision": "bench.vision", "web": "bench.web",
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


def _load(name: str) -> ModuleType | None:
    """The benchmark's module, or None (with a sentence on stderr) when it is not here."""
    module_name = BENCHES[name]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # only the benchmark itself (or the bench package) missing; a missing dependency
        # inside a benchmark that is here is a real fault and is raised
        if exc.name not in (module_name, "bench"):
            raise
    print(f"companion bench: the {name} benchmark is not available in this installation "
          f"(no module {module_name}); it ships with the source tree: run it from a "
          "clone with ./run companion bench", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    for flag in ("clients", "hostile", "events"):
        value = getattr(args, flag, None)
        if value is not None and not 0 <= value <= 5000:
            print(f"companion bench: --{flag} must be between 0 and 5000", file=sys.stderr)
            return 2
    names = list(BENCHES) if args.which == "all" else [args.which]
    status = 0
    for name in names:
        module = _load(name)
        if module is None:  # asked for by name: a failure; within "all": said and skipped
            status = max(status, 2 if args.which != "all" else 0)
            continue
        # ``main(as_json)`` where a module has one (web.bench's ``run`` takes a client
        # count), else ``run(as_json)``
        entry = getattr(module, "main", None) or module.run
        extra = {k: v for k in ("clients", "hostile", "events")
                 if (v := getattr(args, k, None)) is not None} if name == "web" else {}
        status = max(status, int(entry(args.json, **extra)))
    return status
