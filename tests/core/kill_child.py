"""A table process for the kill test: plays on a real SQLite file, prints every ack.

Run as ``python -m tests.core.kill_child DB``. It resumes the open game (or starts
one), then submits actions as fast as it can; after each accepted one it prints
``ACK <id>`` and flushes, so the parent knows what was acknowledged before SIGKILL.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from companion import games
from companion.inputs import Command
from companion.store import SqliteStore
from companion.table import Table
from tests.core import tally


def main(db: Path) -> None:
    games.register(tally.engine)
    table = Table(SqliteStore(db))
    table.start()
    if table.session is None:
        args = {"game": "tally", "players": 3, "options": {"target": 10**9, "hesitation_s": 0.05}}
        assert table.submit(Command("start", args)).result(300).accepted
    k = 0
    while True:
        k += 1
        if k % 7 == 0:
            time.sleep(0.08)  # longer than hesitation_s: the clock penalises a seat
        turn = table.hub.latest().public["turn"]
        action = {"do": "add", "seat": turn, "n": k % 9 + 1, "id": f"{os.getpid()}-{k}"}
        result = table.submit(Command("action", {"action": action})).result(300)
        if result.accepted:
            sys.stdout.write(f"ACK {action['id']}\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
