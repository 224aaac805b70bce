"""A real PostgreSQL for the league's tests: one throwaway cluster per session
(``bench.pgcluster``: initdb in a temporary folder, a free port), one fresh database
per test. Without PostgreSQL (and not root, so the bootstrap could not install it)
these tests skip, saying why.
"""

from __future__ import annotations

import itertools
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
