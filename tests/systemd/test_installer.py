"""systemd/install.sh and uninstall.sh in a Debian 12 root made here (debootstrap + chroot).

Slow (minutes the first time: the root, apt and pip downloads; then cached under
``~/.cache/table-companion``). Skipped, with the reason, without root, debootstrap or
the Debian mirror. What only a Raspberry Pi can check is listed in docs/install.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .debian_root import cache_dir, make_root, unavailable_reason

REPO = Path(__file__).resolve().parents[2]
UNIT = "table-companion.service"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]


def _mount(args: list[str]) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _mounts_under(path: Path) -> list[str]:
    prefix = str(path.resolve()) + "/"
    with open("/proc/self/mounts", encoding="utf-8") as f:
        points = [line.split()[1].replace("\\040", " ") for line in f]
    return [p for p in points if p.startswith(prefix)]


def _unmount_all(root: Path) -> None:
    """Unmount everything under ``root``, and make sure of it before anything is deleted."""
    for point in sorted(_mounts_under(root), reverse=True):
        if subprocess.run(["umount", point], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", point], capture_output=True)
    still = _mounts_under(root)
    assert not still, f"could not unmount {still}: unmount them by hand"


def _host_ca_bundle() -> Path | None:
    """The host's CA bundle: it may hold a local proxy's CA that the new root lacks."""
    for candidate in ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"):
        if Path(candidate).exists():
            return Path(candidate)
    return None


def _remove_stale(base: Path) -> None:
    """Roots left by runs that were killed (their process is gone)."""
    for old in base.glob("run-*"):
        pid = old.name.removeprefix("run-")
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            _unmount_all(old)
            shutil.rmtree(old, ignore_errors=True)


@pytest.fixture(scope="module")
def debian() -> Iterator[Path]:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no Debian 12 root here: {reason}")
    # Not under pytest's tmp dir: a concurrent pytest run prunes old tmp dirs there,
    # which would delete this root while the installer runs in it.
    base = Path(os.environ.get("TABLE_COMPANION_ROOTS", "/var/tmp/table-companion-tests"))
    _remove_stale(base)
    work = base / f"run-{os.getpid()}"
    root = make_root(work / "root")
    try:
        yield _prepare(root)
    finally:
        _unmount_all(work)
        shutil.rmtree(work, ignore_errors=True)


def _prepare(root: Path) -> Path:
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    bundle = _host_ca_bundle()
    if bundle is not None:
        shutil.copy(bundle, root / "etc/ssl/certs/host-ca-bundle.crt")
    src = root / "src/table-companion"
    src.mkdir(parents=True)
    subprocess.run(f"tar -C {REPO} --exclude=./.venv --exclude=./.git --exclude=__pycache__ "
                   f"-cf - . | tar -C {src} -xf -", shell=True, check=True)
    # the root has its own /dev nodes (debootstrap): only a fresh /proc is mounted, and
    # the apt and pip download caches, so later runs do not download again
    for inside, name in (("var/cache/apt/archives", "apt"), ("root/.cache/pip", "pip")):
        outside = cache_dir() / name
        (outside / "partial").mkdir(parents=True, exist_ok=True)
        (root / inside).mkdir(parents=True, exist_ok=True)
        _mount(["--bind", str(outside), str(root / inside)])
    _mount(["-t", "proc", "proc", str(root / "proc")])
    return root


def chroot(root: Path, *cmd: str, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
    if (root / "etc/ssl/certs/host-ca-bundle.crt").exists():
        env["PIP_CERT"] = "/etc/ssl/certs/host-ca-bundle.crt"
    return subprocess.run(["chroot", str(root), *cmd], capture_output=True, text=True,
                          env=env, timeout=timeout)


def group_members(root: Path, group: str) -> list[str]:
    for line in (root / "etc/group").read_text().splitlines():
        name, _, _, members = line.split(":")
        if name == group:
            return members.split(",")
    return []


@pytest.fixture(scope="module")
def installed(debian: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    result = chroot(debian, "/src/table-companion/systemd/install.sh")
    return debian, result


def test_installer_runs_to_the_end(installed: tuple[Path, subprocess.CompletedProcess[str]]
                                   ) -> None:
    root, result = installed
    log = result.stdout + result.stderr
    print(log)  # shown with `pytest -rP`: what the installer said
    assert result.returncode == 0, log[-4000:]
    assert "python3-lgpio is not available here" in log  # plain Debian: said, not hidden
    assert "starts at next boot" in log  # no systemd running in a chroot
    assert "Table Companion doctor" in log and "serve --demo" in log


def test_layout_user_and_service(installed: tuple[Path, subprocess.CompletedProcess[str]]
                                 ) -> None:
    root, _ = installed
    assert os.access(root / "opt/table-companion/venv/bin/companion", os.X_OK)
    cfg = (root / "opt/table-companion/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg  # picamera2/lgpio from Debian
    assert (root / "etc/table-companion/config.toml").exists()
    assert (root / "etc/systemd/system" / UNIT).exists()
    assert (root / "etc/systemd/system/multi-user.target.wants" / UNIT).is_symlink()
    for group in ("video", "gpio"):
        assert "table-companion" in group_members(root, group)
    version = chroot(root, "/opt/table-companion/venv/bin/companion", "--version")
    assert version.returncode == 0 and version.stdout.startswith("companion ")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_installed_unit_verifies_in_the_debian_root(
    installed: tuple[Path, subprocess.CompletedProcess[str]]
) -> None:
    root, _ = installed
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "--man=no",
                             "--generators=no", UNIT], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


NETWORK_FILES = ("etc/NetworkManager/dnsmasq-shared.d/table-companion.conf",
                 "etc/polkit-1/rules.d/50-table-companion.rules",
                 "etc/systemd/system/table-companion-port80.service")


def test_network_side_installed(installed: tuple[Path, subprocess.CompletedProcess[str]]
                                ) -> None:
    root, result = installed
    for name in NETWORK_FILES:
        assert (root / name).exists(), name
    assert (root / "etc/systemd/system/multi-user.target.wants/"
            "table-companion-port80.service").is_symlink()
    assert "redirect to :8080" in (root / "etc/table-companion/port80.nft").read_text()
    assert (root / "etc/hostname").read_text() == "table\n"  # phones: http://table.local/
    assert not (root / "etc/systemd/system/table-companion-kiosk.service").exists()
    assert "NetworkManager (nmcli) is missing" in result.stderr  # plain Debian: said
    assert os.access(root / "usr/sbin/nft", os.X_OK)  # nftables installed


def test_uninstall_keeps_history_unless_purged(
    installed: tuple[Path, subprocess.CompletedProcess[str]]
) -> None:
    root, _ = installed
    make_game = ("from companion.store import SqliteStore\nfrom pathlib import Path\n"
                 "s = SqliteStore(Path('/var/lib/table-companion/events.sqlite3'))\n"
                 "s.create_game('nasty7', ['A', 'B'], {}, 0)\ns.close()\n")
    res = chroot(root, "runuser", "-u", "table-companion", "--",
                 "/opt/table-companion/venv/bin/python", "-c", make_game)
    assert res.returncode == 0, res.stderr
    res = chroot(root, "/src/table-companion/systemd/uninstall.sh")
    assert res.returncode == 0, res.stderr
    assert not (root / "opt/table-companion").exists()
    assert not (root / "etc/systemd/system" / UNIT).exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants" / UNIT).exists()
    for name in NETWORK_FILES:
        assert not (root / name).exists(), name
    assert (root / "var/lib/table-companion/events.sqlite3").stat().st_size > 0
    assert "Kept the game history" in res.stdout
    res = chroot(root, "/src/table-companion/systemd/uninstall.sh", "--purge")
    assert res.returncode == 0, res.stderr
    assert not (root / "var/lib/table-companion").exists()
    assert "table-companion:" not in (root / "etc/passwd").read_text()
