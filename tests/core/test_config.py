"""The config file: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load_config, parse_config

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
