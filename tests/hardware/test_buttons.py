"""Buttons: one press is one input, whatever the contacts do."""

from __future__ import annotations

from typing import Any

import pytest

from companion.inputs import ButtonPressed
from hardware.buttons import ButtonBank, ButtonSpec, PressTracker, button_specs

from .conftest import FakeClock

SEAT = ButtonSpec(5, "seat", 2)
UNDO = ButtonSpec(27, "undo")


def edges(tracker: PressTracker, script: list[tuple[float, str]]) -> list[ButtonPressed]:
    """Feed ``(time, "down"|"up"|"held")`` edges; the presses they produce."""
    out = []
    for t, what in script:
        if what == "down":
            press = tracker.pressed(t)
        elif what == "up":
            press = tracker.released(t)
        else:
            press = tracker.held()
        if press is not None:
            out.append(press)
    return out


CHATTER_5MS = [(0.0, "down"), (0.001, "up"), (0.002, "down"), (0.004, "up"), (0.005, "down")]


def test_seat_press_reports_at_once_with_press_time() -> None:
    presses = edges(PressTracker(SEAT, 0.03, 1.0), [(10.0, "down")])
    assert presses == [ButtonPressed("seat", 10.0, seat=2, hold=False)]


def test_chatter_at_press_and_release_makes_one_press() -> None:
    release_chatter = [(0.2, "up"), (0.201, "down"), (0.204, "up")]
    for spec in (SEAT, UNDO):
        presses = edges(PressTracker(spec, 0.03, 1.0), CHATTER_5MS + release_chatter)
        assert len(presses) == 1, spec
        assert presses[0].at == 0.0 and not presses[0].hold


def test_held_button_is_one_long_press() -> None:
    script = [(0.0, "down"), (1.0, "held"), (1.5, "held"), (3.0, "up")]
    assert edges(PressTracker(UNDO, 0.03, 1.0), script) == [
        ButtonPressed("undo", 0.0, hold=True)
    ]
    held_seat = edges(PressTracker(SEAT, 0.03, 1.0), script)
    assert len(held_seat) == 1 and not held_seat[0].hold


def test_hold_is_measured_on_release_when_no_hold_callback_came() -> None:
    assert edges(PressTracker(UNDO, 0.03, 1.0), [(0.0, "down"), (1.2, "up")]) == [
        ButtonPressed("undo", 0.0, hold=True)
    ]
    assert edges(PressTracker(UNDO, 0.03, 1.0), [(0.0, "down"), (0.3, "up")]) == [
        ButtonPressed("undo", 0.0, hold=False)
    ]


def test_two_real_presses_are_two() -> None:
    script = [(0.0, "down"), (0.15, "up"), (0.4, "down"), (0.55, "up")]
    assert len(edges(PressTracker(SEAT, 0.03, 1.0), script)) == 2
    assert len(edges(PressTracker(UNDO, 0.03, 1.0), script)) == 2


def test_a_glitch_does_not_swallow_the_next_press() -> None:
    # a 1 ms spike: for a host button it is noise; the next real press still counts once
    script = [(0.0, "down"), (0.001, "up"), (5.0, "down"), (5.2, "up")]
    presses = edges(PressTracker(UNDO, 0.03, 1.0), script)
    assert presses == [ButtonPressed("undo", 5.0, hold=False)]


def test_button_specs_from_config() -> None:
    specs = button_specs([5, 6, 13], 17, None, 22, seats=2)
    assert [(s.pin, s.role, s.seat) for s in specs] == [
        (5, "seat", 0), (6, "seat", 1), (17, "confirm", None), (22, "next", None)
    ]


@pytest.fixture
def bank(mock_factory: Any, fake_clock: FakeClock) -> Any:
    got: list[ButtonPressed] = []
    specs = button_specs([5, 6], 17, 27, 22)
    b = ButtonBank(specs, got.append, bounce_s=0.03, hold_s=5.0, pin_factory=mock_factory,
                   clock=fake_clock)
    b.got = got
    yield b
    b.close()


def drive(pin: Any, clock: FakeClock, script: list[tuple[float, str]]) -> None:
    start = clock.now
    for t, what in script:
        clock.now = start + t
        (pin.drive_low if what == "down" else pin.drive_high)()


def test_mock_pin_chatter_and_hold_make_one_input_each(
    bank: Any, mock_factory: Any, fake_clock: FakeClock
) -> None:
    seat_pin, undo_pin = mock_factory.pin(5), mock_factory.pin(27)
    drive(seat_pin, fake_clock, CHATTER_5MS + [(0.3, "up"), (0.301, "down"), (0.303, "up")])
    assert bank.got == [ButtonPressed("seat", 100.0, seat=0)]
    fake_clock.advance(1.0)
    drive(undo_pin, fake_clock, CHATTER_5MS + [(6.0, "up")])
    assert bank.got[1:] == [ButtonPressed("undo", fake_clock.now - 6.0, hold=True)]
    assert len(bank.got) == 2


def test_pull_up_button_reads_pressed_when_pin_is_low(bank: Any, mock_factory: Any) -> None:
    mock_factory.pin(6).drive_low()
    states = bank.states()
    mock_factory.pin(6).drive_high()
    assert states["seat 2 (GPIO6)"] is True and states["seat 1 (GPIO5)"] is False


def test_no_input_after_close_even_from_a_late_callback(
    bank: Any, mock_factory: Any, fake_clock: FakeClock
) -> None:
    tracker = bank.trackers[5]
    bank.close()
    bank.close()  # safe twice
    bank.edge(tracker, "pressed")  # a callback already in flight when close() began
    assert bank.got == []
    assert mock_factory.pin(5).when_changed is None  # the pin was released


def test_real_hold_thread_reports_long_press_while_held(mock_factory: Any) -> None:
    import threading
    import time

    got: list[ButtonPressed] = []
    done = threading.Event()

    def sink(p: ButtonPressed) -> None:
        got.append(p)
        done.set()

    with ButtonBank(button_specs([], None, 27, None), sink, bounce_s=0.01, hold_s=0.1,
                    pin_factory=mock_factory, clock=time.monotonic):
        pin = mock_factory.pin(27)
        pin.drive_low()
        assert done.wait(300), "gpiozero's hold thread never reported the long press"
        assert got[0].hold and got[0].role == "undo"
        pin.drive_high()
    assert len(got) == 1
