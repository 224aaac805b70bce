"""Shared fixtures and the suite's shape.

- every test gets its own state directory; browser fixtures come from ``tests/browser.py``;
- Hypothesis profiles (``HYPOTHESIS_PROFILE``, set by ``scripts/test.sh``): ``ci``
  derandomized with no example database, so a CI run is reproducible; ``dev`` random, as
  a developer wants new examples. Example counts stay with each test (``@settings``):
  a profile never lowers them. Neither has a deadline or the "too slow" health check:
  a test may not depend on how fast the machine is;
- the ``system`` marker, added here to tests that start a real outside component (a
  PostgreSQL cluster, network namespaces, a Debian root): ``./run test --quick`` leaves
  them out, with ``browser`` and ``slow``;
- the order: modules holding browser, slow or system tests run first, so that on several
  workers (pytest-xdist) the long ones do not end the run on one worker alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.browser"]

#: examples for a property test that states no count of its own (Hypothesis' default)
EXAMPLES = 100
settings.register_profile("ci", max_examples=EXAMPLES, derandomize=True, database=None,
                          deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

#: folders whose every test starts a real outside component
SYSTEM_DIRS = ("systemd",)
#: fixtures that start one
SYSTEM_FIXTURES = {"pg_cluster"}
LONG = ("browser", "slow", "system")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        parts = item.path.relative_to(tests).parts if item.path.is_relative_to(tests) else ()
        if (parts and parts[0] in SYSTEM_DIRS) or SYSTEM_FIXTURES & set(
                getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.system)
    long_modules = {item.path for item in items
                    if any(item.get_closest_marker(m) for m in LONG)}
    items.sort(key=lambda item: item.path not in long_modules)  # stable: modules stay whole


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, private state directory (decks, store, tokens) for each test."""
    path = tmp_path / "state"
    path.mkdir()
    monkeypatch.setenv("TABLE_COMPANION_STATE", str(path))
    yield path
