"""The table's Wi-Fi through NetworkManager (``nmcli``): the hotspot, home networks, status.

``NetworkManager(runner, state_dir)`` implements ``companion.network.NetworkControl``.
Every command goes through a ``Runner`` (an argv list in, nmcli's terse output out), so
tests give it ``hardware.fake_network.FakeNetworkManager`` and check each command issued;
on the Pi it is ``SubprocessRunner``. The hotspot is one NetworkManager profile
(``table-companion-hotspot``: access point, WPA2, ``ipv4.method shared`` so NetworkManager
runs DHCP and DNS for it). Its autoconnect priority keeps the host's choice across reboots:
below every home network when the host chose home (NetworkManager falls back to the
hotspot when no known network is in reach), above them when the host chose the hotspot.

What the host types never reaches nmcli as one of its words, and no password is ever on a
command line (``ps`` shows every process's argv to every local user):

- a network's name is only ever the *value* of ``802-11-wireless.ssid`` (or ``con-name``)
  in ``nmcli connection add``, which nmcli takes verbatim (a name such as ``--ask`` or
  ``-h`` would be read as an option or a request for help anywhere else);
- saved profiles are named to nmcli by their UUID (``uuid <UUID>``), never by a name;
- passwords go to NetworkManager through ``nmcli connection up ... passwd-file FILE``: a
  file in the state folder readable by the service's user only (mode 0600), deleted as
  soon as nmcli has read it. NetworkManager keeps the password in the profile
  (system-owned secret), so the next boot joins without it.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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
    SwitchOutcome,
    SwitchState,
    WifiNetwork,
    check_password,
    check_ssid,
    load_choice,
    load_hotspot,
    save_choice,
)
from companion.paths import write_secret

log = logging.getLogger(__name__)

HOTSPOT_CON = "table-companion-hotspot"
#: the hotspot's autoconnect priority when the host chose it / chose a home network
PRIORITY_CHOSEN = 100
PRIORITY_FALLBACK = -100
#: the answer to the host's phone leaves before the Wi-Fi changes under it
SETTLE_S = 2.0
LEASES = "/var/lib/NetworkManager/dnsmasq-{iface}.leases"
WIFI_TYPE = "802-11-wireless"
PSK = "802-11-wireless-security.psk"
#: what ``nmcli connection add`` answers: "Connection 'x' (UUID) successfully added."
ADDED = re.compile(r"\(([0-9a-fA-F-]{36})\) successfully added")
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
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:  # ValueError: a NUL
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
        self._outcome = SwitchOutcome()

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
        """Saved Wi-Fi profiles: SSID -> the profile's UUID (the hotspot's own left out)."""
        out = self.nmcli("-t", "-f", "NAME,UUID,TYPE", "connection", "show")
        profiles: dict[str, str] = {}
        for line in out.splitlines():
            fields = split_terse(line)
            if len(fields) >= 3 and fields[2] == WIFI_TYPE and fields[0] != HOTSPOT_CON:
                ssid = self.nmcli("-t", "-g", "802-11-wireless.ssid", "connection", "show",
                                  "uuid", fields[1]).strip()
                profiles[ssid or fields[0]] = fields[1]
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

    def outcome(self) -> SwitchOutcome:
        return self._outcome

    # --- switching ----------------------------------------------------------------------

    def use_hotspot(self) -> None:
        self._need_iface()
        self._start(self.hotspot_now)

    def use_home(self, ssid: str, password: str | None) -> None:
        ssid, password = check_home(ssid, password)  # before anything runs
        self._need_iface()
        seen = {n.ssid: n for n in (self._seen or self.networks())}
        net = seen.get(ssid)
        if password is None and net is not None and net.secured and not net.known:
            raise NetworkError(f"\u201c{ssid}\u201d needs its password: type it in the "
                               "password field, then choose Join.", "password")
        hidden = net is None  # typed by name: a network that does not announce itself
        self._start(lambda: self.home_now(ssid, password, hidden))

    def _need_iface(self) -> None:
        try:
            iface = self.iface()
        except CommandError as exc:
            raise NetworkError(f"NetworkManager did not answer ({exc}); nothing changed.") \
                from exc
        if iface is None:
            raise NetworkError("This machine has no Wi-Fi adapter that NetworkManager can "
                               "use; nothing changed.")

    def _start(self, job: Callable[[], None]) -> None:
        """Say "switching", then run ``job`` (after the answer); its end is the outcome."""
        self._outcome = SwitchOutcome(SwitchState.SWITCHING, "The table is changing its "
                                      "Wi-Fi now.")
        self.defer(self._guarded(job))

    def _guarded(self, job: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            with self._lock:
                try:
                    job()
                except CommandError as exc:  # the hotspot could not open either: say so
                    self._error = (f"The Wi-Fi could not be changed ({first_line(exc.stderr)})"
                                   ". Restart the table to open its own Wi-Fi again.")
                    log.error("network switch failed: %s", exc)
                except Exception as exc:  # a background thread: nobody else would say it
                    self._error = ("The Wi-Fi could not be changed: the table met an error it "
                                   "did not expect. Restart the table to open its own Wi-Fi "
                                   "again.")
                    log.exception("network switch failed: %s", exc)
                self._outcome = self._ended()
        return run

    def _ended(self) -> SwitchOutcome:
        if self._error:
            return SwitchOutcome(SwitchState.FAILED, self._error)
        choice = load_choice(self.state_dir)
        if choice is not None and choice.mode is Mode.HOME:
            return SwitchOutcome(SwitchState.DONE, f"The table is on \u201c{choice.ssid}\u201d "
                                 "now. Put this phone on it too.")
        return SwitchOutcome(SwitchState.DONE, "The table's own Wi-Fi "
                             f"\u201c{self._hotspot.ssid}\u201d is on now. Put this phone on "
                             "it too.")

    @contextmanager
    def _secret_file(self, password: str) -> Iterator[Path]:
        """A ``passwd-file`` for nmcli holding ``password`` (mode 0600, in the private state
        folder), deleted when nmcli has read it. Spaces and backslashes are written as
        octal escapes: nmcli strips bare spaces at either end and reads ``\\`` escapes."""
        value = "".join(f"\\{ord(c):03o}" if c in " \\" else c for c in password)
        path = self.state_dir / f".nm-secret-{secrets.token_hex(8)}"
        write_secret(path, f"{PSK}:{value}\n", what="the Wi-Fi password for NetworkManager")
        try:
            yield path
        finally:
            path.unlink(missing_ok=True)

    def _up(self, ref: Sequence[str], password: str | None, *tail: str) -> None:
        """``nmcli connection up <ref>``, with ``password`` from a passwd-file if given."""
        if password is None:
            self.nmcli("connection", "up", *ref, *tail)
            return
        with self._secret_file(password) as path:
            self.nmcli("connection", "up", *ref, *tail, "passwd-file", str(path))

    def ensure_hotspot(self, priority: int, *, clear_psk: bool = False) -> None:
        """The hotspot profile exists, with the current name and ``priority``. Its password
        is given when it is brought up (``hotspot_up``); ``clear_psk`` forgets the stored
        one first, so NetworkManager asks for (and keeps) the current one."""
        iface = self.iface() or "wlan0"
        out = self.nmcli("-t", "-f", "NAME", "connection", "show")
        names = [split_terse(line)[0] for line in out.splitlines()]
        settings = ["802-11-wireless.ssid", self._hotspot.ssid,
                    "connection.autoconnect-priority", str(priority)]
        if HOTSPOT_CON in names:
            self.nmcli("connection", "modify", HOTSPOT_CON, *settings,
                       *([PSK, ""] if clear_psk else []))
            return
        self.nmcli("connection", "add", "type", "wifi", "ifname", iface,
                   "con-name", HOTSPOT_CON, "autoconnect", "yes",
                   "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
                   "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/24",
                   "ipv6.method", "disabled",
                   "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
                   "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp", *settings)

    def hotspot_up(self) -> None:
        """Bring the hotspot profile up with its password (from a passwd-file)."""
        self._up([HOTSPOT_CON], self._hotspot.password)

    def hotspot_now(self) -> None:
        """Open the hotspot now and keep it the choice across reboots."""
        self.ensure_hotspot(PRIORITY_CHOSEN, clear_psk=True)
        self.hotspot_up()
        save_choice(self.state_dir, Choice(Mode.HOTSPOT))
        self._error = ""
        self._captive = HOTSPOT_ADDRESS

    def _add_home(self, ssid: str, iface: str, secured: bool, hidden: bool) -> str:
        """A new profile for ``ssid`` (the name only as a value nmcli takes verbatim); its
        UUID."""
        out = self.nmcli("connection", "add", "type", "wifi", "ifname", iface,
                         "con-name", ssid, "802-11-wireless.ssid", ssid,
                         *(["802-11-wireless.hidden", "yes"] if hidden else []),
                         *(["wifi-sec.key-mgmt", "wpa-psk"] if secured else []))
        found = ADDED.search(out)
        if found is None:
            raise CommandError(["nmcli", "connection", "add"], 0,
                               "NetworkManager did not say which profile it added")
        return found.group(1)

    def home_now(self, ssid: str, password: str | None, hidden: bool = False) -> None:
        """Join ``ssid`` now; on failure open the hotspot again and say why."""
        iface = self.iface() or "wlan0"
        self.ensure_hotspot(PRIORITY_FALLBACK)
        profiles = self._profiles()
        uuid = profiles.get(ssid)
        added = uuid is None
        try:
            if uuid is None:
                uuid = self._add_home(ssid, iface, password is not None, hidden)
            elif password is not None:  # a new password for a saved network
                self.nmcli("connection", "modify", "uuid", uuid,
                           "wifi-sec.key-mgmt", "wpa-psk", PSK, "")
            self._up(["uuid", uuid], password, "ifname", iface)
        except CommandError as exc:
            if added and uuid is not None:  # a profile with a wrong password must not stay
                try:
                    self.nmcli("connection", "delete", "uuid", uuid)
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
            up = current.mode is not Mode.HOTSPOT and (chose_hotspot
                                                      or current.mode is Mode.OFFLINE)
            self.ensure_hotspot(PRIORITY_CHOSEN if chose_hotspot else PRIORITY_FALLBACK,
                                clear_psk=up)
            if up:
                self.hotspot_up()
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
    """A home network's name and password as NetworkManager takes them, or NetworkError
    (with the form field it is about)."""
    ssid = check_ssid(ssid.strip())
    return ssid, (check_password(password) if password else None)


__all__ = ["HOTSPOT_CON", "CommandError", "NetworkManager", "Runner", "SubprocessRunner",
           "check_home", "nmcli_available", "open_network", "split_terse"]
