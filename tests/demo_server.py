"""Start a real ``companion serve --demo`` process for a test, and stop it cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.wait import SAFETY

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class DemoServer:
    url: str
    host_line: str
    proc: subprocess.Popen[str]
    log: Path  # its stderr (a file, so a chatty server never blocks on a full pipe)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def demo_server(state_dir: Path, game: str | None = None) -> Iterator[DemoServer]:
    """A demo table (of ``game``, default The Nasty 7) on a free loopback port; yields
    once it printed its ``Host:`` line.

    On exit it is sent SIGTERM and waited for (killed after the safety net of minutes,
    and the test fails).
    """
    port = free_port()
    log = state_dir / "serve-stderr.log"
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--demo", "--host", "127.0.0.1",
             "--port", str(port), *(["--game", game] if game else [])],
            stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT,
            env={**os.environ, "TABLE_COMPANION_STATE": str(state_dir)},
        )
    try:
        assert proc.stdout is not None
        line = ""
        for printed in proc.stdout:  # until it says it serves, or ends (however slow)
            line = printed.strip()
            if line.startswith("Host:"):
                break
        assert line.startswith("Host: http://"), f"companion serve --demo did not start: {line}"
        yield DemoServer(f"http://127.0.0.1:{port}", line, proc, log)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=SAFETY)  # a safety net only: it stops in about a second
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
        finally:
            if proc.stdout:
                proc.stdout.close()
