"""The table's Wi-Fi as the dashboard and the doctor see it: types, the hotspot's name and
password, the Wi-Fi QR payload, and the choice that survives a reboot.

The control itself (NetworkManager through ``nmcli``) lives in ``hardware.network``; the
web layer only sees the ``NetworkControl`` Protocol, which ``companion serve`` puts in
``app.extensions[EXTENSION]``. Everything here is plain data and files in the state folder.
"""

from __future__ import annotations

import enum
import json
import secrets
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from companion.paths import write_secret

#: the key of the control in ``app.extensions``
EXTENSION = "table_companion.network"
#: the hotspot's name and password (mode 0600) and the host's last choice, in the state folder
HOTSPOT_FILE = "hotspot.json"
CHOICE_FILE = "network.json"
#: NetworkManager's shared mode gives the access point this address (ipv4.method shared)
HOTSPOT_ADDRESS = "10.42.0.1"
#: the name phones can type in both modes (mDNS, avahi)
LOCAL_NAME = "table.local"
#: no 0/O, 1/l/I: the password is read off a card and typed on a phone by hand sometimes
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
PASSWORD_LENGTH = 12


class Mode(enum.Enum):
    HOTSPOT = "hotspot"
    HOME = "home"
    OFFLINE = "offline"


class NetworkError(Exception):
    """A switch or a look-up that failed; the message is a sentence for the host.

    ``field`` names the form field the sentence is about (``"ssid"``, ``"password"``), so
    the page shows it next to that field; empty for the page as a whole."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


#: the limits NetworkManager (and IEEE 802.11) put on a network's name and WPA password
SSID_MAX_BYTES = 32
PSK_MIN, PSK_MAX = 8, 63
PSK_HEX = 64


def check_ssid(ssid: str) -> str:
    """A network name as NetworkManager takes it (1 to 32 bytes of UTF-8, no control
    characters), or ``NetworkError`` saying what is wrong with it."""
    if not ssid:
        raise NetworkError("Choose a network from the list, or type its name.", "ssid")
    try:
        size = len(ssid.encode("utf-8"))
    except UnicodeEncodeError:
        raise NetworkError("The network name has a character that is not text: type the "
                           "name again.", "ssid") from None
    if size > SSID_MAX_BYTES:
        raise NetworkError(f"A Wi-Fi name is at most {SSID_MAX_BYTES} bytes long (this one "
                           f"has {size}): check the name.", "ssid")
    if any(unicodedata.category(c) == "Cc" for c in ssid):
        raise NetworkError("A Wi-Fi name cannot hold control characters (such as a line "
                           "break or a NUL): type the name again.", "ssid")
    return ssid


def check_password(password: str) -> str:
    """A WPA2 password as NetworkManager takes it: 8 to 63 printable ASCII characters, or
    exactly 64 hexadecimal digits (the key itself); else ``NetworkError``."""
    if len(password) == PSK_HEX and all(c in "0123456789abcdefABCDEF" for c in password):
        return password
    if not all(" " <= c <= "~" for c in password):
        raise NetworkError("A Wi-Fi password (WPA2) uses only the letters A to Z, digits, "
                           "spaces and the signs of an English keyboard: check it and type "
                           "it again.", "password")
    if not PSK_MIN <= len(password) <= PSK_MAX:
        raise NetworkError(f"A Wi-Fi password (WPA2) has {PSK_MIN} to {PSK_MAX} characters "
                           f"(this one has {len(password)}): check it and type it again.",
                           "password")
    return password


class SwitchState(enum.Enum):
    NONE = "none"  # no switch since the table started
    SWITCHING = "switching"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class SwitchOutcome:
    """How the last switch the host asked for ended, in one sentence for the host's page."""

    state: SwitchState = SwitchState.NONE
    message: str = ""


@dataclass(frozen=True)
class Hotspot:
    """The hotspot's network name and WPA2 password."""

    ssid: str
    password: str

    def qr_payload(self) -> str:
        return wifi_qr_payload(self.ssid, self.password)


@dataclass(frozen=True)
class WifiNetwork:
    """One network in reach, as the host's list shows it."""

    ssid: str
    signal: int  # 0..100, as nmcli reports it
    secured: bool
    known: bool = False  # a saved profile: joins without a password
    active: bool = False


@dataclass(frozen=True)
class NetworkStatus:
    """What the Wi-Fi is doing now."""

    mode: Mode
    ssid: str = ""  # the network the table is on (or offers, in hotspot mode)
    address: str = ""  # the table's address on it
    signal: int | None = None  # home mode: the home network's signal, 0..100
    clients: int | None = None  # hotspot mode: phones holding an address from the table
    error: str = ""  # the last switch that failed, in words
    notes: tuple[str, ...] = field(default_factory=tuple)

    def summary(self) -> str:
        if self.mode is Mode.HOTSPOT:
            joined = "" if self.clients is None else f", {self.clients} device(s) joined"
            return f"hotspot \u201c{self.ssid}\u201d at {self.address or HOTSPOT_ADDRESS}{joined}"
        if self.mode is Mode.HOME:
            signal = "" if self.signal is None else f", signal {self.signal}%"
            return f"on \u201c{self.ssid}\u201d at {self.address or 'no address yet'}{signal}"
        return "not connected to any Wi-Fi"


class NetworkControl(Protocol):
    """The table's Wi-Fi: read it, list networks, switch. Implemented in ``hardware.network``."""

    @property
    def hotspot(self) -> Hotspot: ...

    def status(self) -> NetworkStatus: ...

    def networks(self) -> list[WifiNetwork]: ...

    def use_hotspot(self) -> None:
        """Open the hotspot (soon after the answer: it drops the phones on the old network)."""

    def use_home(self, ssid: str, password: str | None) -> None:
        """Join ``ssid`` (with ``password`` for a new secured one); back to the hotspot
        when that fails. Raises ``NetworkError`` for what can be told before switching."""

    def captive_address(self) -> str | None:
        """In hotspot mode, where phones asking for other names are sent; else None."""

    def outcome(self) -> SwitchOutcome:
        """The last switch: still switching, done (with what the table is on) or failed
        (with why and what to do)."""


# --- the Wi-Fi QR code -----------------------------------------------------------------

_QR_SPECIAL = '\\;,:"'


def qr_escape(text: str) -> str:
    """Backslash before each of ``\\ ; , : "`` (the ZXing Wi-Fi QR format)."""
    return "".join("\\" + c if c in _QR_SPECIAL else c for c in text)


def wifi_qr_payload(ssid: str, password: str) -> str:
    """``WIFI:T:WPA;S:<ssid>;P:<password>;;``: a phone's camera joins by scanning it."""
    return f"WIFI:T:WPA;S:{qr_escape(ssid)};P:{qr_escape(password)};;"


def parse_wifi_qr(payload: str) -> dict[str, str]:
    """The fields of a Wi-Fi QR payload (``T``, ``S``, ``P``, ...), unescaped."""
    if not payload.startswith("WIFI:"):
        raise ValueError("not a Wi-Fi QR payload")
    fields: dict[str, str] = {}
    key, value, escaped, in_value = "", "", False, False
    for c in payload[len("WIFI:"):]:
        if escaped:
            value += c
            escaped = False
        elif c == "\\" and in_value:
            escaped = True
        elif c == ":" and not in_value:
            in_value = True
        elif c == ";" and in_value:
            fields[key] = value
            key, value, in_value = "", "", False
        elif in_value:
            value += c
        else:
            key += c
    return fields


# --- the hotspot's name and password, the host's choice ----------------------------------


def machine_suffix(machine_id_file: Path = Path("/etc/machine-id")) -> str:
    """Four hex digits from the machine id ("4F2A"): tells two boxes in one room apart."""
    try:
        text = machine_id_file.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    digits = "".join(c for c in text if c in "0123456789abcdefABCDEF")
    return (digits[-4:] or "0000").upper()


def new_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def load_hotspot(folder: Path, machine_id_file: Path = Path("/etc/machine-id")) -> Hotspot:
    """The hotspot's name and password, made once and kept in ``<state>/hotspot.json``."""
    path = folder / HOTSPOT_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        hotspot = Hotspot(str(data["ssid"]), str(data["password"]))
        check_ssid(hotspot.ssid)
        check_password(hotspot.password)
        return hotspot
    except (OSError, ValueError, KeyError, TypeError, NetworkError):
        pass
    hotspot = Hotspot(f"Table Companion {machine_suffix(machine_id_file)}", new_password())
    write_secret(path, json.dumps({"ssid": hotspot.ssid, "password": hotspot.password}))
    return hotspot


@dataclass(frozen=True)
class Choice:
    """The host's last choice: the hotspot, or a home network by name."""

    mode: Mode
    ssid: str = ""


def load_choice(folder: Path) -> Choice | None:
    try:
        data = json.loads((folder / CHOICE_FILE).read_text(encoding="utf-8"))
        return Choice(Mode(data["mode"]), str(data.get("ssid", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_choice(folder: Path, choice: Choice) -> None:
    write_secret(folder / CHOICE_FILE, json.dumps({"mode": choice.mode.value,
                                                   "ssid": choice.ssid}))


__all__ = ["CHOICE_FILE", "EXTENSION", "HOTSPOT_ADDRESS", "HOTSPOT_FILE", "LOCAL_NAME",
           "Choice", "Hotspot", "Mode", "NetworkControl", "NetworkError", "NetworkStatus",
           "SwitchOutcome", "SwitchState", "WifiNetwork", "check_password", "check_ssid",
           "load_choice", "load_hotspot", "machine_suffix", "new_password",
           "parse_wifi_qr", "qr_escape", "save_choice", "wifi_qr_payload"]
