"""``companion replay RECORD.jsonl [--json]``: final state and outcome of a record."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.records import RecordError, replay_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, help="a game record (JSON Lines)")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object: game, state, outcome"
    )


def run(args: argparse.Namespace) -> int:
    path: Path = args.record
    try:
        result = replay_path(path)
    except RecordError as exc:
        print(f"{path}:{exc.line}: {exc.reason}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True))
        return 0
    engine = result.session.engine
    print(f"{engine.title}: {len(result.session.batches)} actions replayed")
    print(json.dumps(result.state, ensure_ascii=False, indent=2, sort_keys=True))
    if result.outcome is None:
        print("The game is not over.")
    else:
        names = result.session.setup.seats
        winners = ", ".join(names[i] for i in result.outcome.get("winner", []))
        print(f"Outcome: {winners or 'no winner'}")
        print(json.dumps(result.outcome, ensure_ascii=False, indent=2, sort_keys=True))
    return 0
