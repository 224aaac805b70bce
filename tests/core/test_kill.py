"""Crash safety: SIGKILL a real table process at random moments, restart, check.

Every acknowledged action must be stored exactly once, seq numbers contiguous, and
the state rebuilt from the store must equal a clean replay of the exported record.

Each table process is a fresh process (``tests.core.kill_child``), forked from a
multiprocessing fork server that imported it once: starting Python and importing the
engines took about a second of CPU per trial (24 of them), before anything the test is
about (what the child opens, stores and acknowledges) began.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.records import replay_lines
from companion.store import SqliteStore, latest_open_game
from companion.table import Table
from tests.core import kill_child

from . import tally

ROOT = Path(__file__).resolve().parents[2]
TRIALS = 24


def _children() -> Any:
    """The fork server's context: every table process is forked from one process that
    imported this module (and so ``kill_child``, the engines and the store) once."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx


def _table_process(db: str, out: Connection, err: Connection) -> None:
    """The forked table process: ``kill_child.main`` with the test's pipes as its
    stdout and stderr (it writes ``ACK <id>`` and flushes after each stored action)."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the process's own stdout
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
    kill_child.main(Path(db))


def _read_all(conn: Connection) -> bytes:
    chunks = []
    while True:
        chunk = os.read(conn.fileno(), 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def run_and_kill(db: Path, delay: float) -> list[str]:
    ctx = _children()
    out_r, out_w = ctx.Pipe(duplex=False)
    err_r, err_w = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_table_process, args=(str(db), out_w, err_w), daemon=True)
    proc.start()
    out_w.close()  # the child holds the writing ends now: EOF once it is gone
    err_w.close()
    stdout = os.fdopen(os.dup(out_r.fileno()), "rb")
    try:
        # the kill falls ``delay`` seconds after the child's first acknowledgement, not
        # after its start: starting takes seconds on a loaded Pi or under emulation (a
        # fixed delay from the start killed the child before it acknowledged anything)
        first = stdout.readline()
        time.sleep(delay)
        assert proc.pid is not None
        with contextlib.suppress(ProcessLookupError):  # it ended by itself: said below
            os.kill(proc.pid, signal.SIGKILL)
        proc.join(120)
        out = stdout.read()
    finally:
        stdout.close()
    err = _read_all(err_r)
    out_r.close()
    err_r.close()
    assert proc.exitcode == -signal.SIGKILL, err.decode()
    lines = (first + out).decode().split("\n")
    # only complete lines count: a line cut by the kill was never fully acknowledged
    return [line[4:] for line in lines[:-1] if line.startswith("ACK ")]


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_event(tmp_path: Path) -> None:
    games.register(tally.engine)
    db = tmp_path / "events.sqlite3"
    rng = random.Random(1234)
    acked: list[str] = []
    for _ in range(TRIALS):
        acked += run_and_kill(db, rng.uniform(0.1, 1.1))
    assert len(acked) > TRIALS, "the child should have acknowledged many actions"

    store = SqliteStore(db)
    info = latest_open_game(store)
    assert info is not None
    rows = store.events(info.game_id)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    stored_ids = [r.payload["id"] for r in rows if r.type == "ActionTaken"]
    assert len(stored_ids) == len(set(stored_ids)), "an action was stored twice"
    missing = set(acked) - set(stored_ids)
    assert not missing, f"acknowledged but lost: {sorted(missing)[:5]}"
    assert any(r.type == "DeadlineReached" for r in rows), "deadlines should have fired too"

    table = Table(store)  # the restart: rebuilt by folding the stored events
    assert table.session is not None
    clean = replay_lines(table.record_lines())
    assert clean.session.state == table.session.state
    store.close()
