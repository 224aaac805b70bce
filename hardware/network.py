"""The table's Wi-Fi through NetworkManager (``nmcli``): the hotspot, home networks, status.

``NetworkManager(runner, state_dir)`` implements ``companion.network.NetworkControl``.
Every command goes through a ``Runner`` (an argv list in, nmcli's terse output out), so
tests give it ``hardware.fake_network.FakeNetworkManager`` and check each command issued;
on the Pi it is ``SubprocessRunner``. The hotspot is one NetworkManager profile
(``table-companion-hotspot``: access point, WPA2, ``ipv4.method shared`` so NetworkManager
runs DHCP and DNS for it). Its autoconnect priority keeps the host's choice across reboots:
below every home network when the host chose home (NetworkManager falls back to the
hotspot when no known network is in reach), above them when the host chose the hotspot.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from companion.config import NetworkConfig
from companion.network import (
    HOTSPOT_ADDRESS,
    Choice,
    Hotspot,
    Mode,
    NetworkError,
    NetworkStatus,
    WifiNetwork,
    load_choice,
    load_hotspot,
    save_choice,
)

log = logging.getLogger(__name__)

HOTSPOT_CON = "table-companion-hotspot"
#: the hotspot's autoconnect priority when the host chose it / chose a home network
PRIORITY_CHOSEN = 100
PRIORITY_FALLBACK = -100
#: the answer to the host's phone leaves before the Wi-Fi changes under it
SETTLE_S = 2.0
LEASES = "/var/lib/NetworkManager/dnsmasq-{iface}.leases"
WIFI_TYPE = "802-11-wireless"
SIMULATED = "Demo: a simulated NetworkManager; the real Wi-Fi is not touched."


class CommandError(Exception):
    """An nmcli command that failed: its exit code and what it said."""

    def __init__(self, argv: Sequence[str], code: int, stderr: str) -> None:
        self.argv, self.code, self.stderr = list(argv), code, stderr.strip()
        super().__init__(self.stderr or f"nmcli exited with {code}")


class Runner(Protocol):
    """Runs one ``nmcli`` argv list; returns its standard output or raises CommandError."""

    def __call__(self, argv: Sequence[str]) -> str: ...


class SubprocessRunner:
    """The real runner: ``nmcli`` as a child process (NetworkManager over D-Bus)."""

    def __init__(self, timeout_s: float = 90.0) -> None:
        self.timeout_s = timeout_s

    def __call__(self, argv: Sequence[str]) -> str:
        try:
            done = subprocess.run(list(argv), capture_output=True, text=True,
                                  timeout=self.timeout_s, env=nmcli_env())
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CommandError(argv, -1, str(exc)) from exc
        if done.returncode != 0:
            raise CommandError(argv, done.returncode, done.stderr)
        return done.stdout


def nmcli_env() -> dict[str, str]:
    """nmcli's words ("connected", "Secrets were required") untranslated, text as UTF-8."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LANG")}
    env["LC_ALL"] = "C.UTF-8"
    return env


def nmcli_available() -> bool:
    return shutil.which("nmcli") is not None


def split_terse(line: str) -> list[str]:
    """One line of ``nmcli -t`` output into its fields (``\\:`` and ``\\\\`` unescaped)."""
    fields, value, escaped = [], "", False
    for c in line:
        if escaped:
            value += c
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == ":":
            fields.append(value)
            value = ""
        else:
            value += c
    fields.append(value)
    return fields


def _after_answer(job: Callable[[], None]) -> None:
    timer = threading.Timer(SETTLE_S, job)
    timer.daemon = True
    timer.start()


class NetworkManager:
    """``NetworkControl`` over nmcli. ``defer`` runs a switch (tests: at once)."""

    def __init__(self, runner: Runner, state_dir: Path, *, iface: str | None = None,
                 defer: Callable[[Callable[[], None]], None] = _after_answer,
                 machine_id_file: Path = Path("/etc/machine-id"),
                 leases: str = LEASES, clock: Callable[[], float] = time.time,
                 simulated: bool = False) -> None:
        self.run_nmcli = runner
        #: the demo's fake: said on the panel, and nobody is sent to the hotspot's address
        self.simulated = simulated
        self.state_dir = state_dir
        self._iface = iface
        self.defer = defer
        self.leases = leases
        self.clock = clock
        self._hotspot = load_hotspot(state_dir, machine_id_file)
        self._lock = threading.Lock()
        self._error = ""
        self._captive: str | None = None
        self._seen: list[WifiNetwork] = []

    @property
    def hotspot(self) -> Hotspot:
        return self._hotspot

    def nmcli(self, *args: str) -> str:
        return self.run_nmcli(["nmcli", *args])

    # --- reading ------------------------------------------------------------------------

    def iface(self) -> str | None:
        """The Wi-Fi device (``wlan0`` on a Pi), or None when NetworkManager has none."""
        if self._iface is not None:
            return self._iface
        out = self.nmcli("-t", "-f", "DEVICE,TYPE", "device", "status")
        for line in out.splitlines():
            fields = split_terse(line)
            if len(fields) >= 2 and fields[1] == "wifi":
                self._iface = fields[0]
                return self._iface
        return None

    def _device(self, iface: str) -> tuple[str, str]:
        """(state, connection name) of ``iface``."""
        out = self.nmcli("-t", "-f", "DEVICE,STATE,CONNECTION", "device", "status")
        for line in out.splitlines():
            fields = split_terse(line)
            if len(fields) >= 3 and fields[0] == iface:
                return fields[1], fields[2]
        return "unavailable", ""

    def status(self) -> NetworkStatus:
        try:
            st = self._status()
        except CommandError as exc:
            st = NetworkStatus(Mode.OFFLINE, notes=(f"NetworkManager did not answer: {exc}",))
        self._captive = (st.address or HOTSPOT_ADDRESS) if st.mode is Mode.HOTSPOT else None
        return replace(st, notes=(*st.notes, SIMULATED)) if self.simulated else st

    def _status(self) -> NetworkStatus:
        iface = self.iface()
        if iface is None:
            return NetworkStatus(Mode.OFFLINE, error=self._error,
                                 notes=("NetworkManager has no Wi-Fi device here",))
        state, connection = self._device(iface)
        if not state.startswith("connected") or not connection:
            return NetworkStatus(Mode.OFFLINE, error=self._error)
        addr = self.nmcli("-t", "-g", "IP4.ADDRESS", "device", "show", iface)
        address = addr.split("|")[0].strip().split("/")[0]
        if connection == HOTSPOT_CON:
            return NetworkStatus(Mode.HOTSPOT, self._hotspot.ssid, address,
                                 clients=self._clients(iface), error=self._error)
        here = [n for n in self._scan(iface, rescan="no") if n.active]
        ssid = here[0].ssid if here else connection
        signal = here[0].signal if here else None
        return NetworkStatus(Mode.HOME, ssid, address, signal=signal, error=self._error)

    def _clients(self, iface: str) -> int | None:
        """Phones holding an address from the hotspot (NetworkManager's dnsmasq leases)."""
        try:
            text = Path(self.leases.format(iface=iface)).read_text(encoding="utf-8")
        except OSError:
            return None
        now = self.clock()
        count = 0
        for line in text.splitlines():
            parts = line.split()
            if parts and parts[0].isdigit() and (int(parts[0]) == 0 or int(parts[0]) > now):
                count += 1
        return count

    def _scan(self, iface: str, rescan: str = "auto") -> list[WifiNetwork]:
        out = self.nmcli("-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY", "device", "wifi", "list",
                         "ifname", iface, "--rescan", rescan)
        best: dict[str, WifiNetwork] = {}
        for line in out.splitlines():
            fields = split_terse(line)
            if len(fields) < 4 or not fields[1] or fields[1] == self._hotspot.ssid:
                continue
            signal = int(fields[2]) if fields[2].isdigit() else 0
            secured = fields[3].strip() not in ("", "--")
            net = WifiNetwork(fields[1], signal, secured, active=fields[0].strip() == "*")
            old = best.get(net.ssid)
            if old is None or net.active or (not old.active and net.signal > old.signal):
                best[net.ssid] = net
        return sorted(best.values(), key=lambda n: (not n.active, -n.signal, n.ssid))

    def _profiles(self) -> dict[str, str]:
        """Saved Wi-Fi profiles: SSID -> profile name (the hotspot's own left out)."""
        out = self.nmcli("-t", "-f", "NAME,TYPE", "connection", "show")
        profiles: dict[str, str] = {}
        for line in out.splitlines():
            fields = split_terse(line)
            if len(fields) >= 2 and fields[1] == WIFI_TYPE and fields[0] != HOTSPOT_CON:
                ssid = self.nmcli("-t", "-g", "802-11-wireless.ssid", "connection", "show",
                                  "id", fields[0]).strip()
                profiles[ssid or fields[0]] = fields[0]
        return profiles

    def networks(self) -> list[WifiNetwork]:
        iface = self.iface()
        if iface is None:
            return []
        try:
            known = self._profiles()
            found = [WifiNetwork(n.ssid, n.signal, n.secured, n.ssid in known, n.active)
                     for n in self._scan(iface)]
        except CommandError as exc:
            log.warning("listing Wi-Fi networks failed: %s", exc)
            return []
        self._seen = found
        return found

    def captive_address(self) -> str | None:
        return None if self.simulated else self._captive

    # --- switching ----------------------------------------------------------------------

    def use_hotspot(self) -> None:
        self._need_iface()
        self.defer(self._guarded(self.hotspot_now))

    def use_home(self, ssid: str, password: str | None) -> None:
        self._need_iface()
        ssid, password = check_home(ssid, password)
        seen = {n.ssid: n for n in (self._seen or self.networks())}
        net = seen.get(ssid)
        if password is None and net is not None and net.secured and not net.known:
            raise NetworkError(f"\u201c{ssid}\u201d needs its password: type it in the "
                               "password field, then choose Join.")
        hidden = net is None  # typed by name: a network that does not announce itself
        self.defer(self._guarded(lambda: self.home_now(ssid, password, hidden)))

    def _need_iface(self) -> None:
        try:
            iface = self.iface()
        except CommandError as exc:
            raise NetworkError(f"NetworkManager did not answer ({exc}); nothing changed.") \
                from exc
        if iface is None:
            raise NetworkError("This machine has no Wi-Fi adapter that NetworkManager can "
                               "use; nothing changed.")

    def _guarded(self, job: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            with self._lock:
                try:
                    job()
                except CommandError as exc:  # the hotspot could not open either: say so
                    self._error = f"The Wi-Fi could not be changed: {exc}."
                    log.error("network switch failed: %s", exc)
        return run

    def ensure_hotspot(self, priority: int) -> None:
        """The hotspot profile exists, with the current name, password and ``priority``."""
        iface = self.iface() or "wlan0"
        out = self.nmcli("-t", "-f", "NAME", "connection", "show")
        names = [split_terse(line)[0] for line in out.splitlines()]
        settings = ["802-11-wireless.ssid", self._hotspot.ssid,
                    "wifi-sec.psk", self._hotspot.password,
                    "connection.autoconnect-priority", str(priority)]
        if HOTSPOT_CON in names:
            self.nmcli("connection", "modify", HOTSPOT_CON, *settings)
            return
        self.nmcli("connection", "add", "type", "wifi", "ifname", iface,
                   "con-name", HOTSPOT_CON, "autoconnect", "yes",
                   "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
                   "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/24",
                   "ipv6.method", "disabled",
                   "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
                   "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp", *settings)

    def hotspot_now(self) -> None:
        """Open the hotspot now and keep it the choice across reboots."""
        self.ensure_hotspot(PRIORITY_CHOSEN)
        self.nmcli("connection", "up", HOTSPOT_CON)
        save_choice(self.state_dir, Choice(Mode.HOTSPOT))
        self._error = ""
        self._captive = HOTSPOT_ADDRESS

    def home_now(self, ssid: str, password: str | None, hidden: bool = False) -> None:
        """Join ``ssid`` now; on failure open the hotspot again and say why."""
        iface = self.iface() or "wlan0"
        self.ensure_hotspot(PRIORITY_FALLBACK)
        profiles = self._profiles()
        tail = ["ifname", iface, *(["hidden", "yes"] if hidden else [])]
        try:
            if password:
                self.nmcli("device", "wifi", "connect", ssid, "password", password, *tail)
            elif ssid in profiles:
                self.nmcli("connection", "up", "id", profiles[ssid])
            else:
                self.nmcli("device", "wifi", "connect", ssid, *tail)
        except CommandError as exc:
            if ssid not in profiles:  # a profile with a wrong password must not stay behind
                try:
                    self.nmcli("connection", "delete", "id", ssid)
                except CommandError:
                    pass
            self.hotspot_now()
            self._error = (f"Could not join \u201c{ssid}\u201d ({first_line(exc.stderr)}). "
                           "Check the password; the table's own hotspot is on again.")
            return
        save_choice(self.state_dir, Choice(Mode.HOME, ssid))
        self._error = ""
        self._captive = None

    def restore(self) -> NetworkStatus:
        """At start: the host's choice again; the hotspot when no Wi-Fi is joined at all."""
        if self.iface() is None:
            return self.status()
        choice = load_choice(self.state_dir)
        current = self.status()
        chose_hotspot = choice is not None and choice.mode is Mode.HOTSPOT
        with self._lock:
            self.ensure_hotspot(PRIORITY_CHOSEN if chose_hotspot else PRIORITY_FALLBACK)
            if current.mode is not Mode.HOTSPOT and (chose_hotspot
                                                     or current.mode is Mode.OFFLINE):
                self.nmcli("connection", "up", HOTSPOT_CON)
        return self.status()


def open_network(config: NetworkConfig, state_dir: Path,
                 runner: Runner | None = None) -> NetworkManager | None:
    """The table's Wi-Fi control as ``[network] manage`` says, restored to the host's
    choice; None when the Wi-Fi is left to the system. ``runner``: the demo's fake."""
    if runner is None:
        from hardware.pins import pi_model

        wanted = config.manage == "yes" or (config.manage == "auto" and pi_model() is not None)
        if not wanted or not nmcli_available():
            return None
        runner = SubprocessRunner()
        net = NetworkManager(runner, state_dir, iface=config.iface or None)
    else:
        net = NetworkManager(runner, state_dir, iface=config.iface or None,
                             defer=lambda job: job(), simulated=True)
    try:
        net.restore()
    except CommandError as exc:  # the table still serves on whatever network there is
        log.warning("the Wi-Fi could not be restored: %s", exc)
    return net


#: what nmcli says, in words for the host
PLAIN = (("Secrets were required", "the password was not accepted"),
         ("No network with SSID", "it is not in reach"),
         ("No suitable device", "it is not in reach"))


def first_line(text: str) -> str:
    for said, plain in PLAIN:
        if said in text:
            return plain
    line = (text.strip().splitlines() or ["no reason given"])[0]
    return line.removeprefix("Error: ").strip().rstrip(".")


def check_home(ssid: str, password: str | None) -> tuple[str, str | None]:
    """A home network's name and password as NetworkManager takes them, or NetworkError."""
    ssid = ssid.strip()
    if not ssid:
        raise NetworkError("Choose a network from the list, or type its name.")
    if len(ssid.encode("utf-8")) > 32:
        raise NetworkError("A Wi-Fi name is at most 32 bytes long: check the name.")
    if password:
        if not 8 <= len(password) <= 63:
            raise NetworkError("A Wi-Fi password (WPA2) has 8 to 63 characters: check it "
                               "and type it again.")
        return ssid, password
    return ssid, None


__all__ = ["HOTSPOT_CON", "CommandError", "NetworkManager", "Runner", "SubprocessRunner",
           "check_home", "nmcli_available", "open_network", "split_terse"]
