"""A real PostgreSQL for the league's tests: one throwaway cluster per session
(``bench.pgcluster``: initdb in a temporary folder, a free port), one fresh database
per test. Without PostgreSQL (and not root, so the bootstrap could not install it)
these tests skip, saying why.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.pgcluster import Cluster, unavailable

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    why = unavailable()
    if why:
        pytest.skip(f"no PostgreSQL for the league tests: {why}")
    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture
def league_dsn(pg_cluster: Cluster) -> str:
    return pg_cluster.create_database(f"league_{next(_names)}")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def league(league_dsn: str, tmp_path: Path) -> Iterator[Any]:
    """A league app on a fresh database: ``.app``, ``.client``, ``.pool``, ``.clock``."""
    from league.app import create_app
    from league.db import open_pool

    pool = open_pool(league_dsn, size=4)
    clock = Clock()
    app = create_app(pool, tmp_path / "league", clock=clock, testing=True)

    class League:
        pass

    lg = League()
    lg.app, lg.pool, lg.clock, lg.folder = app, pool, clock, tmp_path / "league"  # type: ignore[attr-defined]
    lg.client = app.test_client()  # type: ignore[attr-defined]
    yield lg
    pool.close()


#: the league's address as phones reach it (``companion league serve --url``), which the
#: ``served`` league is given: not the address the tests use (127.0.0.1, a free port)
PUBLIC = "http://club-laptop.example:8090"
#: how long a served league may take to start or stop: a safety net only, reached only
#: when something is broken (a test never waits on it for its answer)
SAFETY_S = 180.0


class Served:
    """A league served for real (``league.server.serve``: Tornado, its rater thread) in
    a thread of the test: ``.url`` (``http://127.0.0.1:<port>``), ``.port``, ``.app``,
    ``.client`` (Flask's test client on the same app), ``.pool``, ``.folder``; ``stop()``
    ends it mid-test (a test of stopping), and the fixture ends it otherwise."""

    def __init__(self, app: Any, pool: Any, folder: Path) -> None:
        self.app, self.pool, self.folder = app, pool, folder
        self.client = app.test_client()
        self._done, self._ready = threading.Event(), threading.Event()
        self._ports: list[int] = []
        self._thread: threading.Thread | None = None

    def start(self, threads: int) -> None:
        from league.server import serve

        def on_ready(port: int) -> None:
            self._ports.append(port)
            self._ready.set()

        self._thread = threading.Thread(
            target=serve, args=(self.app, "127.0.0.1", 0, threads),
            kwargs={"on_ready": on_ready, "stop": self._done}, name="league-served",
            daemon=True)
        self._thread.start()
        assert self._ready.wait(SAFETY_S), "the league never started listening"

    @property
    def port(self) -> int:
        return self._ports[0]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> bool:
        """Ask the server to stop and wait until ``serve`` has returned; True when it
        did (False: still running after the safety net). Stopping twice is harmless."""
        self._done.set()
        if self._thread is None:
            return True
        self._thread.join(SAFETY_S)
        return not self._thread.is_alive()


@pytest.fixture
def served(league_dsn: str, tmp_path: Path) -> Iterator[Served]:
    """The league served for real on a fresh database, with ``--url`` PUBLIC (see
    ``Served``); stopped at the end of the test if the test did not stop it."""
    from league.app import create_app
    from league.db import open_pool

    pool = open_pool(league_dsn, size=4)
    folder = tmp_path / "league"
    app = create_app(pool, folder, public_url=PUBLIC, clock=Clock(), testing=True)
    lg = Served(app, pool, folder)
    try:
        lg.start(threads=4)
        yield lg
    finally:
        stopped = lg.stop()
        pool.close()
    assert stopped, "the league did not stop"


def result(game_id: str, names: list[str], places: list[int], t: float = 1.7e9,
           scores: list[float] | None = None, game: str = "nasty7", seq: int = 10) -> dict[str, Any]:
    return {"version": 1, "game_id": game_id, "game": game, "finished_at": t, "seq": seq,
            "lower_wins": False, "unit": "",
            "seats": [{"name": n, "place": p, "score": None if scores is None else scores[i]}
                      for i, (n, p) in enumerate(zip(names, places, strict=True))]}


def joined(lg: Any, name: str = "Window table") -> tuple[str, str]:
    """A table joined through the API: (table key, token)."""
    from league import store

    code = store.new_join_code(lg.pool, name)
    r = lg.client.post("/api/v1/join", json={"code": code.lower()})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    return body["table"], body["token"]


Pusher = Callable[..., Any]
