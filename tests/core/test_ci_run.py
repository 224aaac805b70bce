"""``.ci/run`` runs exactly the README's test command, with the CPU kept busy: two
busy-loop processes per core for the whole suite, stopped afterwards; the suite's exit
code is CI's (issue 28)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: a stand-in for ./run: says what it was asked and how many busy loops run beside it
FAKE_RUN = """#!/usr/bin/env bash
echo "args: $*"
echo "busy: $(pgrep -c -f '^bash -c while :; do :; done$' || true)"
exit "${FAKE_STATUS:-0}"
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    run = tmp_path / "run"
    run.write_text(FAKE_RUN, encoding="utf-8")
    run.chmod(0o755)
    return tmp_path


def _ci(clone: Path, status: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(clone / ".ci" / "run")], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "FAKE_STATUS": str(status)})


@pytest.mark.skipif(shutil.which("pgrep") is None, reason="needs pgrep (procps)")
@pytest.mark.parametrize("status", [0, 3])
def test_ci_runs_the_test_command_with_the_cpu_busy(clone: Path, status: int) -> None:
    before = _busy()
    proc = _ci(clone, status)
    assert proc.returncode == status, proc.stderr
    assert "args: test\n" in proc.stdout  # ./run test, nothing else
    assert f"busy: {before + 2 * len(os.sched_getaffinity(0))}\n" in proc.stdout  # as nproc
    assert _busy() == before  # stopped with the suite


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\n./run test " in readme
    assert [line.strip() for line in ci.splitlines() if "./run" in line
            and not line.lstrip().startswith("#")] == ["./run test || status=$?"]


def _busy() -> int:
    out = subprocess.run(["pgrep", "-c", "-f", "^bash -c while :; do :; done$"],
                         capture_output=True, text=True, timeout=60).stdout.strip()
    return int(out or 0)
