"""A league on a real PostgreSQL and two tables as real processes: the league is killed
while tables push and restarted, a table is killed and restarted; in the end standings,
ratings and every player's history equal a recomputation from the tables' own records.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.pgcluster import free_port
from companion.records import export_lines
from companion.results import GameResult, result_of_record
from companion.stats import OVERALL, history, key_of, standings
from companion.store import SqliteStore
from league import queries, store

ROOT = Path(__file__).resolve().parents[2]
SAFETY_S = 300.0  # a hang, not a speed limit
GAMES = 8

pytestmark = pytest.mark.slow


class Proc:
    """A child process whose stdout lines are read into a queue."""

    def __init__(self, argv: list[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.p = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pred: Callable[[str], bool]) -> str:
        while True:
            try:
                line = self.lines.get(timeout=SAFETY_S)
            except queue.Empty:
                raise AssertionError(f"no such line; saw {self.seen[-20:]}") from None
            self.seen.append(line)
            if pred(line):
                return line

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait(timeout=SAFETY_S)
        self.reader.join(timeout=SAFETY_S)  # to the end of its output
        if self.p.stdout is not None:
            self.p.stdout.close()


def _league(dsn: str, port: int, folder: Path) -> Proc:
    proc = Proc([sys.executable, "-m", "companion", "league", "serve", "--db", dsn,
                 "--host", "127.0.0.1", "--port", str(port), "--dir", str(folder),
                 "--threads", "4"])
    proc.wait_for(lambda s: s.startswith("League:"))
    return proc


def _table(folder: Path, url: str, code: str, index: int) -> Proc:
    return Proc([sys.executable, "-m", "tests.league.table_child", str(folder), url, code,
                 str(index), str(GAMES)])


def _until(pred: Callable[[], bool]) -> None:
    done = threading.Event()
    for _ in range(int(SAFETY_S * 10)):
        if pred():
            return
        done.wait(0.1)
    raise AssertionError("the condition never held")


def _exported(folder: Path, key: str) -> list[tuple[str, GameResult]]:
    """Each finished game of a table, recomputed from its exported record."""
    events = SqliteStore(folder / "events.sqlite3")
    out = []
    try:
        for info in events.games():
            rows = events.events(info.game_id)
            lines = export_lines(events, info.game_id)
            r = result_of_record(info.game_id, lines, info.created, rows[-1].seq if rows else 0)
            if r is not None:
                out.append((key, r))
    finally:
        events.close()
    return out


def test_league_and_tables_survive_kills(pg_cluster: Any, tmp_path: Path) -> None:
    from league.db import open_pool

    dsn = pg_cluster.create_database("league_e2e")
    pool = open_pool(dsn, size=2)
    codes = [store.new_join_code(pool, name) for name in ("Window", "Bar")]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    folders = [tmp_path / "t1", tmp_path / "t2"]
    league = _league(dsn, port, tmp_path / "league")
    tables: list[Proc] = []
    try:
        tables = [_table(folders[0], url, codes[0], 0)]
        tables[0].wait_for(lambda s: s == "STORED 1")  # t1 joined first: its key is t1
        tables.append(_table(folders[1], url, codes[1], 1))
        tables[1].wait_for(lambda s: s == "STORED 2")
        league.kill()  # while both tables push
        tables[0].wait_for(lambda s: s == "STORED 4")
        tables[0].kill()  # the table loses power between games or in the middle of one
        tables[0] = _table(folders[0], url, codes[0], 0)
        league = _league(dsn, port, tmp_path / "league")
        for t in tables:
            t.wait_for(lambda s: s == "DONE")

        def rated() -> bool:
            with pool.connection() as conn:
                row = conn.execute("SELECT count(*) FROM games WHERE NOT rated").fetchone()
            return row is not None and int(row[0]) == 0

        _until(rated)
    finally:
        for t in tables:
            t.kill()
        league.kill()

    results = _exported(folders[0], "t1") + _exported(folders[1], "t2")
    assert len(results) >= 2 * GAMES - 1  # a game cut by the kill may stay unfinished
    stored = queries.everything(pool)
    assert sorted((p.table, p.result.game_id) for p in stored) == \
        sorted((k, r.game_id) for k, r in results)
    for game in [OVERALL, *sorted({r.game for _, r in results})]:
        want = {key_of(x.name): x for x in standings(results, game)}
        got = {key_of(x.name): x for x in queries.standings(pool, game)}
        assert want.keys() == got.keys()
        for k, w in want.items():
            g = got[k]
            assert (g.played, g.wins, g.place_sum) == (w.played, w.wins, w.place_sum)
            assert abs(g.mu - w.mu) < 1e-9 and abs(g.sigma - w.sigma) < 1e-9
    for pid, name in queries.find_players(pool):
        mine = [(p.result.game_id, p.table) for p in queries.history(pool, pid)]
        named = {k: n for k, n, *_ in queries.tables(pool)}  # a history shows table names
        keys = {r.game_id: named[k] for k, r in results}
        assert mine == [(r.game_id, keys[r.game_id]) for r in history(results, name)]
    pool.close()
