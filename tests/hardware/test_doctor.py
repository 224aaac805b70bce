"""companion doctor: the truth about this machine, a FAIL for what is broken."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import doctor, doctor_hw
from companion.cli import main
from companion.config import Config, GpioConfig, parse_config
from companion.doctor import Level


@pytest.fixture
def bare_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """No camera, no GPIO, not a Pi: what a laptop or a CI runner is."""
    monkeypatch.setattr(doctor_hw, "detect_camera", lambda: None)
    monkeypatch.setattr("hardware.pins.MODEL_PATH", Path("/nonexistent/model"))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(doctor, "_has_vcgencmd", lambda: False)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["doctor", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def levels(report: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(c["area"], c["item"]): c["level"] for c in report["checks"]}


def test_bare_machine_warns_plainly_and_exits_0_because_demo_works(
    bare_machine: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = run_json(capsys)
    got = levels(report)
    assert got[("camera", "none")] == "WARN"
    assert got[("gpio", "backend")] == "WARN"
    assert got[("demo", "serve --demo")] == "OK"
    assert not any(level == "FAIL" for level in got.values())
    assert code == 0 and report["ok"] is True
    gpio = next(c for c in report["checks"] if c["area"] == "gpio")
    assert "not a Raspberry Pi" in gpio["detail"]


def test_broken_decoder_fails_and_so_does_the_demo(
    bare_machine: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Blind:
        name = "blind"

        def decode(self, image: Any) -> list[Any]:
            return []

    monkeypatch.setattr("vision.decoding.default_decoder", lambda name="auto": Blind())
    code, report = run_json(capsys)
    got = levels(report)
    assert got[("decoder", "blind")] == "FAIL" and got[("demo", "serve --demo")] == "FAIL"
    assert code == 1


def test_the_real_decoder_reads_the_built_in_image() -> None:
    rows = doctor.check_decoder(Config())
    assert [r.level for r in rows] == [Level.OK], rows


def test_damaged_event_store_fails_with_a_fix(tmp_path: Path) -> None:
    (tmp_path / "events.sqlite3").write_bytes(b"this is not a database" * 100)
    rows = {r.item: r for r in doctor.check_storage(tmp_path)}
    assert rows["state dir"].level is Level.OK
    assert rows["event store"].level is Level.FAIL and "move" in rows["event store"].fix


def test_healthy_event_store_counts_games(tmp_path: Path) -> None:
    from companion.store import SqliteStore

    store = SqliteStore(tmp_path / "events.sqlite3")
    store.create_game("nasty7", ["A", "B"], {}, 0)
    store.close()
    rows = {r.item: r for r in doctor.check_storage(tmp_path)}
    assert rows["event store"].level is Level.OK and "1 game" in rows["event store"].detail


@pytest.mark.parametrize(("out", "level", "words"), [
    ("throttled=0x0\n", Level.OK, "no under-voltage"),
    ("throttled=0x50000\n", Level.WARN, "under-voltage since boot"),
    ("throttled=0x50005\n", Level.FAIL, "under-voltage now"),
])
def test_pi_power_from_vcgencmd(out: str, level: Level, words: str) -> None:
    (row,) = doctor.check_power(run=lambda cmd: out)
    assert row.level is level and words in row.detail


def test_buttons_on_mock_pins_read_released() -> None:
    rows = doctor_hw.check_gpio(GpioConfig(pin_factory="mock"))
    assert rows[0].level is Level.OK and "mock" in rows[0].detail
    assert len(rows) == 1 + 8 + 3
    assert all(r.level is Level.OK and r.detail == "released" for r in rows[1:])


def test_camera_that_cannot_open_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config({"camera": {"source": "opencv", "device": "/nonexistent/video9"}})
    (row,) = doctor_hw.check_camera(config, seconds=0.1)
    assert row.level is Level.FAIL and "cannot open camera" in row.detail


def test_synthetic_camera_is_fine_without_hardware() -> None:
    (row,) = doctor_hw.check_camera(parse_config({"camera": {"source": "synthetic"}}))
    assert row.level is Level.OK


def test_table_output_for_demo(bare_machine: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--demo"]) == 0
    out = capsys.readouterr().out
    assert "OK    demo" in out and "0 failed" in out
