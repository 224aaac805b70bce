"""The production server in a real process: on_ready, SSE, SIGTERM; `companion host`; bench."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

import pytest

from companion.cli import main as cli_main
from web import bench

ROOT = Path(__file__).resolve().parents[2]

SERVE = """
import sys
from pathlib import Path
from companion.config import WebConfig
from companion.store import MemoryStore
from companion.table import Table
from web import create_app
from web.server import serve
table = Table(MemoryStore()); table.start()
app = create_app(table, web_config=WebConfig(), state_dir=Path(sys.argv[1]))
serve(app, "127.0.0.1", int(sys.argv[2]), 8, on_ready=lambda: print("READY", flush=True))
table.stop()
print("STOPPED", flush=True)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_streams_and_stops_on_sigterm(state_dir: Path) -> None:
    port = _free_port()
    with subprocess.Popen([sys.executable, "-c", SERVE, str(state_dir), str(port)],
                          stdout=subprocess.PIPE, text=True, cwd=ROOT) as proc:
        assert proc.stdout is not None
        try:
            assert proc.stdout.readline().strip() == "READY"
            with urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as resp:
                assert json.load(resp)["seq"] >= 1
            stream = urlopen(f"http://127.0.0.1:{port}/api/stream", timeout=5)
            with stream:
                assert stream.headers["Content-Type"].startswith("text/event-stream")
                assert stream.readline().startswith(b"retry:")
                began = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                assert proc.stdout.readline().strip() == "STOPPED"
                assert proc.wait(10) == 0
                assert time.monotonic() - began < 8
        finally:
            if proc.poll() is None:
                proc.kill()


def test_companion_host_prints_the_host_line(state_dir: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 8199\n", encoding="utf-8")
    monkeypatch.setenv("TABLE_COMPANION_CONFIG", str(config))
    assert cli_main(["host"]) == 0
    out = capsys.readouterr().out.strip()
    token = (state_dir / "host_token").read_text().strip()
    assert re.fullmatch(r"Host: http://\S+:8199/host\?token=" + re.escape(token), out)
    assert oct(os.stat(state_dir / "host_token").st_mode & 0o777) == "0o600"


@pytest.mark.slow
def test_bench_delivers_every_snapshot_to_every_client() -> None:
    figures = bench.run(clients=5, events=5, interval=0.05)
    assert figures.clients == 5 and figures.events == 5
    assert figures.missing == 0 and figures.deliveries == 25
    assert 0 < figures.median_ms <= figures.p95_ms <= figures.max_ms
    assert figures.rss_mb > 10
