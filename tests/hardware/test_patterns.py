"""Signal patterns: every signal documented, the right LEDs, volume and off switches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.config import GpioConfig, SignalsConfig
from companion.games.base import SIGNALS
from hardware import attach
from hardware.patterns import DESCRIPTIONS, pattern

README = Path(__file__).resolve().parents[2] / "README.md"


class Sink:
    def submit(self, inp: Any) -> Any:
        raise AssertionError("no button is pressed in these tests")

    def subscribe(self, listener: Any) -> None:
        self.listener = listener


def test_every_signal_is_documented_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("<!-- section: hardware -->"):
                   text.index("<!-- /section: hardware -->")]
    for name in SIGNALS:
        assert f"| `{name}` | {DESCRIPTIONS[name]} |" in section, name


@pytest.mark.parametrize("name", [s for s in SIGNALS if s != "turn"])
def test_a_seat_signal_lights_only_that_seat(name: str) -> None:
    steps = pattern(name, 2, seats=4)
    lit = set().union(*(s.leds for s in steps))
    assert 2 in lit
    if name != "game_over":  # the chase goes round the whole table first
        assert lit == {2}
    assert all(s.seconds > 0 for s in steps)
    assert steps[-1].leds == frozenset() and not steps[-1].buzz  # ends dark and silent


def test_a_table_signal_lights_every_seat() -> None:
    assert set().union(*(s.leds for s in pattern("refused", None, seats=3))) == {0, 1, 2}


def test_card_is_silent_and_unknown_is_nothing() -> None:
    assert not any(s.buzz for s in pattern("card", 0, 3))
    assert pattern("no-such-signal", 0, 3) == []


def play(mock_factory: Any, signals: SignalsConfig, gpio: GpioConfig | None = None) -> Any:
    sink = Sink()
    box = attach(sink, gpio or GpioConfig(seat_buttons=[], seat_leds=[12, 25]), signals,
                 pin_factory=mock_factory)
    snap = type("Snap", (), {"players": ("A", "B"), "game": "x", "public": {}, "outcome": None})
    sink.listener(snap, [("penalty", 1)])
    assert box.wait_idle(300)
    return box


def test_volume_below_one_drives_the_buzzer_with_pwm(mock_factory: Any) -> None:
    with play(mock_factory, SignalsConfig(volume=0.25)):
        states = [s.state for s in mock_factory.pin(9).states]
    assert 0.25 in states and 1 not in states


def test_buzzer_off_and_leds_off_leave_the_pins_alone(mock_factory: Any) -> None:
    with play(mock_factory, SignalsConfig(buzzer=False, leds=False)) as box:
        assert not box.status().buzzer and box.status().leds == 0
        assert box.player is not None and box.player.played == [("penalty", 1)]
    with play(mock_factory, SignalsConfig(volume=0.0)) as box:
        assert not box.status().buzzer
    assert [s.state for s in mock_factory.pin(9).states] == [False]


def test_rgb_led_shows_colours(mock_factory: Any) -> None:
    gpio = GpioConfig(seat_buttons=[], seat_leds=[], rgb_led=[10, 11, 8])
    with play(mock_factory, SignalsConfig(), gpio) as box:
        assert "RGB" in box.status().summary
    red, green = mock_factory.pin(10), mock_factory.pin(11)
    assert any(s.state for s in red.states) and any(s.state for s in green.states)


CHECKS = ("check_green", "check_amber", "check_red")


def test_the_camera_checks_signals_are_documented_and_light_every_seat() -> None:
    text = README.read_text(encoding="utf-8")
    for name in CHECKS:
        assert f"| `{name}` | {DESCRIPTIONS[name]} |" in text, name
        steps = pattern(name, None, seats=3)
        assert set().union(*(s.leds for s in steps)) == {0, 1, 2} and any(s.buzz for s in steps)
        assert steps[-1].leds == frozenset() and not steps[-1].buzz


def test_the_camera_check_at_start_up_plays_its_level_once(mock_factory: Any) -> None:
    """Once the camera decoded its window of frames, the table beeps its check's level."""
    from hardware.signals import BootCheck

    frames = iter([10, 40, 95, 200])
    asked: list[int] = []

    def status() -> dict[str, Any]:
        asked.append(n := next(frames))
        return {"frames": n, "check": {"level": "red"}}

    with play(mock_factory, SignalsConfig()) as box:
        assert box.player is not None
        check = BootCheck(box.player, status, frames=90, poll_s=0.0)
        check.thread.join(60)  # a safety net: it ends after the third poll
        assert box.wait_idle(60)
        assert asked == [10, 40, 95] and check.played == "check_red"
        assert box.player.played[-1] == ("check_red", None)
        check.close()
