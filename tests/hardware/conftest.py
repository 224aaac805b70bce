"""Hardware tests: gpiozero's MockFactory everywhere; tests marked ``pi`` only on a Pi.

A ``pi`` test needs the real GPIO header (lgpio) and the wiring of docs/wiring.md. It
is skipped, with the reason, on any machine that is not a Raspberry Pi, or when lgpio
cannot be imported, or when ``TABLE_COMPANION_PI_TESTS`` is not ``1`` (a Pi without
the test wiring must not fail because nobody pressed a button).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.pins import pi_model


def _pi_skip_reason() -> str | None:
    if pi_model() is None:
        return "needs a Raspberry Pi: /proc/device-tree/model does not name one"
    if importlib.util.find_spec("lgpio") is None:
        return "needs lgpio: sudo apt install python3-lgpio, venv with --system-site-packages"
    if os.environ.get("TABLE_COMPANION_PI_TESTS") != "1":
        return "set TABLE_COMPANION_PI_TESTS=1 on a Pi wired as docs/wiring.md to run it"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _pi_skip_reason()
    if reason is None:
        return
    for item in items:
        if "pi" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()


class FakeClock:
    """The table's clock, moved by hand."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()
