"""Fixtures: a running table (tally test engine), the app, a test client, a real server."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import games
from companion.config import WebConfig
from companion.games.engine import AnyEngine
from companion.inputs import HOST, Command, Source
from companion.store import MemoryStore
from companion.table import Table
from tests.core import tally
from tests.wait import until
from web import create_app
from web.auth import host_token
from web.server import make_server, stop


@pytest.fixture(autouse=True)
def tally_engine() -> Iterator[AnyEngine]:
    engine = tally.engine
    games.register(engine)
    yield engine


@pytest.fixture
def table() -> Iterator[Table]:
    """A running table whose clock stands still: the tally game's 2-second hesitation
    never fires between a test's steps, however slow the machine (on the emulated arm64
    root it once did, and the host's undo took back the timeout instead of the add)."""
    t = Table(MemoryStore(), clock=FakeClock())
    t.start()
    yield t
    t.stop()


def start_game(table: Table, players: list[str] | None = None, **args: Any) -> None:
    args.setdefault("game", "tally")
    args["players"] = players or ["Ann", "Ben", "Cy"]
    res = table.submit(Command("start", args)).result(300)
    assert res.accepted, res.reason


def act(table: Table, action: dict[str, Any], source: Source = HOST) -> Any:
    return table.submit(Command("action", {"action": action}, source=source)).result(300)


@pytest.fixture
def app(table: Table, state_dir: Path) -> Flask:
    return create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir, testing=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_of(client: FlaskClient) -> str:
    """The CSRF token of this client's browser (loads a page to get it)."""
    html = client.get("/").get_data(as_text=True)
    found = re.search(r'name="csrf-token" content="([0-9a-f]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def as_host(app: Flask, state_dir: Path) -> FlaskClient:
    """A client signed in as the host."""
    c = app.test_client()
    signed_in = c.get(f"/host?token={host_token(state_dir)}")
    assert signed_in.status_code == 303 and signed_in.location == "/host"  # no token kept
    assert c.get("/host").status_code == 200
    return c


def seat_links(html: str) -> dict[int, str]:
    """The join links (paths) on a host panel, by seat: each seat is one
    ``li.seat-join`` in seat order; a joined seat has none (it is handed over only after
    asking, ``web/handover.py``)."""
    blocks = re.split(r'<li class="[^"]*\bseat-join\b', html)[1:]
    out = {}
    for seat, block in enumerate(blocks):
        found = re.search(r'href="https?://[^/"]+(/join/[^"]+)"', block.split("</li>")[0])
        if found:
            out[seat] = found.group(1)
    return out


def join_url(host: FlaskClient, seat: int) -> str:
    """The join link of ``seat`` as the host panel shows it (path only)."""
    html = host.get("/host").get_data(as_text=True)
    links = seat_links(html)
    assert seat in links, html
    return links[seat]


def join(app: Flask, host: FlaskClient, seat: int) -> FlaskClient:
    """A new browser that joined ``seat`` through its join link."""
    c = app.test_client()
    url = join_url(host, seat)
    assert c.get(url).status_code == 200
    resp = c.post(url, data={"csrf_token": csrf_of(c)})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return c


def post_json(client: FlaskClient, url: str, body: Any) -> Any:
    return client.post(url, json=body, headers={"X-CSRF-Token": csrf_of(client)})


class FakeClock:
    """A clock that moves only when a test says so (``advance``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _serve(app: Flask, **kwargs: Any) -> Iterator[Any]:
    server = make_server(app, "127.0.0.1", 0, 24, **kwargs)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server
    stop(app, server)
    thread.join(300)


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    """The app on the real server (web.server: Tornado) on a free loopback port."""
    for server in _serve(app):
        yield f"http://127.0.0.1:{server.bind_addr[1]}"


@pytest.fixture
def clocked_url(app: Flask, clock: FakeClock) -> Iterator[str]:
    """``live_url`` whose streams are timed by ``clock`` (throttle, keep-alives)."""
    for server in _serve(app, clock=clock):
        yield f"http://127.0.0.1:{server.bind_addr[1]}"


def wait_for(condition: Any, what: str = "a condition") -> None:
    """Poll ``condition()`` until it holds (``tests.wait.until``: minutes of safety net)."""
    until(lambda: bool(condition()), what, poll=0.01)


def wire_network(app: Flask, tmp_path: Path, fake: Any) -> Any:
    """A ``hardware.network.NetworkManager`` over ``fake`` (a ``FakeNetworkManager``),
    in this app's state folder, its jobs run at once, restored and serving the app."""
    from companion.network import EXTENSION
    from hardware.network import NetworkManager

    machine = tmp_path / "machine-id"
    machine.write_text("0123456789abcdef0123456789ab4f2a\n")
    net = NetworkManager(fake, app.extensions["table_companion"].state_dir,
                         defer=lambda job: job(), machine_id_file=machine,
                         leases=str(tmp_path / "leases-{iface}"))
    app.extensions[EXTENSION] = net
    net.restore()
    return net
