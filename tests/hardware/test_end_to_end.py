"""Done when: mocked buttons drive real game actions end to end.

press (MockFactory pin) -> ButtonBank -> Table.submit -> table loop -> The Nasty 7
engine -> events committed to SQLite -> snapshot + signals -> LED and buzzer pins.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from companion.config import GpioConfig, SignalsConfig
from companion.inputs import TABLE, Command, TagLeft
from companion.paths import state_dir
from companion.store import SqliteStore
from companion.table import Table
from hardware import Appliance, attach
from hardware.signals import Step
from tests.hardware.conftest import FakeClock
from tests.wait import SAFETY

GPIO = GpioConfig(seat_buttons=[5, 6, 13], seat_leds=[12, 25, 24], confirm_button=17,
                  undo_button=27, next_button=22, buzzer=9, bounce_s=0.01, hold_s=10.0)
# hold_s: a long press is 10 s on the table's (hand-moved) clock; gpiozero also times a
# hold on the wall clock, which no stall of a loaded machine comes near

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.games.nasty7") is None,
    reason="The Nasty 7 engine is not installed",
)


@pytest.fixture
def table(fake_clock: FakeClock) -> Iterator[Table]:
    """The table on a clock moved by hand: a press's length, contact chatter and a
    missed deadline are exact, however slow or loaded the machine is."""
    store = SqliteStore.in_state_dir(state_dir())
    t = Table(store, clock=fake_clock)
    t.start()
    yield t
    t.stop()
    store.close()


class Shown:
    """Every step the signal player showed on the outputs (LEDs, buzzer), in order."""

    def __init__(self, box: Appliance) -> None:
        assert box.player is not None
        self.steps: list[Step] = []
        outputs = box.player.outputs
        real = outputs.show

        def show(step: Step) -> None:
            self.steps.append(step)
            real(step)

        outputs.show = show  # type: ignore[method-assign]

    def beeps(self) -> list[float]:
        """How long the buzzer was asked to sound, each time it sounded."""
        out: list[float] = []
        on = False
        for step in self.steps:
            if step.buzz:
                out[-1:] = [out[-1] + step.seconds] if on else [*out[-1:], step.seconds]
            on = step.buzz
        return [round(b, 3) for b in out]


@pytest.fixture
def box(table: Table, mock_factory: Any) -> Iterator[Appliance]:
    with attach(table, GPIO, SignalsConfig(), pin_factory=mock_factory,
                clock=table.clock) as appliance:
        yield appliance


def send(table: Table, cmd: Command) -> None:
    res = table.submit(cmd).result(SAFETY)
    assert res.accepted, res.reason


def tap(factory: Any, pin: int, clock: FakeClock, seconds: float = 0.05) -> None:
    """A human press: contacts chatter (edges 1 ms apart), stay closed ``seconds``,
    chatter on release; on the table's clock, so no machine is too slow for it."""
    p = factory.pin(pin)
    for _ in range(3):
        p.drive_low()
        clock.advance(0.001)
        p.drive_high()
        clock.advance(0.001)
    p.drive_low()
    clock.advance(seconds)
    p.drive_high()
    clock.advance(0.001)
    p.drive_low()
    clock.advance(0.001)
    p.drive_high()


def settle(table: Table, box: Appliance) -> None:
    """Wait until the loop has handled every queued input and the signals are played."""
    # an input the table ignores silently; its future resolves after every earlier one
    assert table.submit(TagLeft("barrier", table.clock())).result(SAFETY).ignored
    assert box.wait_idle(SAFETY)


def event_types(table: Table) -> list[str]:
    assert table.info is not None
    return [e.type for e in table.store.events(table.info.game_id)]


def on_periods(pin: Any) -> list[float]:
    """How long the pin stayed high each time it went high (from the mock's history)."""
    out, t, high_since = [], 0.0, None
    for change in pin.states[1:]:
        t += change.timestamp
        if change.state and high_since is None:
            high_since = t
        elif not change.state and high_since is not None:
            out.append(t - high_since)
            high_since = None
    return out


def assert_beeps(shown: Shown, buzzer: Any, expected: list[float]) -> None:
    """These beeps were played: asked of the buzzer for these lengths, and its pin went
    high that many times (lengths on the wall clock would depend on the machine's load)."""
    assert shown.beeps() == expected
    assert len(on_periods(buzzer)) == len(expected), on_periods(buzzer)


def test_seat_button_accuses_and_host_button_upholds(
    table: Table, box: Appliance, mock_factory: Any, fake_clock: FakeClock
) -> None:
    assert box.status().active and box.status().buttons == 6
    send(table, Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}, source=TABLE))
    settle(table, box)
    buzzer, ann_led = mock_factory.pin(9), mock_factory.pin(12)
    buzzer.clear_states()
    ann_led.clear_states()
    shown = Shown(box)

    tap(mock_factory, 6, fake_clock)  # Ben accuses Ann, who played the last card
    settle(table, box)
    assert event_types(table)[-1] == "AccusationOpened"
    assert table.hub.latest().public  # the accusation is on the dashboard too
    tap(mock_factory, 17, fake_clock)  # the host upholds it (short press of confirm)
    settle(table, box)

    types = event_types(table)
    assert types.count("AccusationOpened") == 1 and "AccusationRuled" in types
    assert types[-1] == "PileTaken"
    assert table.info is not None
    ruled = [e for e in table.store.events(table.info.game_id) if e.type == "AccusationRuled"]
    assert ruled[0].payload["upheld"] is True
    # upheld: short-short-long on the buzzer, with the accused seat's LED
    assert_beeps(shown, buzzer, [0.1, 0.1, 0.4])
    assert len(on_periods(ann_led)) >= 3


def test_refused_button_blinks_and_changes_nothing(
    table: Table, box: Appliance, mock_factory: Any, fake_clock: FakeClock
) -> None:
    send(table, Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}, source=TABLE))
    settle(table, box)
    before = event_types(table)
    buzzer = mock_factory.pin(9)
    buzzer.clear_states()
    shown = Shown(box)
    tap(mock_factory, 5, fake_clock)  # Ann accuses herself: refused
    settle(table, box)
    assert event_types(table) == before
    snap = table.hub.latest()
    assert snap.refusal is not None and "cannot accuse themselves" in snap.refusal.reason
    assert_beeps(shown, buzzer, [0.06, 0.06])


def test_host_long_press_of_undo_undoes(table: Table, box: Appliance, mock_factory: Any,
                                        fake_clock: FakeClock) -> None:
    send(table, Command("start", {"game": "nasty7", "players": 3}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}, source=TABLE))
    assert table.hub.latest().can_undo
    tap(mock_factory, 27, fake_clock, seconds=11.0)  # held past hold_s = 10
    settle(table, box)
    assert not table.hub.latest().can_undo
    assert event_types(table)[-1] != "CardPlayed"


def test_hesitation_deadline_sounds_the_long_beep(
    table: Table, box: Appliance, mock_factory: Any, fake_clock: FakeClock
) -> None:
    send(table, Command("start", {"game": "nasty7", "players": 3,
                                  "options": {"hesitation_s": 0.2}}))
    buzzer, ben_led = mock_factory.pin(9), mock_factory.pin(25)
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}, source=TABLE))
    buzzer.clear_states()
    shown = Shown(box)
    fake_clock.advance(0.5)  # Ben (seat 1) does not play in time
    # a card of the game leaving the camera's view: the table delivers the deadlines due
    # by its time before it judges it (and ignores it), so the deadline is in, whatever
    # the loop's own wake-ups did meanwhile
    left = TagLeft("barrier", fake_clock(), status="ok", game="nasty7", card="racketeer",
                   serial=1)
    assert table.submit(left).result(SAFETY).ignored
    settle(table, box)
    assert "PileTaken" in event_types(table)
    assert shown.beeps()[:1] == [0.6] and len(on_periods(buzzer)) >= 1
    assert len(on_periods(ben_led)) >= 3  # the slow seat blinks


def test_no_input_from_a_press_during_shutdown(
    table: Table, mock_factory: Any
) -> None:
    box = attach(table, GPIO, SignalsConfig(), pin_factory=mock_factory, clock=table.clock)
    send(table, Command("start", {"game": "nasty7", "players": 3}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}, source=TABLE))
    n = len(event_types(table))
    assert box.buttons is not None
    bank, tracker = box.buttons, box.buttons.trackers[6]
    box.close()
    box.close()
    bank.edge(tracker, "pressed")  # a callback that was in flight when close() began
    table.submit(TagLeft("barrier", table.clock())).result(SAFETY)
    assert len(event_types(table)) == n
    assert not box.active


def test_without_gpio_attach_says_so(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("hardware.pins.MODEL_PATH", __import__("pathlib").Path("/nonexistent"))
    with attach(table, GpioConfig(), SignalsConfig()) as box:
        st = box.status()
        assert not st.active and "not a Raspberry Pi" in st.summary
    off = attach(table, GpioConfig(enabled=False), SignalsConfig())
    assert "disabled" in off.status().summary
    off.close()
    off.close()
