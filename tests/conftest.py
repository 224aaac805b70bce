"""Shared fixtures: every test gets its own state directory; browser fixtures come from
``tests/browser.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = ["tests.browser"]


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, private state directory (decks, store, tokens) for each test."""
    path = tmp_path / "state"
    path.mkdir()
    monkeypatch.setenv("TABLE_COMPANION_STATE", str(path))
    yield path
