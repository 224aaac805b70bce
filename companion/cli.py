"""The ``companion`` command line: one subcommand per module in ``companion.commands``.

Each module ``companion/commands/<name>.py`` defines ``add_arguments(parser)`` and
``run(args) -> int``. A subcommand whose module does not exist yet exits 2 with
"not available yet", never with fake output.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import __version__

#: subcommand -> one-line help (the contract in DESIGN.md)
COMMANDS: dict[str, str] = {
    "serve": "run the table: camera, buttons, dashboard (--demo: no hardware needed)",
    "host": "print the host URL (with its token) of a running table",
    "replay": "final state and outcome of a game record (JSON Lines)",
    "export": "write a stored game as a record",
    "deck": "make and list decks (each with its own secret key)",
    "tags": "printable tag sheets and a calibration card (PDF)",
    "scan": "tags found in photos or videos",
    "doctor": "self-test: camera, decoder, GPIO, storage, network",
    "bench": "the benchmarks: store, vision, web",
    "league": "the league server: many tables, one league on PostgreSQL",
}


def _module(name: str) -> ModuleType | None:
    qualified = f"companion.commands.{name}"
    try:
        return importlib.import_module(qualified)
    except ModuleNotFoundError as exc:
        if exc.name != qualified:
            raise
        return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: reads tagged cards, tracks the rules, serves the table.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        module = _module(name)
        if module is not None:
            module.add_arguments(p)
        else:
            p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = _module(args.command)
    if module is None:
        print(f"not available yet: 'companion {args.command}' is not built yet", file=sys.stderr)
        return 2
    try:
        result: int = module.run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last net: a person gets a sentence, not a traceback
        if os.environ.get("COMPANION_DEBUG"):
            raise
        logging.getLogger("companion").debug("companion %s failed", args.command, exc_info=True)
        print(f"companion {args.command}: {type(exc).__name__}: {exc}. This is a bug: run it "
              "again with COMPANION_DEBUG=1 to see where, and report it.", file=sys.stderr)
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
