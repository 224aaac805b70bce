"""The command line contract: subcommands listed, unbuilt ones honest, benchmarks run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import COMMANDS, main


def companion(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def test_help_lists_every_subcommand() -> None:
    out = companion("--help").stdout
    for name in ("serve", "replay", "export", "tags", "scan", "doctor", "bench", "host", "deck"):
        assert name in COMMANDS and f"    {name}" in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "serve" in capsys.readouterr().out


def test_bench_store_prints_figures() -> None:
    proc = companion("bench", "store", "--json")
    figures = json.loads(proc.stdout)
    assert figures["replay_events"] >= 10_000
    assert figures["append_ms_median"] > 0 and figures["restart_fold_events_per_s"] > 0
    assert proc.returncode in (0, 1)  # 1 = a target missed on a busy machine: figures still out


def test_export_then_replay_gives_the_same_state(tmp_path: Path) -> None:
    from companion.inputs import TABLE, Command
    from companion.paths import state_dir
    from companion.store import SqliteStore
    from companion.table import Table

    store = SqliteStore.in_state_dir(state_dir())
    table = Table(store)
    assert table.process(Command("start", {"game": "nasty7", "players": 3})).accepted
    for card in ("racketeer", "twin_racketeer", "gun", "phone"):
        assert table.process(Command("action", {"action": {"do": "play", "card": card}},
                                     source=TABLE)).accepted  # the camera's play
    assert table.process(Command("undo")).accepted
    assert table.info is not None and table.session is not None
    live = table.session.engine.state_json(table.session.state)
    store.close()
    out = tmp_path / "game.jsonl"
    proc = companion("export", table.info.game_id, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert '"do": "undo"' in out.read_text()
    proc = companion("replay", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["state"] == live
    assert companion("export", "no-such-game").returncode == 1


def test_a_benchmark_missing_from_this_installation_is_said(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands import bench

    monkeypatch.setattr(bench, "BENCHES", {"store": "bench.store", "gone": "bench.no_such"})
    assert main(["bench", "gone"]) == 2
    err = capsys.readouterr().err
    assert "the gone benchmark is not available in this installation" in err
    assert "Traceback" not in err


def test_the_service_never_imports_the_benchmarks() -> None:
    """The Pi's service (``companion serve`` and the dashboard) loads no ``bench`` module."""
    code = ("import sys, companion.commands.serve, web.app, web.server; "
            "print(sorted(m for m in sys.modules if m == 'bench' or m.startswith('bench.')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
