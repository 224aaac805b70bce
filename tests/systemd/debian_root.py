"""A Debian 12 (bookworm) root made here with debootstrap, cached as a tarball.

The first build downloads and installs a minimal system (a few minutes); it is then kept
as ``~/.cache/table-companion/bookworm-root.tar.gz`` (``$TABLE_COMPANION_CACHE``
overrides the folder) and later runs only unpack it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
SUITE = "bookworm"
# what Raspberry Pi OS Lite has that a minbase root lacks and the installer relies on
INCLUDE = "systemd,systemd-sysv,ca-certificates,iproute2"


def cache_dir() -> Path:
    base = os.environ.get("TABLE_COMPANION_CACHE") or str(Path.home() / ".cache" / "table-companion")
    return Path(base)


def tarball() -> Path:
    return cache_dir() / f"{SUITE}-root.tar.gz"


def unavailable_reason() -> str | None:
    """Why a Debian root cannot be made here, or None when it can."""
    if os.geteuid() != 0:
        return "needs root (debootstrap and chroot); run the tests as root to try the installer"
    if shutil.which("chroot") is None:
        return "needs chroot (coreutils)"
    if tarball().exists():
        return None
    if shutil.which("debootstrap") is None:
        return "needs debootstrap: sudo apt-get install debootstrap"
    try:
        urllib.request.urlopen(f"{MIRROR}/dists/{SUITE}/Release", timeout=10).close()
    except OSError as exc:
        return f"needs the Debian mirror {MIRROR} to build the root once: {exc}"
    return None


def make_root(dest: Path) -> Path:
    """A fresh bookworm root in ``dest`` (unpacked from the cache, built on first use)."""
    dest.mkdir(parents=True, exist_ok=True)
    cached = tarball()
    if not cached.exists():
        build = cached.parent / "build-root"
        shutil.rmtree(build, ignore_errors=True)
        cached.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["debootstrap", "--variant=minbase", f"--include={INCLUDE}", SUITE, str(build),
             MIRROR],
            check=True, capture_output=True, text=True, timeout=1800,
        )
        tmp = cached.with_suffix(".tmp")
        subprocess.run(["tar", "-C", str(build), "-czf", str(tmp), "."], check=True)
        tmp.rename(cached)
        shutil.rmtree(build, ignore_errors=True)
    subprocess.run(["tar", "-C", str(dest), "-xzf", str(cached)], check=True)
    return dest
