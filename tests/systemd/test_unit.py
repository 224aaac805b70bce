"""systemd/companion.service really verifies, and its promises are in it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.config import load_config

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
INSTALLED = "table-companion.service"

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd)",
)


def unit_keys() -> dict[str, list[str]]:
    """``Section.Key`` -> every value it has (systemd allows repeated keys)."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key}", []).append(value)
    return out


def system_units() -> Path:
    for candidate in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")):
        if (candidate / "sysinit.target").exists():
            return candidate
    pytest.skip("no systemd unit directory with sysinit.target on this machine")


def make_root(tmp_path: Path, with_exec: bool = True) -> Path:
    """A file-system root holding systemd's own units, ours, and its ExecStart binary."""
    root = tmp_path / "root"
    shutil.copytree(system_units(), root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / INSTALLED)
    exec_start = unit_keys()["Service.ExecStart"][0].split()[0]
    if with_exec:
        binary = root / exec_start.lstrip("/")
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\nexit 0\n")
        binary.chmod(0o755)
    return root


def verify(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "--man=no", "--generators=no",
         INSTALLED],
        capture_output=True, text=True, timeout=600,  # a safety net
    )


@needs_analyze
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path: Path) -> None:
    result = verify(make_root(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr  # "Unknown key ..." is only a warning


@needs_analyze
def test_verify_really_checks_the_exec_start(tmp_path: Path) -> None:
    result = verify(make_root(tmp_path, with_exec=False))
    assert result.returncode != 0
    assert "is not executable" in result.stderr


@needs_analyze
def test_hardening_exposure_stays_low(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--root={root}", "--threshold=30",
         "--no-pager", INSTALLED],
        capture_output=True, text=True, timeout=600,  # a safety net
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Overall exposure level" in result.stdout


def test_unit_promises() -> None:
    keys = unit_keys()
    one = {k: v[-1] for k, v in keys.items()}
    assert one["Service.Type"] == "notify"
    assert int(one["Service.WatchdogSec"]) >= 10
    assert one["Service.Restart"] == "on-failure"
    assert one["Service.StateDirectory"] == "table-companion"
    assert one["Service.User"] == "table-companion"
    assert {"video", "gpio"} <= set(one["Service.SupplementaryGroups"].split())
    # the camera and GPIO device nodes must stay reachable
    assert one.get("Service.PrivateDevices", "no") == "no"
    assert "Service.DevicePolicy" not in one or "Service.DeviceAllow" in keys
    assert one["Install.WantedBy"] == "multi-user.target"


def test_example_config_is_valid_and_matches_the_defaults() -> None:
    config = load_config(ROOT / "systemd" / "config.example.toml")
    assert config.gpio.seat_buttons == load_config(None).gpio.seat_buttons
    assert config.signals.volume == 1.0 and config.web.port == 8080


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_scripts_parse_and_refuse_unknown_options(script: str) -> None:
    path = ROOT / "systemd" / script
    assert subprocess.run(["bash", "-n", str(path)], capture_output=True).returncode == 0
    result = subprocess.run(["bash", str(path), "--bogus"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option" in result.stderr
