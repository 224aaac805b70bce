"""``companion doctor``'s hardware rows: the camera (opens, resolution, measured fps) and
GPIO (pin backend, each configured button's state), then the whole report."""

from __future__ import annotations

import glob
import importlib.util
import time
from typing import Any

from companion.config import Config, GpioConfig
from companion.doctor import (
    Check,
    Level,
    check_decoder,
    check_demo,
    check_network,
    check_power,
    check_storage,
    fail,
    ok,
    warn,
)

NO_CAMERA_FIX = "connect a camera (ribbon or USB); until then `companion serve --demo` runs"


def detect_camera() -> str | None:
    """"picamera2" when libcamera lists a camera, "opencv" for a V4L2 device, else None."""
    if importlib.util.find_spec("picamera2") is not None:
        try:
            from picamera2 import Picamera2

            if Picamera2.global_camera_info():
                return "picamera2"
        except Exception:  # libcamera missing or broken: try V4L2 next
            pass
    return "opencv" if glob.glob("/dev/video*") else None


def check_camera(config: Config, seconds: float = 1.0) -> list[Check]:
    cam = config.camera
    if cam.source in ("file", "synthetic"):
        return [ok("camera", cam.source, f"configured to read {cam.path or 'a synthetic table'}")]
    kind = detect_camera() if cam.source == "auto" else cam.source
    if kind is None:
        return [warn("camera", "none", "no camera found (no Pi camera, no /dev/video*)",
                     NO_CAMERA_FIX)]
    from vision.sources import CameraError, OpenCVSource, PiCamera2Source

    source: Any = (PiCamera2Source(cam.width, cam.height, cam.fps) if kind == "picamera2"
                   else OpenCVSource(cam.device, cam.width, cam.height, cam.fps))
    try:
        first = source.read()
        start, frames = time.monotonic(), 0
        while time.monotonic() - start < seconds:
            source.read()
            frames += 1
        fps = frames / (time.monotonic() - start)
    except CameraError as exc:
        busy = "busy" in str(exc).lower() or "no other program" in str(exc)
        fix = ("if the table service is running it holds the camera: "
               "`sudo systemctl stop table-companion`, then run doctor again"
               if busy else "check the cable and [camera] in the config")
        return [fail("camera", kind, str(exc), fix)]
    finally:
        source.close()
    h, w = first.image.shape[:2] if first is not None else (0, 0)
    row = f"{w}x{h}, {fps:.1f} fps measured (asked for {cam.fps:g})"
    if fps < min(10.0, cam.fps * 0.5):
        return [warn("camera", kind, row, "slow camera: lower [camera] width/height or fps")]
    return [ok("camera", kind, row)]


def check_gpio(gpio: GpioConfig) -> list[Check]:
    from hardware.buttons import button_specs
    from hardware.pins import load_factory, pi_model

    if not gpio.enabled:
        return [warn("gpio", "backend", "disabled in the config ([gpio] enabled = false)",
                     "buttons and LEDs stay off; the dashboard has on-screen buttons")]
    choice = load_factory(gpio.pin_factory)
    if choice.factory is None:
        if pi_model() is None:
            return [warn("gpio", "backend", choice.problem or "no GPIO",
                         "buttons work on a Raspberry Pi; the dashboard has on-screen buttons")]
        return [fail("gpio", "backend", choice.problem or "no GPIO backend",
                     "sudo apt install python3-lgpio; venv with --system-site-packages")]
    rows = [ok("gpio", "backend", f"{choice.name} pins on {pi_model() or 'this machine'}")]
    specs = button_specs(gpio.seat_buttons, gpio.confirm_button, gpio.undo_button,
                         gpio.next_button)
    try:
        rows += [_button_row(spec, choice.factory) for spec in specs]
    finally:
        choice.factory.close()
    return rows


def _button_row(spec: Any, factory: Any) -> Check:
    from gpiozero import Button

    item = f"{spec.label} GPIO{spec.pin}"
    try:
        with Button(spec.pin, pull_up=True, pin_factory=factory) as button:
            pressed = bool(button.is_pressed)
    except Exception as exc:
        if "busy" in str(exc).lower():
            return warn("gpio", item, "in use (by the running table?)",
                        "to test buttons: sudo systemctl stop table-companion")
        return fail("gpio", item, f"cannot read: {exc}", "check the pin number in [gpio]")
    if pressed:
        return warn("gpio", item, "reads pressed with nobody pressing",
                    "a stuck button, or the wire goes to GND without the button")
    return ok("gpio", item, "released")


def run_checks(config: Config, demo: bool = False) -> list[Check]:
    """Every row of the report; with ``demo`` the camera and GPIO are not needed."""
    rows: list[Check] = []
    if demo:
        rows.append(ok("camera", "--demo", "not needed: a synthetic table is the camera"))
        rows.append(ok("gpio", "--demo", "not needed: buttons are simulated"))
    else:
        rows += check_camera(config)
        rows += check_gpio(config.gpio)
    rows += check_decoder(config)
    rows += check_storage()
    rows += check_network(config)
    rows += check_power()
    rows.append(check_demo(rows))
    return rows


def exit_status(rows: list[Check]) -> int:
    return 1 if any(r.level is Level.FAIL for r in rows) else 0
