"""``companion bench league`` at a small scale: it runs end to end on a real PostgreSQL
and every push it makes is stored (no timing assertions: figures are the bench's job)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.league import Scale, run_bench

pytestmark = pytest.mark.slow


def test_bench_league_runs_small(pg_cluster: Any) -> None:
    dsn = pg_cluster.create_database("bench_smoke")
    scale = Scale(games=300, tables=3, readers=4, duration=3.0, players=30)
    out = run_bench(scale, dsn)
    assert out["errors"] == {}
    pushes = out["push"]["n"] + out["push_burst"]["n"]
    assert out["push_burst"]["n"] == 3  # every table pushed once at the start
    assert out["games_stored"] == 300 + pushes
    assert out["standings"]["n"] >= 1
