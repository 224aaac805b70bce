"""``companion serve --demo`` as a user starts it: a real process, the real pipeline."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.commands.serve import ZoneSaver, saved_zones
from companion.config import Config

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code, b""


@pytest.mark.slow
def test_demo_serves_a_live_game_and_stops_cleanly(state_dir: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--demo", "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "TABLE_COMPANION_STATE": str(state_dir)},
    )
    try:
        assert proc.stdout is not None
        host_line = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not host_line.startswith("Host:"):
            host_line = proc.stdout.readline().strip()
        assert host_line.startswith("Host: http://"), host_line
        token = host_line.split("token=", 1)[1]
        base = f"http://127.0.0.1:{port}"
        plays = 0
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and plays == 0:
            time.sleep(1)
            status, body = get(base + "/api/state")
            assert status == 200
            state = json.loads(body)
            assert state["game"] == "nasty7"
            cards = [seat["cards"] for seat in state["view"]["seats"]]
            plays = state["view"]["pile"] + (36 * 3 - sum(cards))
        assert plays > 0, "no card from the synthetic camera reached the table"
        assert get(base + "/host")[0] == 403
        assert get(f"{base}/host?token={token}")[0] == 200
        assert get(base + "/api/seat/0")[0] == 403
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        if proc.stdout:
            proc.stdout.close()
        err = proc.stderr.read() if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]


class FakePipeline:
    def __init__(self) -> None:
        self.zones: Any = None

    def set_zones(self, polygons: Any) -> None:
        self.zones = polygons


def test_zones_drawn_on_the_dashboard_survive_a_restart(state_dir: Path) -> None:
    assert saved_zones(Config()) == Config().zones
    pipeline = FakePipeline()
    drawn = {"pile": [(0.1, 0.1), (0.5, 0.1), (0.5, 0.5)], "seat1": [(0, 0), (1, 0), (1, 1)]}
    ZoneSaver(pipeline).set_zones(drawn)
    assert pipeline.zones == drawn
    assert saved_zones(Config()).polygons == drawn
    with pytest.raises(ValueError):
        ZoneSaver(pipeline).set_zones({"pile": [(0, 0), (1, 1)]})
