"""systemd/network.sh (called by install.sh) into a scratch root: the hotspot's dnsmasq
config, the polkit rule, port 80 to the dashboard, the hostname for table.local, and the
optional kiosk TV unit; the units verify with systemd-analyze."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.wait import SAFETY  # a safety net of minutes

from .kernel import nft_unavailable
from .test_unit import needs_analyze, system_units

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "network.sh"
KIOSK = "table-companion-kiosk.service"
PORT80 = "table-companion-port80.service"


def setup(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), "--root", str(root), *args],
                          capture_output=True, text=True, timeout=SAFETY)


def wants(root: Path, unit: str) -> Path:
    return root / "etc/systemd/system/multi-user.target.wants" / unit


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    (r / "etc").mkdir(parents=True)
    (r / "etc/hostname").write_text("raspberrypi\n")
    (r / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
    return r


def test_the_hotspot_files_port_80_and_the_name(root: Path) -> None:
    done = setup(root, "--port", "8090")
    assert done.returncode == 0, done.stderr
    dnsmasq = root / "etc/NetworkManager/dnsmasq-shared.d/table-companion.conf"
    lines = [ln for ln in dnsmasq.read_text().splitlines() if ln and not ln.startswith("#")]
    assert lines == ["address=/#/10.42.0.1"]  # every name: the hotspot's own address
    rule = (root / "etc/polkit-1/rules.d/50-table-companion.rules").read_text()
    assert 'subject.user == "table-companion"' in rule
    assert 'action.id.indexOf("org.freedesktop.NetworkManager.") == 0' in rule
    nft = (root / "etc/table-companion/port80.nft").read_text()
    assert "tcp dport 80 redirect to :8090" in nft and "@PORT@" not in nft
    assert (root / "etc/systemd/system" / PORT80).exists()
    assert os.readlink(wants(root, PORT80)) == f"/etc/systemd/system/{PORT80}"
    assert (root / "etc/hostname").read_text() == "table\n"
    assert "127.0.1.1\ttable" in (root / "etc/hosts").read_text().splitlines()
    assert "(the hostname was raspberrypi)" in done.stdout
    assert not (root / "etc/systemd/system" / KIOSK).exists()  # the TV is optional
    for path in root.rglob("*"):
        if path.is_file():
            assert path.stat().st_mode & 0o022 == 0, path  # nobody else may change them


def test_the_kiosk_tv_is_enabled_only_when_asked(root: Path) -> None:
    assert setup(root, "--kiosk", "--prefix", "/srv/tc", "--port", "8090").returncode == 0
    unit = (root / "etc/systemd/system" / KIOSK).read_text()
    assert "ExecStart=/srv/tc/src/systemd/kiosk.sh http://localhost:8090/?tv=1" in unit
    assert "User=table-kiosk" in unit and "PAMName=table-kiosk" in unit
    assert "After=systemd-user-sessions.service plymouth-quit-wait.service " \
           "table-companion.service" in unit
    assert "pam_systemd.so" in (root / "etc/pam.d/table-kiosk").read_text()
    assert wants(root, KIOSK).is_symlink()
    assert setup(root).returncode == 0  # run again without the option: left as it is
    assert wants(root, KIOSK).is_symlink()
    assert setup(root, "--no-kiosk").returncode == 0
    assert not wants(root, KIOSK).exists()
    hosts = (root / "etc/hosts").read_text().splitlines()
    assert hosts.count("127.0.1.1\ttable") == 1  # runs again without adding lines


def test_keep_hostname_and_refusals(root: Path) -> None:
    assert setup(root, "--keep-hostname").returncode == 0
    assert (root / "etc/hostname").read_text() == "raspberrypi\n"
    for bad, words in ((["--bogus"], "unknown option"), (["--port", "80x"], "takes a number"),
                       (["--hostname", "My Table"], "letters a-z")):
        res = setup(root, *bad)
        assert res.returncode == 2 and words in res.stderr, res.stderr


def test_the_kiosk_script_parses() -> None:
    script = ROOT / "systemd" / "kiosk.sh"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["sh", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    assert "exec cage" in text and "--kiosk" in text and "HDMI-A" in text


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_installer_knows_the_network_files(script: str) -> None:
    text = (ROOT / "systemd" / script).read_text()
    for name in ("table-companion-port80.service", "table-companion-kiosk.service"):
        assert name in text
    if script == "install.sh":
        assert '"$SRC/systemd/network.sh"' in text and "--kiosk" in text
    else:
        assert "dnsmasq-shared.d/table-companion.conf" in text


@needs_analyze
@pytest.mark.parametrize("unit", [PORT80, KIOSK])
def test_the_network_units_verify(tmp_path: Path, root: Path, unit: str) -> None:
    assert setup(root, "--kiosk").returncode == 0
    shutil.copytree(system_units(), root / "usr/lib/systemd/system", symlinks=True)
    for exe in ("usr/sbin/nft", "opt/table-companion/src/systemd/kiosk.sh"):
        (root / exe).parent.mkdir(parents=True, exist_ok=True)
        (root / exe).write_text("#!/bin/sh\nexit 0\n")
        (root / exe).chmod(0o755)
    (root / "dev").mkdir(exist_ok=True)
    (root / "dev/tty1").touch()
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "--man=no",
                             "--generators=no", unit], capture_output=True, text=True,
                            timeout=SAFETY)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


@pytest.mark.skipif(shutil.which("nft") is None or os.geteuid() != 0,
                    reason="needs nft (apt-get install nftables) and root to check the rules")
def test_the_port_80_rules_parse(root: Path) -> None:
    reason = nft_unavailable()
    if reason is not None:
        pytest.skip(reason)
    assert setup(root).returncode == 0
    res = subprocess.run(["nft", "-c", "-f", str(root / "etc/table-companion/port80.nft")],
                         capture_output=True, text=True, timeout=SAFETY)
    assert res.returncode == 0, res.stderr
