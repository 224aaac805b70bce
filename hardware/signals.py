"""LEDs and buzzer: the table's signals played as patterns on a thread of their own.

``Outputs`` owns the gpiozero output devices (one LED per seat, an optional RGB LED, an
optional buzzer) and shows one ``Step`` at a time. ``SignalPlayer`` takes signals from
the table listener (which must return at once), plays their patterns in order, and
between patterns shows the steady state: the LED of the seat whose turn it is.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from hardware.patterns import BLUE, GREEN, OFF, Step, pattern

log = logging.getLogger(__name__)

Signal = tuple[str, int | None]
#: frames the camera decodes before the start-up check is told (its window, ~3 s at 30 fps)
CHECK_FRAMES = 90


class BootCheck:
    """At start-up, once the camera decoded ``frames`` frames, play its check's level
    (``check_green``, ``check_amber`` or ``check_red``) on every LED and the buzzer.

    ``status()`` is the camera's (``VisionPipeline.status``: ``frames``, ``check``). A
    thread of its own polls it every ``poll_s`` until then, plays once and ends;
    ``close()`` stops it sooner (safe twice).
    """

    def __init__(self, player: SignalPlayer, status: Callable[[], dict[str, Any]],
                 frames: int = CHECK_FRAMES, poll_s: float = 0.5) -> None:
        self.player, self.status, self.frames, self.poll_s = player, status, frames, poll_s
        self.played: str | None = None
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="camera-check", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                now = self.status()
            except Exception:
                log.exception("the camera check could not be read")
                return
            if int(now.get("frames") or 0) >= self.frames:
                level = (now.get("check") or {}).get("level", "amber")
                self.played = f"check_{level}"
                self.player.play([(self.played, None)])
                return

    def close(self) -> None:
        self._stop.set()


class Outputs:
    """Seat LEDs, RGB LED and buzzer behind one ``show(step)``; ``close()`` safe twice."""

    def __init__(
        self,
        seat_leds: list[int],
        rgb_led: list[int] | None,
        buzzer: int | None,
        volume: float = 1.0,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import LED, RGBLED, DigitalOutputDevice, PWMOutputDevice
        from gpiozero.exc import PinPWMUnsupported

        self.leds: list[Any] = []
        self.rgb: Any = None
        self.buzzer: Any = None
        self.volume = volume
        self.notes: list[str] = []
        try:
            self.leds = [LED(pin, pin_factory=pin_factory) for pin in seat_leds]
            if rgb_led is not None:
                red, green, blue = rgb_led
                self.rgb = RGBLED(red, green, blue, pwm=False, pin_factory=pin_factory)
            if buzzer is not None and volume > 0:
                if volume < 1:
                    try:
                        self.buzzer = PWMOutputDevice(buzzer, pin_factory=pin_factory)
                    except PinPWMUnsupported:
                        self.notes.append("buzzer pin has no PWM: volume is full or off")
                if self.buzzer is None:
                    self.buzzer = DigitalOutputDevice(buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def show(self, step: Step) -> None:
        for i, led in enumerate(self.leds):
            led.value = i in step.leds
        if self.rgb is not None:
            self.rgb.value = tuple(1.0 if c >= 0.5 else 0.0 for c in step.colour)
        if self.buzzer is not None:
            on = self.volume if hasattr(self.buzzer, "frequency") else 1.0
            self.buzzer.value = on if step.buzz else 0.0

    def close(self) -> None:
        devices = [*self.leds, self.rgb, self.buzzer]
        self.leds, self.rgb, self.buzzer = [], None, None
        for device in devices:
            if device is not None:
                device.close()


class SignalPlayer:
    """Plays signal patterns one after another on its own thread."""

    def __init__(self, outputs: Outputs, seats: int, turn_led: bool = True,
                 max_pending: int = 16) -> None:
        self.outputs = outputs
        self.seats = seats  # seats in the current game (<= seats_max)
        self.seats_max = seats
        self.turn_led = turn_led
        self._queue: queue.Queue[Signal | None] = queue.Queue(max_pending)
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._lock = threading.Lock()
        self._steady = Step(0.0)
        self.played: list[Signal] = []
        self._thread = threading.Thread(target=self._run, name="signals", daemon=True)
        self._thread.start()

    def play(self, signals: list[Signal]) -> None:
        """Queue these signals (returns at once; drops what does not fit, with a log line)."""
        for sig in signals:
            if sig[0] == "turn":
                self.set_turn(sig[1])
                continue
            if self._stop.is_set():
                return
            with self._lock:  # the worker sets idle under this lock once the queue is empty
                try:
                    self._queue.put_nowait(sig)
                    self._idle.clear()
                except queue.Full:
                    log.warning("signal %s for seat %s dropped: too many pending", *sig)

    def set_turn(self, seat: int | None, winner: bool = False) -> None:
        """The steady state: this seat's LED lit (or none)."""
        with self._lock:
            if seat is None or not self.turn_led or not 0 <= seat < self.seats:
                self._steady = Step(0.0)
            else:
                self._steady = Step(0.0, leds=frozenset({seat}), colour=GREEN if winner else BLUE)
            if self._idle.is_set():
                self.outputs.show(self._steady)

    def _run(self) -> None:
        while not self._stop.is_set():
            sig = self._queue.get()
            try:
                if sig is None:
                    break
                self._play_one(sig)
            finally:
                self._queue.task_done()
            with self._lock:
                if self._queue.empty():
                    self.outputs.show(self._steady)
                    self._idle.set()

    def _play_one(self, sig: Signal) -> None:
        name, seat = sig
        if seat is not None and not 0 <= seat < self.seats:
            seat = None
        with self._lock:
            self.played.append(sig)
        for step in pattern(name, seat, self.seats):
            if self._stop.is_set():
                return
            self.outputs.show(step)
            self._stop.wait(step.seconds)
        if name == "game_over" and seat is not None:
            self.set_turn(seat, winner=True)

    def wait_idle(self, timeout: float) -> bool:
        """True once everything queued has been played (for tests and shutdown)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Stop at the current step, leave every output off; safe twice."""
        if self._stop.is_set():
            return
        self._stop.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(2.0)
        self.outputs.show(Step(0.0, colour=OFF))
        self._idle.set()
