"""``companion export [GAME_ID] [--out FILE] [--store FILE]``: a stored game as a record.

The store is opened read-only, so games can be rescued from a read-only state folder or
SD card, and from a damaged store that the table moved aside (``--store``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.paths import state_dir
from companion.records import export_lines
from companion.store import SqliteStore, StoreError, sqlite_failure


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", nargs="?", help="the game to export (omit to list games)")
    parser.add_argument("--out", type=Path, help="write to this file instead of stdout")
    parser.add_argument("--store", type=Path, metavar="FILE",
                        help="read the games from this file (e.g. a damaged store the table "
                             "kept as events-damaged-DATE.sqlite3) instead of the state "
                             "folder's")


def run(args: argparse.Namespace) -> int:
    path = args.store or state_dir(create=False) / "events.sqlite3"
    try:
        store = SqliteStore.reader(path)
    except StoreError as exc:
        print(f"cannot export: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # the state folder itself cannot be read
        print(f"cannot export: {sqlite_failure(exc, 'open the state folder')}", file=sys.stderr)
        return 1
    try:
        if not args.game_id:
            for g in store.games():
                status = "closed" if g.closed else "open"
                print(f"{g.game_id}  {g.game:<12} {status:<6} {', '.join(g.seats)}")
            return 0
        lines = export_lines(store, args.game_id)
    except (StoreError, LookupError) as exc:
        print(f"cannot export: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    text = "\n".join(lines) + "\n"
    if args.out:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"cannot write {args.out}: {exc.strerror}; choose another --out",
                  file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0
