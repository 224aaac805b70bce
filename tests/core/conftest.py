from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from companion import games
from companion.games.engine import AnyEngine

from . import tally


@pytest.fixture(autouse=True)
def tally_engine() -> Iterator[AnyEngine]:
    engine = tally.engine
    games.register(engine)
    yield engine


def pytest_configure() -> None:
    sys.modules.setdefault("tests.core.tally", tally)
