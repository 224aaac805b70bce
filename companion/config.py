"""The configuration file (TOML), validated so that a mistake names the key and the fix.

Every section has defaults that work on a Raspberry Pi with the documented wiring
(``docs/wiring.md``), so an empty or missing file is a valid configuration.
"""

from __future__ import annotations

import tomllib
import types
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and what to do."""


class ConfigProblems(ValueError):
    """Bad values given to a section: ``(key, what is wrong and what to do)`` pairs.

    A ``ValueError``, so that code building a section from a user's input (the zones
    drawn on the dashboard) refuses it the way it refuses any bad value.
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{key}: {msg}" for key, msg in problems))


def _limit(ge: float | None = None, gt: float | None = None,
           le: float | None = None) -> dict[str, float]:
    """A field's bounds, kept in its metadata: at least ``ge``, above ``gt``, at most ``le``."""
    bounds = {"ge": ge, "gt": gt, "le": le}
    return {k: v for k, v in bounds.items() if v is not None}


def _shown(value: Any) -> str:
    """A value as the user wrote it in TOML terms (short)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


_KIND = {bool: "true or false", int: "a whole number", float: "a number", str: "text in quotes"}


def _check(hint: Any, value: Any, key: str, problems: list[tuple[str, str]]) -> Any:
    """``value`` checked against the type ``hint`` (and converted: int -> float, list ->
    tuple); a problem is added under ``key`` and the value returned unchanged if it is bad."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin is Literal:
        if value in args:
            return value
        choices = ", ".join(repr(a) for a in args)
        problems.append((key, f"must be one of {choices} (is {_shown(value)})"))
        return value
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        for option in options:
            trial: list[tuple[str, str]] = []
            checked = _check(option, value, key, trial)
            if not trial:
                return checked
        if len(options) == 1:  # "X | None": X's own message
            return _check(options[0], value, key, problems)
        kinds = " or ".join(_KIND.get(o, str(o)) for o in options)
        problems.append((key, f"must be {kinds} (is {_shown(value)})"))
        return value
    if origin is list:
        if not isinstance(value, list | tuple):
            problems.append((key, f"must be a list in [brackets] (is {_shown(value)})"))
            return value
        return [_check(args[0], item, f"{key}.{i}", problems) for i, item in enumerate(value)]
    if origin is tuple:
        if not isinstance(value, list | tuple) or len(value) != len(args):
            problems.append((key, f"must be a list of {len(args)} numbers like [0.5, 0.5] "
                                  f"(is {_shown(value)})"))
            return value
        return tuple(_check(a, item, f"{key}.{i}", problems)
                     for i, (a, item) in enumerate(zip(args, value, strict=True)))
    if origin is dict:
        if not isinstance(value, dict):
            problems.append((key, f"must be a table of name = value (is {_shown(value)})"))
            return value
        return {name: _check(args[1], item, f"{key}.{name}", problems)
                for name, item in value.items()}
    if isinstance(hint, type) and issubclass(hint, Section):
        if isinstance(value, hint):
            return value
        problems.append((key, f"must be a section of keys (is {_shown(value)})"))
        return value
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if hint in _KIND and isinstance(value, hint) and not (
            hint is int and isinstance(value, bool)):
        return value
    problems.append((key, f"must be {_KIND.get(hint, str(hint))} (is {_shown(value)})"))
    return value


def _bounded(value: Any, bounds: dict[str, float], key: str,
             problems: list[tuple[str, str]]) -> None:
    """A problem under ``key`` if the number ``value`` is outside ``bounds``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return  # the type check has said so already
    low, high = bounds.get("ge", bounds.get("gt")), bounds.get("le")
    span = (f"from {_shown(low)} to {_shown(high)}" if "ge" in bounds and high is not None
            else f"above {_shown(low)} and at most {_shown(high)}" if high is not None
            else f"at least {_shown(low)}")
    if ("ge" in bounds and value < bounds["ge"]) or ("gt" in bounds and value <= bounds["gt"]):
        problems.append((key, f"is too small: use a number {span} (is {_shown(value)})"))
    elif high is not None and value > high:
        problems.append((key, f"is too large: use a number {span} (is {_shown(value)})"))


@dataclass(frozen=True)
class Section:
    """A section of the file: its fields are checked (and converted) when it is made,
    however it is made, and a bad one raises ``ConfigProblems`` naming every bad key."""

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(type(self))
        problems: list[tuple[str, str]] = []
        for f in fields(self):
            before = len(problems)
            value = _check(hints[f.name], getattr(self, f.name), f.name, problems)
            if len(problems) == before:
                _bounded(value, dict(f.metadata), f.name, problems)
            if len(problems) == before:
                object.__setattr__(self, f.name, value)
        if not problems:
            problems.extend(self._more_problems())
        if problems:
            raise ConfigProblems(problems)

    def _more_problems(self) -> list[tuple[str, str]]:
        """What the types cannot say (a zone with too few corners)."""
        return []

    @classmethod
    def from_toml(cls, data: Any, where: str) -> Any:
        """The section read from a TOML table; ``ConfigProblems`` with keys under ``where``."""
        if not isinstance(data, dict):
            raise ConfigProblems([(where, f"must be a [{where}] section of keys "
                                          f"(is {_shown(data)})")])
        known = {f.name: f for f in fields(cls)}
        problems = [(f"{where}.{key}", f"is not a setting of [{where}]; the settings are "
                                       + ", ".join(known)) if where else
                    (key, "is not a section of the file; the sections are "
                          + ", ".join(f"[{name}]" for name in known))
                    for key in data if key not in known]
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                continue
            sub = _SECTIONS.get(key) if cls is Config else None
            if sub is None:
                kwargs[key] = value
                continue
            try:
                kwargs[key] = sub.from_toml(value, key)
            except ConfigProblems as exc:
                problems.extend(exc.problems)
        try:  # the known keys are checked even next to unknown ones: every problem at once
            made = cls(**kwargs)
        except ConfigProblems as exc:
            problems.extend((f"{where}.{k}" if where else k, m) for k, m in exc.problems)
        if problems:
            raise ConfigProblems(problems)
        return made


@dataclass(frozen=True)
class TableConfig(Section):
    """What game the table starts with and who sits where (the dashboard can change it)."""

    game: str = ""  # empty: the first game of the registry (companion.games.DEFAULT_GAME)
    players: list[str] = field(default_factory=lambda: ["Seat 1", "Seat 2", "Seat 3"])
    options: dict[str, Any] = field(default_factory=dict)


#: a card's sides in tag sides (short, long): the demo deck's 250 x 350 card with its
#: 126 code (the black square; ``vision.landing`` takes it as its default)
CARD_SIDES = (2.0, 2.8)
#: the card_sides a card may have: from as large as its tag to ten tags long
CARD_SIDES_RANGE = (1.0, 10.0)


@dataclass(frozen=True)
class CameraConfig(Section):
    source: Literal["auto", "opencv", "picamera2", "file", "synthetic"] = "auto"
    device: int | str = 0
    # Camera Module 3 full sensor: 4608x2592; HQ camera full sensor: 4056x3040
    width: int = field(default=1280, metadata=_limit(ge=160, le=4608))
    height: int = field(default=720, metadata=_limit(ge=120, le=3072))
    fps: float = field(default=30.0, metadata=_limit(gt=0, le=120))
    path: str | None = None  # for source = "file": a video or a folder of images
    #: "zones": decode only the zones, as full-resolution crops (a whole-table camera)
    decode: Literal["frame", "zones"] = "frame"
    #: a card's sides (short, long) in tag sides: how large a card that landed unread is
    #: (``vision.landing``); change it for cards of another size than our deck's
    card_sides: tuple[float, float] = CARD_SIDES

    def _more_problems(self) -> list[tuple[str, str]]:
        short, long = self.card_sides
        low, high = CARD_SIDES_RANGE
        example = f"[{CARD_SIDES[0]:.1f}, {CARD_SIDES[1]:.1f}]"
        if not (low <= short <= high and low <= long <= high):
            return [("card_sides", f"each side must be from {low:g} to {high:g} tag sides "
                                   f"(is [{short:g}, {long:g}]): divide the card's short and "
                                   f"long side by the side of its code (the black square, "
                                   f"without its white margin); our deck's cards are "
                                   f"{example}")]
        if short > long:
            return [("card_sides", f"give the short side first: [{long:g}, {short:g}] "
                                   f"(is [{short:g}, {long:g}])")]
        return []


@dataclass(frozen=True)
class DecoderConfig(Section):
    backend: Literal["auto", "zxing", "pyzbar", "opencv"] = "auto"


@dataclass(frozen=True)
class TrackingConfig(Section):
    seen_in: int = field(default=2, metadata=_limit(ge=1, le=10))  # decoded in this many ...
    of_last: int = field(default=3, metadata=_limit(ge=1, le=10))  # ... of the last frames
    left_after_s: float = field(default=1.0, metadata=_limit(gt=0, le=60))
    #: a longer leave time in some zones: a hand resting on the pile hides its top card
    #: for seconds, and the card has not left (zone name -> seconds)
    left_after_zone: dict[str, float] = field(default_factory=lambda: {"pile": 3.0})


@dataclass(frozen=True)
class ZonesConfig(Section):
    """Polygons in normalised frame coordinates (0..1), by zone name.

    The default pile covers the play area (a camera framed on the table), leaving a
    margin at the edges where hands and players' stacks come in; a card seen in the
    margin is shown to the host, never dropped.
    """

    polygons: dict[str, list[tuple[float, float]]] = field(
        default_factory=lambda: {
            "pile": [(0.05, 0.05), (0.95, 0.05), (0.95, 0.95), (0.05, 0.95)],
        }
    )

    def _more_problems(self) -> list[tuple[str, str]]:
        return [(f"polygons.{name}", f"zone {name!r} needs at least 3 points, has "
                                     f"{len(points)}: give its corners as [x, y] pairs")
                for name, points in self.polygons.items() if len(points) < 3]


@dataclass(frozen=True)
class GpioConfig(Section):
    """BCM pin numbers; see docs/wiring.md for the default wiring."""

    enabled: bool = True
    pin_factory: str | None = None  # None: gpiozero's default (lgpio on a Pi)
    seat_buttons: list[int] = field(default_factory=lambda: [5, 6, 13, 19, 26, 21, 20, 16])
    confirm_button: int | None = 17
    undo_button: int | None = 27
    next_button: int | None = 22
    seat_leds: list[int] = field(default_factory=lambda: [12, 25, 24, 23, 18, 15, 14, 4])
    #: instead of (or with) seat LEDs: one common-cathode RGB LED as [red, green, blue]
    rgb_led: list[int] | None = None
    buzzer: int | None = 9
    bounce_s: float = field(default=0.03, metadata=_limit(ge=0, le=1))
    hold_s: float = field(default=1.0, metadata=_limit(gt=0, le=10))

    def _more_problems(self) -> list[tuple[str, str]]:
        if self.rgb_led is not None and len(self.rgb_led) != 3:
            return [("rgb_led", f"needs 3 pins [red, green, blue], has "
                                f"{len(self.rgb_led)}")]
        return []


@dataclass(frozen=True)
class SignalsConfig(Section):
    """What the buzzer and LEDs do; the patterns are in README.md (Raspberry Pi appliance)."""

    buzzer: bool = True
    #: duty cycle share for a PWM buzzer; 0 = silent
    volume: float = field(default=1.0, metadata=_limit(ge=0, le=1))
    leds: bool = True
    #: the seat whose turn it is keeps its LED lit between signals
    turn_led: bool = True


@dataclass(frozen=True)
class WebConfig(Section):
    host: str = "0.0.0.0"
    port: int = field(default=8080, metadata=_limit(ge=1, le=65535))
    threads: int = field(default=16, metadata=_limit(ge=4, le=1000))


@dataclass(frozen=True)
class NetworkConfig(Section):
    #: who runs the Wi-Fi: "auto" = Table Companion on a Raspberry Pi with NetworkManager
    #: (hotspot when no known Wi-Fi is in reach, switch from the host page), "yes" anywhere
    #: nmcli is, "no" = the system's own tools (a laptop's Wi-Fi is never touched by "auto")
    manage: Literal["auto", "yes", "no"] = "auto"
    #: the Wi-Fi device; empty = the first one NetworkManager lists (wlan0 on a Pi)
    iface: str = ""


@dataclass(frozen=True)
class Config(Section):
    table: TableConfig = field(default_factory=TableConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    decoder: DecoderConfig = field(default_factory=DecoderConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    zones: ZonesConfig = field(default_factory=ZonesConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    signals: SignalsConfig = field(default_factory=SignalsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)


#: the sections of the file, by name
_SECTIONS: dict[str, type[Section]] = {
    f.name: f.default_factory for f in fields(Config)  # type: ignore[misc]
}


def parse_config(data: dict[str, Any], source: str = "config") -> Config:
    """Validate a parsed TOML document; ``ConfigError`` lists every bad key."""
    try:
        config: Config = Config.from_toml(data, "")
    except ConfigProblems as exc:
        problems = [f"  {key.lstrip('.')}: {msg}" for key, msg in exc.problems]
        raise ConfigError(
            f"{source} has {len(problems)} problem(s):\n"
            + "\n".join(problems)
            + "\nFix these keys (see docs/configuration.md) or delete them to use the defaults."
        ) from None
    return config


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
