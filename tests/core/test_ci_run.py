"""``.ci/run`` runs exactly the README's test command, with the CPU kept busy: one
busy-loop process pinned to each core for the whole suite, stopped afterwards; the suite's
exit code is CI's (issues 28, 39). ``test_ci_load.py`` shows that load failing a test
that depends on the machine's speed."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.wait import SAFETY

ROOT = Path(__file__).resolve().parents[2]

#: a stand-in for ./run: says what it was asked and which busy loops its caller (.ci/run,
#: its parent) runs beside it. It waits until ``WANT_BUSY`` of them have started (a loop
#: forked but not yet exec'd does not match), polling with a safety net of minutes, so
#: neither the machine's speed nor other busy loops on the machine change what it sees.
#: Under qemu-user (the arm64 root) a process's command line starts with the emulator
#: (``/usr/libexec/qemu-binfmt/aarch64-binfmt-P /usr/bin/bash bash -c …``), hence the
#: pattern's start.
FAKE_RUN = """#!/usr/bin/env bash
echo "args: $*"
echo "load: $COMPANION_CI_LOAD"
pattern='(^|[ /])bash -c while :; do :; done$'
for _ in $(seq 3000); do
  [ "$(pgrep -c -P "$PPID" -f "$pattern" || true)" -ge "$WANT_BUSY" ] && break
  sleep 0.1
done
echo "busy: $(pgrep -c -P "$PPID" -f "$pattern" || true)"
echo "pids: $(pgrep -d ' ' -P "$PPID" -f "$pattern" || true)"
for pid in $(pgrep -P "$PPID" -f "$pattern"); do
  echo "core: $(awk '/^Cpus_allowed_list/ {print $2}' /proc/$pid/status)"
done
exit "${FAKE_STATUS:-0}"
"""


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """The process groups the test started: killed afterwards, whatever happened, so a
    run that failed or hit its safety net leaves no busy loop behind on the machine."""
    started: list[int] = []
    yield started
    for pgid in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    run = tmp_path / "run"
    run.write_text(FAKE_RUN, encoding="utf-8")
    run.chmod(0o755)
    return tmp_path


def _ci(clone: Path, status: int, want: int, groups: list[int]) -> tuple[int, str, str]:
    """``.ci/run`` in its own process group: exit code, stdout, stderr."""
    proc = subprocess.Popen(["bash", str(clone / ".ci" / "run")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "FAKE_STATUS": str(status),
                                 "WANT_BUSY": str(want)})
    groups.append(proc.pid)
    try:
        out, err = proc.communicate(timeout=SAFETY)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f".ci/run did not end within {SAFETY:.0f} s:\n{out}\n{err}")
    return proc.returncode, out, err


@pytest.mark.skipif(shutil.which("pgrep") is None, reason="needs pgrep (procps)")
@pytest.mark.parametrize("status", [0, 3])
def test_ci_runs_the_test_command_with_the_cpu_busy(clone: Path, status: int,
                                                    groups: list[int]) -> None:
    cores = sorted(os.sched_getaffinity(0))
    want = len(cores)  # one per core this process may use
    code, out, err = _ci(clone, status, want, groups)
    assert code == status, err
    assert "args: test\n" in out  # ./run test, nothing else
    assert f"busy: {want}\n" in out
    pids = re.search(r"^pids: (.*)$", out, re.M)
    assert pids is not None and len(pids.group(1).split()) == want
    assert f"load: {want}\n" in out
    pinned = sorted(int(c) for c in re.findall(r"^core: (\d+)$", out, re.M))
    assert pinned == cores  # each loop on its own core, every core with one
    alive = [pid for pid in pids.group(1).split() if Path(f"/proc/{pid}").exists()]
    assert alive == []  # stopped with the suite, by .ci/run itself


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\n./run test " in readme
    assert [line.strip() for line in ci.splitlines() if "./run" in line
            and not line.lstrip().startswith("#")] == ["./run test || status=$?"]
