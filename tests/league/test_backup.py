"""The nightly backup restored: the backup unit's own command (``pg_dump --format=custom``,
the newest 14 kept) run against a league on a real PostgreSQL, the dump restored with
``pg_restore`` into a fresh database of the same throwaway cluster, as docs/league.md
says; the restored league has the same standings, players, voided and left-out games, and
goes on rating new games as the original does."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

from companion.stats import OVERALL
from league import queries, store
from tests.league.conftest import joined, result

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "table-companion-league-backup.service"


def _backup_script() -> str:
    """The shell script the backup unit runs (systemd's ``%%`` is a ``%``)."""
    line = next(x for x in UNIT.read_text().splitlines() if x.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[:2] == ["/bin/sh", "-ec"], argv
    return argv[2].replace("%%", "%")


def _everything(pool: Any) -> dict[str, Any]:
    """What people see of a league: every standings table, the players, the admin's lists."""
    out: dict[str, Any] = {"players": queries.find_players(pool)}
    for game in [OVERALL, *queries.games_played(pool)]:
        out[f"standings {game}"] = [(s.name, s.played, s.wins, round(s.mu, 9),
                                     round(s.sigma, 9)) for s in queries.standings(pool, game)]
    for which in ("recent", "void", "quarantined"):
        out[which] = [(g.game, g.names, g.places, g.quarantine, g.change)
                      for g in queries.admin_games(pool, which)]
    return out


def _push_more(lg: Any, token: str) -> None:
    r = lg.client.post("/api/v1/results", json=result("after", ["Cem", "Dana", "Ana"], [1, 2, 3],
                                                      t=1.7e9 + 9000),
                       headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.get_json()
    lg.app.extensions["league"].rate_now()


def test_the_nightly_dump_restores_to_the_same_league(
        league: Any, pg_cluster: Any, tmp_path: Path) -> None:
    key, token = joined(league)
    games = [(["Ana", "Ben", "Cem"], [1, 2, 3]), (["Ben", "Dana"], [1, 2]),
             (["Cem", "Ana", "Dana"], [1, 1, 3]), (["Ana", "Ben"], [2, 1])]
    for i, (names, places) in enumerate(games):
        r = league.client.post("/api/v1/results", json=result(
            f"g{i}", names, places, t=1.7e9 + i * 600, game=("nasty7", "illegal")[i % 2]),
            headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.get_json()
    store.add_player(league.pool, "Eve Before-Game-Night")
    league.app.extensions["league"].rate_now()
    voided = queries.admin_games(league.pool, "recent")[0]
    store.void(league.pool, voided.ref, "Sam", "pushed by mistake")
    from companion.results import GameResult, SeatResult

    store.push(league.pool, store.TableAuth(1, key, "Window table"),
               GameResult("dup", "nasty7", (SeatResult("Ana", 1), SeatResult("ANA", 2)),
                          1.7e9 + 5000, 3))
    league.app.extensions["league"].rate_now()
    before = _everything(league.pool)
    assert before["void"] and before["quarantined"] and len(before["players"]) == 5

    # the backup unit's command, as the timer runs it: one new dump, the newest 14 kept
    folder = tmp_path / "backups"
    folder.mkdir()
    for k in range(15):
        old = folder / f"league-2026010{k // 10}-00000{k % 10}.dump"
        old.write_bytes(b"old")
        os.utime(old, (1.7e9 + k, 1.7e9 + k))
    env = {**os.environ, "STATE_DIRECTORY": str(folder), "LEAGUE_DATABASE_URL": league_dsn_of(
        league), "PATH": f"{pg_cluster.bin}:{os.environ.get('PATH', '')}"}
    subprocess.run(["/bin/sh", "-ec", _backup_script()], env=env, check=True)
    dumps = sorted(folder.glob("league-*.dump"))
    assert len(dumps) == 14 and not list(folder.glob("*.part"))
    new = [d for d in dumps if d.read_bytes() != b"old"]
    assert len(new) == 1 and re.fullmatch(r"league-\d{8}-\d{6}\.dump", new[0].name)
    assert new[0].read_bytes().startswith(b"PGDMP")  # pg_dump's custom format

    # restored into an empty database, as docs/league.md says
    restored = pg_cluster.create_database(f"restored_{tmp_path.name[-12:]}".replace("-", "_"))
    subprocess.run([str(pg_cluster.bin / "pg_restore"), "--exit-on-error",
                    f"--dbname={restored}", str(new[0])], check=True, capture_output=True)
    from league.app import create_app
    from league.db import open_pool

    pool = open_pool(restored, size=2)
    try:
        assert _everything(pool) == before
        # the restored league starts (its migrations are all there) and goes on as before
        again = create_app(pool, tmp_path / "restored-league", testing=True)

        class Restored:
            pass

        twin = Restored()
        twin.client, twin.app = again.test_client(), again  # type: ignore[attr-defined]
        _push_more(twin, token)  # the table's token was restored too
        _push_more(league, token)
        assert _everything(pool) == _everything(league.pool)
    finally:
        pool.close()


def league_dsn_of(lg: Any) -> str:
    """The connection string of the league's pool (what LEAGUE_DATABASE_URL holds)."""
    return str(lg.pool.conninfo)
