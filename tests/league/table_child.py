"""A table process for the league's end-to-end test: its own event store and outbox on
disk, games finishing one after another, results pushed to the league over HTTP.

``python -m tests.league.table_child STATE_DIR LEAGUE_URL JOIN_CODE INDEX GAMES``: joins
the league on its first start (the link is kept in the outbox), then stores finished
games until it has ``GAMES`` (a restart goes on where it was), pushing as it goes with
the real ``http_send`` and a short backoff. Prints ``STORED n`` after each game and
``DONE`` once every game is stored and none waits; it then goes on pushing (nothing).
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from companion import outbox
from companion.outbox import Outbox, http_send, join_league
from companion.store import SqliteStore
from tests.league.tables import FINISHED, record_lines, seats_of, store_game

PEOPLE = ["Ana", "Ben", "Cem", "Dee", "Eli", "Fay", "Gus"]


def plan(index: int, k: int) -> list[str]:
    """The record of this table's ``k``th game, seats named from ``PEOPLE``."""
    game, name = FINISHED[(index + k) % len(FINISHED)]
    n = seats_of(game, name)
    start = (index * 2 + k) % len(PEOPLE)
    players = [PEOPLE[(start + j) % len(PEOPLE)] for j in range(n)]
    return record_lines(game, name, players)


def main(folder: Path, url: str, code: str, index: int, total: int) -> None:
    store = SqliteStore(folder / "events.sqlite3")
    store.lock()
    # pushes while the league is down are retried 0.2, 0.4, 0.8 s apart, then every
    # second (the outbox's doubling, capped: the product's cap is an hour): the league is
    # back within seconds here, and the test waited up to 6.4 s more for the next try
    outbox.BACKOFF_MAX_S = 1.0
    box = Outbox(folder / "outbox.sqlite3", first_backoff=0.2)
    if box.link() is None:
        box.set_link(join_league(url, code), time.time())
    pause = threading.Event()
    said_done = False
    while True:
        have = len(store.games())
        if have < total:
            store_game(store, plan(index, have))
            print(f"STORED {have + 1}", flush=True)
        box.collect(store)
        box.push_due(time.time(), http_send)
        status = box.status()
        if have >= total and status.pending == 0 and not said_done:
            print("DONE", flush=True)
            said_done = True
        pause.wait(0.05)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
