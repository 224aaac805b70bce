"""Crash safety: SIGKILL a real table process at random moments, restart, check.

Every acknowledged action must be stored exactly once, seq numbers contiguous, and
the state rebuilt from the store must equal a clean replay of the exported record.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import games
from companion.records import replay_lines
from companion.store import SqliteStore, latest_open_game
from companion.table import Table

from . import tally

ROOT = Path(__file__).resolve().parents[2]
TRIALS = 24


def run_and_kill(db: Path, delay: float) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.core.kill_child", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env,
    )
    assert proc.stdout is not None
    # the kill falls ``delay`` seconds after the child's first acknowledgement, not after
    # its start: starting Python takes seconds on a loaded Pi or under emulation (a fixed
    # delay from the start killed the child before it acknowledged anything there)
    first = proc.stdout.readline()
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL, err.decode()
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
