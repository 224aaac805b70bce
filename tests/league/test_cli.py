"""``companion league serve`` with a wrong ``--db``: a sentence saying what is wrong and
what to do, never a traceback or "This is a bug"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _serve(db: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "league", "serve", "--db", db,
                           "--port", "0", "--dir", str(folder)],
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_db_that_is_no_address_is_a_clear_sentence(tmp_path: Path) -> None:
    done = _serve("nope", tmp_path)
    assert done.returncode == 1, done.stderr
    assert "--db is not a PostgreSQL address" in done.stderr
    assert "postgresql://user@host/dbname" in done.stderr
    assert "This is a bug" not in done.stderr
    assert "Traceback" not in done.stderr


def test_a_db_nobody_answers_at_says_so(tmp_path: Path) -> None:
    from bench.pgcluster import free_port

    done = _serve(f"postgresql://league@127.0.0.1:{free_port()}/league", tmp_path)
    assert done.returncode == 1, done.stderr
    assert "cannot reach the league's PostgreSQL" in done.stderr
    assert "This is a bug" not in done.stderr
    assert "Traceback" not in done.stderr
