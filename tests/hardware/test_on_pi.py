"""On a real Raspberry Pi wired as docs/wiring.md (``pytest -m pi``, see conftest.py)."""

from __future__ import annotations

import pytest

from companion.config import GpioConfig
from companion.doctor import Level
from companion.doctor_hw import check_gpio
from hardware.patterns import Step
from hardware.pins import load_factory
from hardware.signals import Outputs

pytestmark = pytest.mark.pi


def test_lgpio_backend_loads() -> None:
    choice = load_factory(None)
    try:
        assert choice.factory is not None, choice.problem
        assert choice.name == "lgpio"
    finally:
        if choice.factory is not None:
            choice.factory.close()


def test_every_button_reads_released() -> None:
    rows = check_gpio(GpioConfig())
    assert [r for r in rows if r.level is not Level.OK] == []


def test_every_led_and_the_buzzer_switch() -> None:
    gpio = GpioConfig()
    choice = load_factory(None)
    outputs = Outputs(gpio.seat_leds, None, gpio.buzzer, pin_factory=choice.factory)
    try:
        outputs.show(Step(0.0, buzz=True, leds=frozenset(range(len(gpio.seat_leds)))))
        assert all(led.is_lit for led in outputs.leds) and outputs.buzzer.value == 1
        outputs.show(Step(0.0))
        assert not any(led.is_lit for led in outputs.leds) and outputs.buzzer.value == 0
    finally:
        outputs.close()
        outputs.close()
        choice.factory.close()
