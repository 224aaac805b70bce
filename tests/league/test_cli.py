"""``companion league serve`` with a wrong ``--db``: a sentence saying what is wrong and
what to do, never a traceback or "This is a bug"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


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


def test_the_admins_fixes_on_the_command_line(league: Any, league_dsn: str, tmp_path: Path,
                                              capsys: Any) -> None:
    import argparse

    from companion.commands import league as cli
    from league import queries
    from tests.core.bgstats_format import check_format
    from tests.league.conftest import joined, result

    _, token = joined(league)
    league.client.post("/api/v1/results", json=result("g1", ["Ana", "Ben"], [1, 2]),
                       headers={"Authorization": f"Bearer {token}"})
    league.app.extensions["league"].rate_now()

    def run(*argv: str) -> tuple[int, str, str]:
        parser = argparse.ArgumentParser()
        cli.add_arguments(parser)
        code = cli.run(parser.parse_args([*argv[:1], "--db", league_dsn, *argv[1:]]))
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, _ = run("games")
    assert code == 0 and "The Nasty 7 at Window table" in out and "Ana (1), Ben (2)" in out
    ref = out.split("#", 1)[1].split()[0]
    assert run("void", f"#{ref}", "--why", "a test", "--by", "Sam")[0] == 0
    assert "voided by Sam" in run("games")[1]
    code, _, err = run("void", f"#{ref}", "--why", "again")
    assert code == 1 and "void already" in err and "Traceback" not in err
    assert run("restore", ref, "--why", "real after all")[0] == 0
    code, _, err = run("void", "twelve", "--why", "x")
    assert code == 1 and "is not a game's number" in err
    # who sat where, and two names that are one player, without SQL
    code, out, _ = run("seat", f"#{ref}", "--seat", "2", "--player", "ana", "--why", "x")
    assert code == 1  # Ana sits at seat 1 already
    assert run("add-player", "Bea")[0] == 0
    code, out, err = run("seat", f"#{ref}", "--seat", "2", "--player", " bea ", "--why",
                         "Bea played, Ben watched", "--by", "Sam")
    assert code == 0, err
    assert "Seat 2 of game #" in out
    assert "Ana (1), Bea (2)" in run("games")[1]
    code, _, err = run("seat", f"#{ref}", "--seat", "3", "--player", "Bea", "--why", "x")
    assert code == 1 and "no seat 3: its seats are 1 to 2" in err
    code, _, err = run("seat", f"#{ref}", "--seat", "1", "--player", "Zed", "--why", "x")
    assert code == 1 and "Nobody called 'Zed' is in the league" in err
    assert run("add-player", "Ana B")[0] == 0
    code, out, err = run("merge", "ana b", "--into", "Ana")
    assert code == 0 and "games are Ana's now" in out, err
    assert "Ana B" not in [n for _, n in queries.find_players(league.pool)]
    code, _, err = run("merge", "Bea", "--into", "Ana")
    assert code == 1 and "two people, not one" in err and "Traceback" not in err
    assert run("add-player", "Cem Yilmaz")[0] == 0
    assert "Cem Yilmaz" in [n for _, n in queries.find_players(league.pool)]
    code, _, err = run("add-player", "cem  yilmaz")
    assert code == 1 and "in the league already" in err
    assert run("cards", "--url", "http://club:8090", "--out", str(tmp_path / "c.pdf"))[0] == 0
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")
    assert run("export", "--out", str(tmp_path / "all.bgsplay"))[0] == 0
    exported = (tmp_path / "all.bgsplay").read_text(encoding="utf-8")
    assert '"Window table"' in exported
    check_format(json.loads(exported))
