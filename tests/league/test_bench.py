"""``companion bench league`` at a small scale: it runs end to end on a real PostgreSQL,
every push it makes is stored, and the re-rate of a late game is measured and printed
(no timing assertions: figures are the bench's job)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.league import Scale, _print, run_bench

pytestmark = pytest.mark.slow


def test_bench_league_runs_small(pg_cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    dsn = pg_cluster.create_database("bench_smoke")
    scale = Scale(games=300, tables=3, readers=4, duration=3.0, players=30, rewind=40)
    out = run_bench(scale, dsn)
    assert out["errors"] == {}
    pushes = out["push"]["n"] + out["push_burst"]["n"]
    assert out["push_burst"]["n"] == 3  # every table pushed once at the start
    assert out["games_stored"] == 300 + 1 + pushes  # the late game too
    assert out["standings"]["n"] >= 1
    # the late game sorts 40 games back: those and it are rated again, in one pass
    assert out["rerate"]["games"] == 41
    assert out["rerate"]["seconds"] > 0 and out["rerate"]["standings"]["n"] >= 1
    _print(out)
    printed = capsys.readouterr().out
    assert "re-rate (a late game)" in printed and "41 games rated again in " in printed
    assert "push (steady)" in printed and "standings page" in printed
