from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import cast

import pytest

from companion import games
from companion.games.base import Engine

from . import tally


@pytest.fixture(autouse=True)
def tally_engine() -> Iterator[Engine]:
    engine = cast(Engine, tally)
    games.register(engine)
    yield engine


def pytest_configure() -> None:
    sys.modules.setdefault("tests.core.tally", tally)
