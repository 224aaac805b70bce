"""The box at the table: buttons in, LEDs and buzzer out, attached to a running table.

``attach(table, gpio, signals)`` builds everything from the config. Presses go to
``table.submit``; the table's snapshots and signals come back through
``table.subscribe`` and are played on the LEDs and buzzer. Where there is no GPIO (a
laptop, a container) it returns an appliance that does nothing and says why in
``status()``; the table runs on without buttons.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.config import GpioConfig, SignalsConfig
from companion.inputs import ButtonPressed, Input, Result
from hardware.buttons import ButtonBank, button_specs
from hardware.pins import FactoryChoice, factory_name, load_factory
from hardware.signals import Outputs, Signal, SignalPlayer

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class TableLike(Protocol):
    """The public ``Table`` API the appliance uses (a fake in tests)."""

    def submit(self, inp: Input) -> Future[Result]: ...

    def subscribe(self, listener: Callable[[Any, list[Signal]], None]) -> None: ...


@dataclass(frozen=True)
class ApplianceStatus:
    """What the buttons/LEDs/buzzer are doing, in words for the dashboard and doctor."""

    active: bool
    backend: str
    summary: str
    buttons: int = 0
    leds: int = 0
    buzzer: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {"active": self.active, "backend": self.backend, "summary": self.summary,
                "buttons": self.buttons, "leds": self.leds, "buzzer": self.buzzer,
                "notes": list(self.notes)}

    def __str__(self) -> str:
        return self.summary


class Appliance:
    """Buttons, LEDs and buzzer bound to one table; a context manager, ``close()`` twice ok."""

    def __init__(self, status: ApplianceStatus, buttons: ButtonBank | None = None,
                 outputs: Outputs | None = None, player: SignalPlayer | None = None,
                 factory: FactoryChoice | None = None) -> None:
        self._status = status
        self.buttons = buttons
        self.outputs = outputs
        self.player = player
        self._factory = factory
        self._closed = threading.Event()

    def status(self) -> ApplianceStatus:
        return self._status

    @property
    def active(self) -> bool:
        return self._status.active and not self._closed.is_set()

    def on_snapshot(self, snap: Any, signals: list[Signal]) -> None:
        """The table listener: returns at once, the player thread does the work."""
        if self._closed.is_set() or self.player is None:
            return
        players = getattr(snap, "players", ())
        if players:
            self.player.seats = min(len(players), self.player.seats_max)
        turn = (getattr(snap, "public", None) or {}).get("turn")
        if getattr(snap, "game", None) is None:
            self.player.set_turn(None)
        elif getattr(snap, "outcome", None) is None and type(turn) is int:
            self.player.set_turn(turn)  # the steady state; game over keeps the winner lit
        self.player.play(signals)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """True once every queued signal has been played (tests, orderly shutdown)."""
        return self.player.wait_idle(timeout) if self.player is not None else True

    def close(self) -> None:
        """Buttons stop reporting first, then outputs go off and pins are released."""
        if self._closed.is_set():
            return
        self._closed.set()
        for part in (self.buttons, self.player, self.outputs):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing must reach every part
                    log.exception("closing %s failed", type(part).__name__)
        if self._factory is not None and self._factory.owned and self._factory.factory:
            try:
                self._factory.factory.close()
            except Exception:
                log.exception("closing the pin factory failed")

    def __enter__(self) -> Appliance:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def inactive(reason: str, backend: str = "none") -> Appliance:
    """An appliance that does nothing, and says why."""
    return Appliance(ApplianceStatus(False, backend, f"buttons and LEDs off: {reason}"))


def attach(
    table: TableLike,
    gpio: GpioConfig,
    signals: SignalsConfig,
    pin_factory: Any = None,
    clock: Clock = time.monotonic,
) -> Appliance:
    """Build buttons, LEDs and buzzer from the config and bind them to ``table``.

    ``clock`` must be the table's clock (press times are on it). Never raises for
    missing or busy hardware: the returned appliance is then inactive and its
    ``status()`` says what is wrong and what to do.
    """
    if not gpio.enabled:
        return inactive("GPIO is disabled in the config ([gpio] enabled = false)")
    if pin_factory is not None:
        choice = FactoryChoice(pin_factory, factory_name(pin_factory), owned=False)
    else:
        choice = load_factory(gpio.pin_factory)
        if choice.factory is None:
            return inactive(choice.problem or "no GPIO backend", choice.name)
    try:
        appliance = _build(table, gpio, signals, choice, clock)
    except Exception as exc:  # a pin in use, a bad pin number...
        log.error("GPIO setup failed: %s", exc)
        if choice.owned:
            choice.factory.close()
        return inactive(f"GPIO setup failed ({exc}); check the pins in [gpio] and that no "
                        "other program uses them", choice.name)
    table.subscribe(appliance.on_snapshot)
    return appliance


def _build(table: TableLike, gpio: GpioConfig, signals: SignalsConfig, choice: FactoryChoice,
           clock: Clock) -> Appliance:
    leds = gpio.seat_leds if signals.leds else []
    rgb = gpio.rgb_led if signals.leds else None
    buzzer_pin = gpio.buzzer if signals.buzzer else None
    outputs = Outputs(leds, rgb, buzzer_pin, signals.volume, pin_factory=choice.factory)
    seats_max = max(len(leds), len(gpio.seat_buttons), 1)
    player = SignalPlayer(outputs, seats_max, turn_led=signals.turn_led)
    specs = button_specs(gpio.seat_buttons, gpio.confirm_button, gpio.undo_button,
                         gpio.next_button)
    try:
        buttons = ButtonBank(specs, _sink(table), bounce_s=gpio.bounce_s, hold_s=gpio.hold_s,
                             pin_factory=choice.factory, clock=clock)
    except Exception:
        player.close()
        outputs.close()
        raise
    has_buzzer = outputs.buzzer is not None
    summary = (f"{len(specs)} buttons, {len(outputs.leds)} seat LEDs"
               f"{', RGB LED' if outputs.rgb is not None else ''}"
               f", buzzer {'on' if has_buzzer else 'off'} ({choice.name} pins)")
    status = ApplianceStatus(True, choice.name, summary, len(specs), len(outputs.leds),
                             has_buzzer, tuple(outputs.notes))
    return Appliance(status, buttons, outputs, player, choice)


def _sink(table: TableLike) -> Callable[[ButtonPressed], None]:
    def submit(press: ButtonPressed) -> None:
        fut = table.submit(press)
        fut.add_done_callback(lambda f: _log_result(press, f))

    return submit


def _log_result(press: ButtonPressed, fut: Future[Result]) -> None:
    res = fut.result()
    if not res.accepted:  # the table has already shown the refusal (dashboard, LEDs)
        log.info("button %s seat %s refused: %s", press.role, press.seat, res.reason)
