"""Buttons: raw GPIO edges become one ``ButtonPressed`` per press, never two.

``PressTracker`` is the pure part (edges and times in, at most one press out), so the
debounce and hold rules are tested with a fake clock. ``ButtonBank`` wires one
``gpiozero.Button`` per configured pin to a tracker and hands each press to a sink.

The rules, per button:

- An edge less than ``bounce_s`` after the previous edge is contact chatter: a release
  that short after a press is ignored (the press goes on), a press that short after a
  release starts nothing. A 5 ms chatter therefore never makes a second press.
- A seat button reports at the moment it is pressed (who accused first matters); holding
  it changes nothing.
- A host button (confirm, undo, next) reports when released (a short press) or as soon
  as it has been held ``hold_s`` (a long press, ``hold=True``), once per press.
- After ``close()`` begins, nothing is reported.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.inputs import ButtonPressed, ButtonRole

Clock = Callable[[], float]
PressSink = Callable[[ButtonPressed], None]


@dataclass(frozen=True)
class ButtonSpec:
    """One configured button: its BCM pin, role and (for seat buttons) seat index."""

    pin: int
    role: ButtonRole
    seat: int | None = None

    @property
    def label(self) -> str:
        return f"seat {self.seat + 1}" if self.seat is not None else self.role


class PressTracker:
    """Debounce and hold detection for one button; times are on the table's clock."""

    def __init__(self, spec: ButtonSpec, bounce_s: float, hold_s: float) -> None:
        self.spec = spec
        self.bounce_s = bounce_s
        self.hold_s = hold_s
        self.down = False
        self._down_at = -math.inf
        self._last_edge = -math.inf
        self._reported = False

    @property
    def reports_on_press(self) -> bool:
        return self.spec.role == "seat"

    def pressed(self, now: float) -> ButtonPressed | None:
        """The button closed (pin went low)."""
        quiet = now - self._last_edge >= self.bounce_s
        self._last_edge = now
        if self.down and not quiet:
            return None  # chatter inside a press: the same press goes on
        if not self.down and not quiet:
            return None  # chatter right after a release: not a new press
        # a new press (if we were "down", the release before it was real after all)
        self.down, self._down_at, self._reported = True, now, False
        if self.reports_on_press:
            return self._report(hold=False)
        return None

    def released(self, now: float) -> ButtonPressed | None:
        """The button opened (pin went high)."""
        self._last_edge = now
        if not self.down or now - self._down_at < self.bounce_s:
            return None  # not pressed, or chatter at the start of a press
        self.down = False
        if self._reported:
            return None
        return self._report(hold=now - self._down_at >= self.hold_s)

    def held(self) -> ButtonPressed | None:
        """gpiozero measured ``hold_s`` with the button down: a long press, reported now."""
        if not self.down or self._reported:
            return None
        return self._report(hold=True)

    def _report(self, hold: bool) -> ButtonPressed:
        self._reported = True
        return ButtonPressed(self.spec.role, self._down_at, seat=self.spec.seat, hold=hold)


class ButtonBank:
    """One ``gpiozero.Button`` (to GND, internal pull-up) per spec, feeding ``sink``."""

    def __init__(
        self,
        specs: list[ButtonSpec],
        sink: PressSink,
        *,
        bounce_s: float,
        hold_s: float,
        pin_factory: Any = None,
        clock: Clock,
    ) -> None:
        from gpiozero import Button

        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        self._closing = False
        self.trackers: dict[int, PressTracker] = {}
        self.devices: dict[int, Any] = {}
        try:
            for spec in specs:
                # gpiozero's own bounce_time is off: chatter is handled on our clock.
                button = Button(spec.pin, pull_up=True, bounce_time=None, hold_time=hold_s,
                                pin_factory=pin_factory)
                tracker = PressTracker(spec, bounce_s, hold_s)
                self.trackers[spec.pin], self.devices[spec.pin] = tracker, button
                button.when_pressed = self._handler(tracker, "pressed")
                button.when_released = self._handler(tracker, "released")
                button.when_held = self._handler(tracker, "held")
        except Exception:
            self.close()
            raise

    def _handler(self, tracker: PressTracker, edge: str) -> Callable[[], None]:
        def handle() -> None:
            self.edge(tracker, edge)

        return handle

    def edge(self, tracker: PressTracker, edge: str) -> None:
        """Feed one edge to ``tracker``; a resulting press goes to the sink (not after close)."""
        with self._lock:
            if self._closing:
                return
            if edge == "pressed":
                press = tracker.pressed(self._clock())
            elif edge == "released":
                press = tracker.released(self._clock())
            else:
                press = tracker.held()
            if press is not None:
                self._sink(press)  # under the lock: close() waits for a press being sent

    def states(self) -> dict[str, bool]:
        """Each button's label -> whether it reads pressed right now."""
        out = {}
        for pin, button in self.devices.items():
            out[f"{self.trackers[pin].spec.label} (GPIO{pin})"] = bool(button.is_pressed)
        return out

    def close(self) -> None:
        """Stop reporting first, then release the pins; safe to call twice."""
        with self._lock:
            self._closing = True
        for button in self.devices.values():
            button.close()
        self.devices.clear()

    def __enter__(self) -> ButtonBank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def button_specs(
    seat_pins: list[int], confirm: int | None, undo: int | None, nxt: int | None,
    seats: int | None = None,
) -> list[ButtonSpec]:
    """The configured buttons: seat buttons first (seat 0 = the first pin), then host ones."""
    specs = [ButtonSpec(pin, "seat", i) for i, pin in enumerate(seat_pins[:seats])]
    for role, pin in (("confirm", confirm), ("undo", undo), ("next", nxt)):
        if pin is not None:
            specs.append(ButtonSpec(pin, role, None))  # type: ignore[arg-type]
    return specs
