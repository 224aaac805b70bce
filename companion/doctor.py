"""``companion doctor``: every part of the table checked, with the fix for each failure.

Each check returns ``Check`` rows (area, item, OK/WARN/FAIL, what was found, what to do).
A machine with no camera and no GPIO is not broken: those are WARN, and the ``demo`` row
says whether ``companion serve --demo`` would work; that row FAILs only when it would
not. Hardware checks live in ``companion.doctor_hw``.
"""

from __future__ import annotations

import enum
import importlib.util
import os
import shutil
import socket
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.paths import StateDirError, state_dir


class Level(enum.Enum):
    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Check:
    """One line of the doctor's table."""

    area: str
    item: str
    level: Level
    detail: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {"area": self.area, "item": self.item, "level": self.level.value,
                "detail": self.detail, "fix": self.fix}


def ok(area: str, item: str, detail: str) -> Check:
    return Check(area, item, Level.OK, detail)


def warn(area: str, item: str, detail: str, fix: str = "") -> Check:
    return Check(area, item, Level.WARN, detail, fix)


def fail(area: str, item: str, detail: str, fix: str) -> Check:
    return Check(area, item, Level.FAIL, detail, fix)


# --- decoder ----------------------------------------------------------------------------

TEST_PAYLOAD = "TC-DOCTOR-0042"


def test_image(payload: str = TEST_PAYLOAD) -> Any:
    """A grayscale image with one version-1 QR code (made with segno), like a card tag."""
    import numpy as np
    import segno

    qr = segno.make_qr(payload, version=1, error="m")
    modules = np.array(qr.matrix, dtype=np.uint8)
    scale = 8
    code = np.kron(1 - modules, np.ones((scale, scale), dtype=np.uint8)) * 255
    image = np.full((480, 640), 235, dtype=np.uint8)  # a light table, the tag off-centre
    h, w = code.shape
    image[100:100 + h + 8 * scale, 200:200 + w + 8 * scale] = 255  # quiet zone
    image[100 + 4 * scale:100 + 4 * scale + h, 200 + 4 * scale:200 + 4 * scale + w] = code
    return image


def check_decoder(config: Config) -> list[Check]:
    try:
        from vision.decoding import default_decoder

        decoder = default_decoder(config.decoder.backend)
        image = test_image()
        start = time.perf_counter()
        found = decoder.decode(image)
        ms = (time.perf_counter() - start) * 1000
    except Exception as exc:  # a missing library names itself in the message
        return [fail("decoder", config.decoder.backend, f"cannot decode: {exc}",
                     "reinstall (pip install -e . / systemd/install.sh); "
                     "pyzbar needs `sudo apt install libzbar0`")]
    texts = [d.text for d in found]
    if texts != [TEST_PAYLOAD]:
        return [fail("decoder", decoder.name, f"read {texts!r} from the test image",
                     "the decoder is broken: reinstall zxing-cpp / pyzbar")]
    return [ok("decoder", decoder.name, f"read the built-in test tag in {ms:.0f} ms")]


# --- storage ----------------------------------------------------------------------------

MIN_FREE_MB = 50
LOW_FREE_MB = 500


def check_storage(directory: Path | None = None) -> list[Check]:
    try:
        path = directory or state_dir()
    except (OSError, StateDirError) as exc:
        return [fail("storage", "state dir", f"cannot use it: {exc}",
                     "set TABLE_COMPANION_STATE to a writable folder")]
    return [_writable(path), _free_space(path), _integrity(path), *_kept_damaged(path)]


def _writable(path: Path) -> Check:
    probe = path / f".doctor-{os.getpid()}"
    try:
        with open(probe, "w", encoding="utf-8") as f:
            f.write("ok")
            f.flush()
            os.fsync(f.fileno())
        probe.unlink()
    except OSError as exc:
        return fail("storage", "state dir", f"{path} is not writable: {exc.strerror}",
                    f"check the owner of {path} (the service user must own it)")
    return ok("storage", "state dir", f"{path} is writable")


def _free_space(path: Path) -> Check:
    free_mb = shutil.disk_usage(path).free / 1e6
    if free_mb < MIN_FREE_MB:
        return fail("storage", "free space", f"{free_mb:.0f} MB free",
                    "free space on the SD card: games cannot be saved")
    if free_mb < LOW_FREE_MB:
        return warn("storage", "free space", f"{free_mb:.0f} MB free", "free some space soon")
    return ok("storage", "free space", f"{free_mb / 1000:.1f} GB free")


def _integrity(path: Path) -> Check:
    db = path / "events.sqlite3"
    if not db.exists():
        return ok("storage", "event store", "no games stored yet (created on the first game)")
    from companion.store import SqliteStore, StoreError

    rescue = ("restart the table: it moves the damaged file aside, keeps it and starts a "
              "fresh one (rescue the old games with companion export --store FILE)")
    try:
        store = SqliteStore.reader(db)  # read-only: works on a read-only card too
        try:
            result = store.integrity()
            games = len(store.games())
        finally:
            store.close()
    except (StoreError, sqlite3.Error) as exc:
        return fail("storage", "event store", f"{db}: {exc}", rescue)
    if result != "ok":
        return fail("storage", "event store", f"integrity check: {result}", rescue)
    return ok("storage", "event store", f"integrity ok, {games} game(s) stored")


def _kept_damaged(path: Path) -> list[Check]:
    """Damaged stores the table moved aside (companion.damage): kept for rescue."""
    kept = sorted(path.glob("*-damaged-*.sqlite3"))
    if not kept:
        return []
    return [warn("storage", "damaged stores kept", ", ".join(p.name for p in kept),
                 f"rescue their games with companion export --store {kept[-1]}, then "
                 "delete them to free the space")]


# --- network ----------------------------------------------------------------------------


def _addresses() -> list[str]:
    import psutil

    out = []
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family == socket.AF_INET and not a.address.startswith("127."):
                out.append(a.address)
    return sorted(set(out))


def _resolves(name: str, timeout: float = 2.0) -> bool:
    result: list[bool] = []

    def look() -> None:
        try:
            socket.getaddrinfo(name, None)
            result.append(True)
        except OSError:
            result.append(False)

    t = threading.Thread(target=look, daemon=True)
    t.start()
    t.join(timeout)
    return bool(result and result[0])


def check_network(config: Config) -> list[Check]:
    port = config.web.port
    addrs = _addresses()
    checks = []
    if not addrs:
        checks.append(warn("network", "dashboard", f"no network address: only "
                           f"http://localhost:{port}/ works",
                           "join the Wi-Fi the phones use (sudo nmtui)"))
    else:
        urls = " ".join(f"http://{a}:{port}/" for a in addrs)
        checks.append(ok("network", "dashboard", urls))
    local = f"{socket.gethostname()}.local"
    if _resolves(local):
        checks.append(ok("network", ".local name", f"http://{local}:{port}/"))
    else:
        checks.append(warn("network", ".local name", f"{local} does not resolve here",
                           "sudo apt install avahi-daemon libnss-mdns (phones find the "
                           "table by this name)"))
    checks += check_wifi(config)
    return checks


DNSMASQ_SHARED = Path("/etc/NetworkManager/dnsmasq-shared.d/table-companion.conf")


def check_wifi(config: Config, control: Any = None,
               dnsmasq_conf: Path = DNSMASQ_SHARED) -> list[Check]:
    """The Wi-Fi mode, the phones joined, the signal (NetworkManager; read only)."""
    from companion.network import Mode

    if control is None:
        control, why = _wifi_control(config)
        if control is None:
            return [ok("wifi", "control", why)]
    st = control.status()
    rows = [ok("wifi", "mode", st.summary())]
    if st.mode is Mode.OFFLINE:
        rows = [warn("wifi", "mode", "not connected to any Wi-Fi" + "".join(
            f" ({n})" for n in st.notes), "choose a network or the table's own Wi-Fi on "
            "the host page (Wi-Fi), or restart the service: it opens its hotspot")]
    elif st.mode is Mode.HOME and st.signal is not None and st.signal < 35:
        rows = [warn("wifi", "mode", st.summary(), "weak signal: move the box nearer the "
                     "router, or use the table's own Wi-Fi")]
    if st.mode is Mode.HOTSPOT:
        rows.append(ok("wifi", "clients", f"{st.clients} device(s) joined") if st.clients
                    is not None else warn("wifi", "clients", "the hotspot's leases are "
                                          "not readable", "nothing to do: only the count "
                                          "is missing"))
    if st.error:
        rows.append(warn("wifi", "last switch", st.error, "see the host page's Wi-Fi panel"))
    if dnsmasq_conf.exists():
        rows.append(ok("wifi", "captive portal", f"{dnsmasq_conf}: every name leads to the "
                       "table in hotspot mode"))
    else:
        rows.append(warn("wifi", "captive portal", f"{dnsmasq_conf} is missing: phones do "
                         "not open the table page by themselves", "run systemd/install.sh"))
    return rows


def _wifi_control(config: Config) -> tuple[Any, str]:
    from hardware.network import NetworkManager, SubprocessRunner, nmcli_available
    from hardware.pins import pi_model

    if config.network.manage == "no":
        return None, "left to the system ([network] manage = \"no\")"
    if config.network.manage == "auto" and pi_model() is None:
        return None, "not a Raspberry Pi: the Wi-Fi is left to the system"
    if not nmcli_available():
        return None, "nmcli not found: the Wi-Fi is left to the system"
    runner = SubprocessRunner(timeout_s=10)
    return NetworkManager(runner, state_dir(), iface=config.network.iface or None), ""


# --- Pi power ---------------------------------------------------------------------------

THROTTLE_BITS = {
    0: "under-voltage now", 1: "ARM frequency capped now", 2: "throttled now",
    3: "soft temperature limit now", 16: "under-voltage since boot",
    17: "frequency capped since boot", 18: "throttled since boot",
    19: "soft temperature limit since boot",
}


def _has_vcgencmd() -> bool:
    return shutil.which("vcgencmd") is not None


def check_power(run: Callable[[list[str]], str] | None = None) -> list[Check]:
    if run is None and not _has_vcgencmd():
        from hardware.pins import pi_model

        if pi_model() is None:
            return [ok("power", "throttling", "not a Raspberry Pi: nothing to check")]
        return [warn("power", "throttling", "vcgencmd not found: not checked",
                     "sudo apt install libraspberrypi-bin")]
    runner = run or _vcgencmd
    try:
        out = runner(["vcgencmd", "get_throttled"])
        value = int(out.strip().split("=", 1)[1], 16)
    except (OSError, ValueError, IndexError, subprocess.SubprocessError) as exc:
        return [warn("power", "throttling", f"vcgencmd get_throttled failed: {exc}",
                     "add the user to the video group (vcgencmd needs /dev/vchiq)")]
    found = [text for bit, text in THROTTLE_BITS.items() if value & (1 << bit)]
    if not found:
        return [ok("power", "throttling", "no under-voltage or throttling (0x0)")]
    detail = f"{hex(value)}: " + ", ".join(found)
    if value & 0b1:
        return [fail("power", "throttling", detail,
                     "use the official 5 V power supply (5 A for a Pi 5, 3 A for a Pi 4)")]
    return [warn("power", "throttling", detail,
                 "check the power supply and cooling; it slows the camera down")]


def _vcgencmd(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=5).stdout


# --- can the demo run? --------------------------------------------------------------------


def check_demo(previous: list[Check]) -> Check:
    """Would ``companion serve --demo`` work here (no camera, no buttons needed)?"""
    missing = [m for m in ("flask", "tornado", "cv2", "numpy")
               if importlib.util.find_spec(m) is None]
    broken = [c.area for c in previous
              if c.level is Level.FAIL and c.area in ("decoder", "storage")]
    if missing or broken:
        why = ", ".join([f"{m} missing" for m in missing] + [f"{a} failed" for a in broken])
        return fail("demo", "serve --demo", f"would not work: {why}",
                    "fix the rows above; reinstall with `./run` or systemd/install.sh")
    return ok("demo", "serve --demo", "would work (synthetic camera, simulated buttons)")
