"""The configuration file (TOML), validated so that a mistake names the key and the fix.

Every section has defaults that work on a Raspberry Pi with the documented wiring
(``docs/wiring.md``), so an empty or missing file is a valid configuration.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and what to do."""


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableConfig(Section):
    """What game the table starts with and who sits where (the dashboard can change it)."""

    game: str = ""  # empty: the first game of the registry (companion.games.DEFAULT_GAME)
    players: list[str] = Field(default_factory=lambda: ["Seat 1", "Seat 2", "Seat 3"])
    options: dict[str, Any] = Field(default_factory=dict)


class CameraConfig(Section):
    source: Literal["auto", "opencv", "picamera2", "file", "synthetic"] = "auto"
    device: int | str = 0
    width: int = Field(1280, ge=160, le=4608)  # Camera Module 3 full sensor: 4608x2592
    height: int = Field(720, ge=120, le=3072)  # HQ camera full sensor: 4056x3040
    fps: float = Field(30.0, gt=0, le=120)
    path: str | None = None  # for source = "file": a video or a folder of images
    #: "zones": decode only the zones, as full-resolution crops (a whole-table camera)
    decode: Literal["frame", "zones"] = "frame"


class DecoderConfig(Section):
    backend: Literal["auto", "zxing", "pyzbar", "opencv"] = "auto"


class TrackingConfig(Section):
    seen_in: int = Field(2, ge=1, le=10)  # decoded in this many ...
    of_last: int = Field(3, ge=1, le=10)  # ... of the last frames -> seen
    left_after_s: float = Field(1.0, gt=0, le=60)
    #: a longer leave time in some zones: a hand resting on the pile hides its top card
    #: for seconds, and the card has not left (zone name -> seconds)
    left_after_zone: dict[str, float] = Field(default_factory=lambda: {"pile": 3.0})


class ZonesConfig(Section):
    """Polygons in normalised frame coordinates (0..1), by zone name.

    The default pile covers the play area (a camera framed on the table), leaving a
    margin at the edges where hands and players' stacks come in; a card seen in the
    margin is shown to the host, never dropped.
    """

    polygons: dict[str, list[tuple[float, float]]] = Field(
        default_factory=lambda: {
            "pile": [(0.05, 0.05), (0.95, 0.05), (0.95, 0.95), (0.05, 0.95)],
        }
    )

    @field_validator("polygons")
    @classmethod
    def _three_points(
        cls, v: dict[str, list[tuple[float, float]]]
    ) -> dict[str, list[tuple[float, float]]]:
        for name, points in v.items():
            if len(points) < 3:
                raise ValueError(f"zone {name!r} needs at least 3 points, has {len(points)}")
        return v


class GpioConfig(Section):
    """BCM pin numbers; see docs/wiring.md for the default wiring."""

    enabled: bool = True
    pin_factory: str | None = None  # None: gpiozero's default (lgpio on a Pi)
    seat_buttons: list[int] = Field(default_factory=lambda: [5, 6, 13, 19, 26, 21, 20, 16])
    confirm_button: int | None = 17
    undo_button: int | None = 27
    next_button: int | None = 22
    seat_leds: list[int] = Field(default_factory=lambda: [12, 25, 24, 23, 18, 15, 14, 4])
    #: instead of (or with) seat LEDs: one common-cathode RGB LED as [red, green, blue]
    rgb_led: list[int] | None = None
    buzzer: int | None = 9
    bounce_s: float = Field(0.03, ge=0, le=1)
    hold_s: float = Field(1.0, gt=0, le=10)

    @field_validator("rgb_led")
    @classmethod
    def _three_pins(cls, v: list[int] | None) -> list[int] | None:
        if v is not None and len(v) != 3:
            raise ValueError(f"rgb_led needs 3 pins [red, green, blue], has {len(v)}")
        return v


class SignalsConfig(Section):
    """What the buzzer and LEDs do; the patterns are in README.md (Raspberry Pi appliance)."""

    buzzer: bool = True
    volume: float = Field(1.0, ge=0, le=1)  # duty cycle share for a PWM buzzer; 0 = silent
    leds: bool = True
    #: the seat whose turn it is keeps its LED lit between signals
    turn_led: bool = True


class WebConfig(Section):
    host: str = "0.0.0.0"
    port: int = Field(8080, ge=1, le=65535)
    threads: int = Field(16, ge=4, le=1000)


class NetworkConfig(Section):
    #: who runs the Wi-Fi: "auto" = Table Companion on a Raspberry Pi with NetworkManager
    #: (hotspot when no known Wi-Fi is in reach, switch from the host page), "yes" anywhere
    #: nmcli is, "no" = the system's own tools (a laptop's Wi-Fi is never touched by "auto")
    manage: Literal["auto", "yes", "no"] = "auto"
    #: the Wi-Fi device; empty = the first one NetworkManager lists (wlan0 on a Pi)
    iface: str = ""


class Config(Section):
    table: TableConfig = TableConfig()
    camera: CameraConfig = CameraConfig()
    decoder: DecoderConfig = DecoderConfig()
    tracking: TrackingConfig = TrackingConfig()
    zones: ZonesConfig = ZonesConfig()
    gpio: GpioConfig = GpioConfig()
    signals: SignalsConfig = SignalsConfig()
    web: WebConfig = WebConfig()
    network: NetworkConfig = NetworkConfig()


def parse_config(data: dict[str, Any], source: str = "config") -> Config:
    """Validate a parsed TOML document; ``ConfigError`` lists every bad key."""
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"])
            problems.append(f"  {where}: {err['msg']}")
        raise ConfigError(
            f"{source} has {len(problems)} problem(s):\n"
            + "\n".join(problems)
            + "\nFix these keys (see docs/configuration.md) or delete them to use the defaults."
        ) from None


def load_config(path: Path | None) -> Config:
    """The configuration in ``path``; defaults when ``path`` is None or does not exist."""
    if path is None or not path.exists():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}. Fix the line it names.") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path} is not UTF-8 text (byte {exc.start + 1} is {exc.object[exc.start]:#04x}): "
            "save it as UTF-8 (any text editor can), or delete it to use the defaults."
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    return parse_config(data, str(path))
