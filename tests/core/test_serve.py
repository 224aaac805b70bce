"""``companion serve --demo`` as a user starts it: a real process, the real pipeline."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.commands.serve import ZoneSaver, saved_zones
from companion.config import Config
from tests.demo_server import demo_server


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code, b""


@pytest.mark.slow
def test_demo_serves_a_live_game_and_stops_cleanly(state_dir: Path) -> None:
    with demo_server(state_dir) as server:
        token = server.host_line.split("token=", 1)[1]
        base = server.url
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
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(f"{base}/host?token={token}", timeout=300) as signed_in:
            assert signed_in.status == 200 and signed_in.url == f"{base}/host"
        assert get(base + "/api/seat/0")[0] == 403
    err = server.log.read_text(encoding="utf-8")
    assert server.proc.returncode == 0, err[-2000:]
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
