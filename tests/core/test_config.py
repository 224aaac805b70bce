"""The config file: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from companion.config import (
    Config,
    ConfigError,
    WebConfig,
    ZonesConfig,
    load_config,
    parse_config,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_missing_file_means_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == Config()
    assert load_config(None).web.port == 8080


def test_documented_example_is_valid_and_is_the_defaults() -> None:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    config = parse_config(tomllib.loads(block.group(1)), "docs/configuration.md")
    assert config.gpio == Config().gpio and config.web == Config().web


@pytest.mark.parametrize(
    "text, key",
    [
        ("[web]\nport = 70000\n", "web.port"),
        ("[camera]\nsource = 'webcam'\n", "camera.source"),
        ("[gpio]\nseat_buttons = 'five'\n", "gpio.seat_buttons"),
        ("[zones.polygons]\npile = [[0, 0], [1, 1]]\n", "zones.polygons"),
        ("[tabel]\ngame = 'nasty7'\n", "tabel"),
        ("[web]\nprot = 8080\n", "web.prot"),
        ("[camera]\nfps = 0\n", "camera.fps"),
        ("[camera]\ndevice = true\n", "camera.device"),
        ("[gpio]\nseat_buttons = [5, 'six']\n", "gpio.seat_buttons.1"),
        ("[gpio]\nrgb_led = [10, 11]\n", "gpio.rgb_led"),
        ("[gpio]\nenabled = 'yes'\n", "gpio.enabled"),
        ("[tracking]\nleft_after_zone = { pile = 'long' }\n", "tracking.left_after_zone.pile"),
        ("[zones.polygons]\npile = [[0, 0], [1], [1, 1]]\n", "zones.polygons.pile.1"),
        ("web = 8080\n", "web"),
        ("[camera]\ncard_sides = 2.8\n", "camera.card_sides"),
        ("[camera]\ncard_sides = [2, 'long']\n", "camera.card_sides.1"),
    ],
)
def test_errors_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert key in str(err.value) and str(path) in str(err.value)


def test_broken_toml_says_so(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[web\nport = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


@pytest.mark.parametrize(
    "text, said",
    [
        ("[web]\nport = 70000\n", "web.port: is too large: use a number from 1 to 65535"),
        ("[web]\nthreads = 2\n", "web.threads: is too small: use a number from 4 to 1000"),
        ("[camera]\nsource = 'webcam'\n", "camera.source: must be one of 'auto', 'opencv'"),
        ("[web]\nprot = 1\n", "web.prot: is not a setting of [web]; the settings are host, "
                               "port, threads"),
        ("[tabel]\n", "tabel: is not a section of the file; the sections are [table]"),
        ("[gpio]\nrgb_led = [10, 11]\n", "gpio.rgb_led: needs 3 pins [red, green, blue], has 2"),
        ("[signals]\nvolume = 'loud'\n", "signals.volume: must be a number (is 'loud')"),
        ("[camera]\ncard_sides = [0.5, 2.8]\n",
         "camera.card_sides: each side must be from 1 to 10 tag sides (is [0.5, 2.8]): divide "
         "the card's short and long side by the side of its code (the black square, without "
         "its white margin); our deck's cards are [2.0, 2.8]"),
        ("[camera]\ncard_sides = [3, 40]\n", "camera.card_sides: each side must be from 1 to 10"),
        ("[camera]\ncard_sides = [2.8, 2]\n",
         "camera.card_sides: give the short side first: [2, 2.8] (is [2.8, 2])"),
        ("[camera]\ncard_sides = [2, 2.5, 3]\n",
         "camera.card_sides: must be a list of 2 numbers like [0.5, 0.5] (is [2, 2.5, 3])"),
    ],
)
def test_errors_say_what_to_write(text: str, said: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(tomllib.loads(text), "config.toml")
    assert said in str(err.value)
    assert str(err.value).endswith("or delete them to use the defaults.")


def test_every_problem_is_listed_at_once() -> None:
    text = "[web]\nprot = 1\nthreads = 2\n[camera]\nfps = 500\n[nope]\n"
    with pytest.raises(ConfigError) as err:
        parse_config(tomllib.loads(text), "config.toml")
    message = str(err.value)
    assert message.startswith("config.toml has 4 problem(s):")
    for key in ("web.prot", "web.threads", "camera.fps", "nope"):
        assert f"\n  {key}: " in message


def test_values_are_converted_like_the_code_expects() -> None:
    text = "[camera]\nfps = 15\ndevice = '/dev/video2'\n[zones.polygons]\nhand = [[0, 0], [1, 0], [1, 1]]\n"
    config = parse_config(tomllib.loads(text))
    assert config.camera.fps == 15.0 and isinstance(config.camera.fps, float)
    assert config.camera.device == "/dev/video2"
    assert config.zones.polygons == {"hand": [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]}
    assert config.web == Config().web  # the sections not written keep their defaults


def test_a_section_made_in_code_is_checked_too() -> None:
    """The zones drawn on the dashboard go through ZonesConfig: a bad one is a ValueError."""
    with pytest.raises(ValueError, match="zone 'pile' needs at least 3 points, has 2"):
        ZonesConfig(polygons={"pile": [(0.0, 0.0), (1.0, 1.0)]})
    with pytest.raises(ValueError, match="port: is too small"):
        WebConfig(port=0)
    assert WebConfig(port=8081).port == 8081


def test_card_sides_default_to_our_decks_and_are_read_as_numbers() -> None:
    """A card's sides in tag sides, for the landing watch (``vision.landing``)."""
    from vision.landing import CARD_SIDES

    assert Config().camera.card_sides == (2.0, 2.8) == CARD_SIDES
    config = parse_config(tomllib.loads("[camera]\ncard_sides = [2, 3.5]\n"))
    assert config.camera.card_sides == (2.0, 3.5)
    assert all(isinstance(side, float) for side in config.camera.card_sides)
