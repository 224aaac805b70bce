"""Done when: mocked buttons drive real game actions end to end.

press (MockFactory pin) -> ButtonBank -> Table.submit -> table loop -> The Nasty 7
engine -> events committed to SQLite -> snapshot + signals -> LED and buzzer pins.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.config import GpioConfig, SignalsConfig
from companion.inputs import Command, TagLeft
from companion.paths import state_dir
from companion.store import SqliteStore
from companion.table import Table
from hardware import Appliance, attach

GPIO = GpioConfig(seat_buttons=[5, 6, 13], seat_leds=[12, 25, 24], confirm_button=17,
                  undo_button=27, next_button=22, buzzer=9, bounce_s=0.01, hold_s=0.3)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.games.nasty7") is None,
    reason="The Nasty 7 engine is not installed",
)


@pytest.fixture
def table() -> Iterator[Table]:
    store = SqliteStore.in_state_dir(state_dir())
    t = Table(store)
    t.start()
    yield t
    t.stop()
    store.close()


@pytest.fixture
def box(table: Table, mock_factory: Any) -> Iterator[Appliance]:
    with attach(table, GPIO, SignalsConfig(), pin_factory=mock_factory,
                clock=table.clock) as appliance:
        yield appliance


def send(table: Table, cmd: Command) -> None:
    res = table.submit(cmd).result(5)
    assert res.accepted, res.reason


def tap(factory: Any, pin: int, seconds: float = 0.05) -> None:
    """A human press: contacts chatter for 5 ms, stay closed, chatter on release."""
    p = factory.pin(pin)
    for _ in range(3):
        p.drive_low()
        p.drive_high()
    p.drive_low()
    time.sleep(seconds)
    p.drive_high()
    p.drive_low()
    p.drive_high()


def settle(table: Table, box: Appliance) -> None:
    """Wait until the loop has handled every queued input and the signals are played."""
    # an input the table ignores silently; its future resolves after every earlier one
    assert table.submit(TagLeft("barrier", table.clock())).result(5).ignored
    assert box.wait_idle(5.0)


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


def assert_beeps(periods: list[float], expected: list[float]) -> None:
    """The same beeps: never shorter than the pattern, late by at most a loaded CI's lag."""
    assert len(periods) == len(expected), periods
    for got, want in zip(periods, expected, strict=True):
        assert want - 0.02 <= got <= want + 0.15, (periods, expected)


def test_seat_button_accuses_and_host_button_upholds(
    table: Table, box: Appliance, mock_factory: Any
) -> None:
    assert box.status().active and box.status().buttons == 6
    send(table, Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}))
    settle(table, box)
    buzzer, ann_led = mock_factory.pin(9), mock_factory.pin(12)
    buzzer.clear_states()
    ann_led.clear_states()

    tap(mock_factory, 6)  # Ben accuses Ann, who played the last card
    settle(table, box)
    assert event_types(table)[-1] == "AccusationOpened"
    assert table.hub.latest().public  # the accusation is on the dashboard too
    tap(mock_factory, 17)  # the host upholds it (short press of confirm)
    settle(table, box)

    types = event_types(table)
    assert types.count("AccusationOpened") == 1 and "AccusationRuled" in types
    assert types[-1] == "PileTaken"
    assert table.info is not None
    ruled = [e for e in table.store.events(table.info.game_id) if e.type == "AccusationRuled"]
    assert ruled[0].payload["upheld"] is True
    # upheld: short-short-long on the buzzer, with the accused seat's LED
    assert_beeps(on_periods(buzzer), [0.1, 0.1, 0.4])
    assert len(on_periods(ann_led)) >= 3


def test_refused_button_blinks_and_changes_nothing(
    table: Table, box: Appliance, mock_factory: Any
) -> None:
    send(table, Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}))
    settle(table, box)
    before = event_types(table)
    buzzer = mock_factory.pin(9)
    buzzer.clear_states()
    tap(mock_factory, 5)  # Ann accuses herself: refused
    settle(table, box)
    assert event_types(table) == before
    snap = table.hub.latest()
    assert snap.refusal is not None and "cannot accuse themselves" in snap.refusal.reason
    assert_beeps(on_periods(buzzer), [0.06, 0.06])


def test_host_long_press_of_undo_undoes(table: Table, box: Appliance, mock_factory: Any) -> None:
    send(table, Command("start", {"game": "nasty7", "players": 3}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}))
    assert table.hub.latest().can_undo
    tap(mock_factory, 27, seconds=0.5)  # held past hold_s = 0.3
    settle(table, box)
    assert not table.hub.latest().can_undo
    assert event_types(table)[-1] != "CardPlayed"


def test_hesitation_deadline_sounds_the_long_beep(
    table: Table, box: Appliance, mock_factory: Any
) -> None:
    send(table, Command("start", {"game": "nasty7", "players": 3,
                                  "options": {"hesitation_s": 0.2}}))
    buzzer, ben_led = mock_factory.pin(9), mock_factory.pin(25)
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}))
    buzzer.clear_states()
    time.sleep(0.5)  # Ben (seat 1) does not play in time
    settle(table, box)
    assert "PileTaken" in event_types(table)
    assert_beeps(on_periods(buzzer)[:1], [0.6])
    assert len(on_periods(ben_led)) >= 3  # the slow seat blinks


def test_no_input_from_a_press_during_shutdown(
    table: Table, mock_factory: Any
) -> None:
    box = attach(table, GPIO, SignalsConfig(), pin_factory=mock_factory, clock=table.clock)
    send(table, Command("start", {"game": "nasty7", "players": 3}))
    send(table, Command("action", {"action": {"do": "play", "card": "racketeer"}}))
    n = len(event_types(table))
    assert box.buttons is not None
    bank, tracker = box.buttons, box.buttons.trackers[6]
    box.close()
    box.close()
    bank.edge(tracker, "pressed")  # a callback that was in flight when close() began
    table.submit(TagLeft("barrier", table.clock())).result(5)
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
