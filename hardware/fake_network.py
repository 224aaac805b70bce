"""A fake NetworkManager: a ``hardware.network.Runner`` that records every nmcli command
and answers like nmcli's terse output (``-t -f ...`` / ``-g ...``), with the state changes
the real one makes (profiles added, modified, deleted; the active connection).

Like gpiozero's mock pins it is a real backend for tests and ``companion serve --demo``:
networks in reach, saved profiles (each with a UUID), one Wi-Fi device. Like nmcli it
reads a ``passwd-file`` when a profile without its password is brought up, and keeps the
password in the profile when the join succeeds (NetworkManager's system-owned secret);
``secrets_read`` lists what it read from such files, in order.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hardware.network import HOTSPOT_CON, PSK, WIFI_TYPE, CommandError


@dataclass
class FakeAP:
    """A network in reach."""

    ssid: str
    signal: int = 60
    security: str = "WPA2"
    password: str = ""
    hidden: bool = False  # not listed; joins only with ``hidden yes``


@dataclass
class FakeProfile:
    name: str
    settings: dict[str, str] = field(default_factory=dict)
    uuid: str = ""

    def __post_init__(self) -> None:
        self.uuid = self.uuid or str(uuid.uuid5(uuid.NAMESPACE_URL, "fake-nm:" + self.name))

    @property
    def ssid(self) -> str:
        return self.settings.get("802-11-wireless.ssid", self.name)

    @property
    def secured(self) -> bool:
        return self.settings.get(KEY_MGMT, "") == "wpa-psk"


#: nmcli's alias ``wifi-sec`` for the setting ``802-11-wireless-security``
ALIASES = {"wifi-sec.": "802-11-wireless-security."}
KEY_MGMT = "802-11-wireless-security.key-mgmt"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


class FakeNetworkManager:
    """Answers nmcli argv lists; ``commands`` holds every one, in order."""

    def __init__(self, in_reach: Sequence[FakeAP] = (), *, device: str | None = "wlan0",
                 profiles: Sequence[str] = (), active: str | None = None,
                 address: str = "192.0.2.23/24") -> None:
        self.in_reach = list(in_reach)
        self.device = device
        # a saved profile joins: it holds its network's password, if the network has one
        self.profiles: dict[str, FakeProfile] = {p: self._saved(p) for p in profiles}
        self.active = active
        self.home_address = address
        self.commands: list[list[str]] = []
        self.secrets_read: list[str] = []

    def _saved(self, ssid: str) -> FakeProfile:
        ap = next((a for a in self.in_reach if a.ssid == ssid), None)
        if ap is None or not ap.security:
            return FakeProfile(ssid, {"802-11-wireless.ssid": ssid})
        return FakeProfile(ssid, {"802-11-wireless.ssid": ssid, KEY_MGMT: "wpa-psk",
                                  PSK: ap.password})

    def __call__(self, argv: Sequence[str]) -> str:
        self.commands.append(list(argv))
        if not argv or argv[0] != "nmcli":
            raise CommandError(argv, 127, f"{argv[0] if argv else '?'}: not found")
        args = list(argv[1:])
        fields: list[str] = []
        getter = False
        while args and args[0] in ("-t", "-f", "-g", "-w"):
            flag = args.pop(0)
            if flag in ("-f", "-g"):
                fields = args.pop(0).split(",")
                getter = flag == "-g"
            elif flag == "-w":
                args.pop(0)
        return self._answer(args, fields, getter)

    # --- the commands the control issues -------------------------------------------------

    def _answer(self, args: list[str], fields: list[str], getter: bool) -> str:
        match args:
            case ["device", "status"]:
                return self._rows(fields, self._device_rows())
            case ["device", "show", _]:
                return self._address() + "\n"
            case ["device", "wifi", "list", *_]:
                return self._rows(fields, self._wifi_rows())
            case ["connection", "show"]:
                return self._rows(fields, [{"NAME": p.name, "UUID": p.uuid, "TYPE": WIFI_TYPE}
                                           for p in self.profiles.values()])
            case ["connection", "show", ("id" | "uuid") as kind, ref] if getter:
                return self._find(kind, ref).settings.get(fields[0], "") + "\n"
            case ["connection", "add", *rest]:
                return self._add(rest)
            case ["connection", "modify", ("id" | "uuid") as kind, ref, *rest]:
                self._modify(self._find(kind, ref), rest)
                return ""
            case ["connection", "modify", name, *rest]:
                self._modify(self._find("id", name), rest)
                return ""
            case ["connection", "up", ("id" | "uuid") as kind, ref, *rest]:
                return self._up(self._find(kind, ref), rest)
            case ["connection", "up", name, *rest]:
                return self._up(self._find("id", name), rest)
            case ["connection", "delete", ("id" | "uuid") as kind, ref]:
                name = self._find(kind, ref).name
                del self.profiles[name]
                return f"Connection '{name}' successfully deleted.\n"
        raise CommandError(["nmcli", *args], 2, f"Error: unexpected arguments {args}")

    def _device_rows(self) -> list[dict[str, str]]:
        rows = [{"DEVICE": "lo", "TYPE": "loopback", "STATE": "connected (externally)",
                 "CONNECTION": "lo"}]
        if self.device is not None:
            rows.append({"DEVICE": self.device, "TYPE": "wifi",
                         "STATE": "connected" if self.active else "disconnected",
                         "CONNECTION": self.active or ""})
        return rows

    def _address(self) -> str:
        if self.active == HOTSPOT_CON:
            return "10.42.0.1/24"
        return self.home_address if self.active else ""

    def _active_ssid(self) -> str | None:
        return self.profiles[self.active].ssid if self.active in self.profiles else None

    def _wifi_rows(self) -> list[dict[str, str]]:
        if self.device is None:
            raise CommandError(["nmcli"], 10, "Error: Device not found.")
        active = self._active_ssid() if self.active != HOTSPOT_CON else None
        return [{"IN-USE": "*" if ap.ssid == active else " ", "SSID": ap.ssid,
                 "SIGNAL": str(ap.signal), "SECURITY": ap.security or "--"}
                for ap in self.in_reach if not ap.hidden]

    def _add(self, rest: list[str]) -> str:
        settings = _pairs(rest)
        name = settings.pop("con-name")
        if name in self.profiles:
            raise CommandError(["nmcli"], 2, f"Error: connection '{name}' exists")
        if len(settings.get("802-11-wireless.ssid", "x").encode()) > 32:
            raise CommandError(["nmcli"], 2, "Error: '802-11-wireless.ssid' is not valid")
        profile = FakeProfile(name, settings)
        self.profiles[name] = profile
        return f"Connection '{name}' ({profile.uuid}) successfully added.\n"

    @staticmethod
    def _modify(profile: FakeProfile, rest: list[str]) -> None:
        for key, value in _pairs(rest).items():
            if value:
                profile.settings[key] = value
            else:  # an empty value resets the property, as nmcli does
                profile.settings.pop(key, None)

    def _up(self, profile: FakeProfile, rest: list[str]) -> str:
        options = _pairs(rest)
        given = self._read_passwd_file(options["passwd-file"]) if "passwd-file" in options \
            else None
        ap = next((a for a in self.in_reach if a.ssid == profile.ssid), None)
        if profile.settings.get("802-11-wireless.mode") != "ap":
            if ap is None or (ap.hidden and profile.settings.get(
                    "802-11-wireless.hidden") != "yes"):
                self.active = None
                raise CommandError(["nmcli"], 4, "Error: Connection activation failed: No "
                                                 "suitable device found for this connection.")
        if profile.secured and PSK not in profile.settings:
            if given is None:
                raise CommandError(["nmcli"], 4, "Error: Connection activation failed: "
                                                 "Secrets were required, but not provided.")
            psk = given
        else:
            psk = profile.settings.get(PSK, "")
        if ap is not None and ap.security and psk != ap.password:
            self.active = None
            raise CommandError(["nmcli"], 4, "Error: Connection activation failed: Secrets "
                                             "were required, but not provided.")
        if profile.secured:
            profile.settings[PSK] = psk  # a system-owned secret: kept in the profile
        self.active = profile.name
        return f"Connection successfully activated (D-Bus active path: /{profile.uuid})\n"

    def _read_passwd_file(self, path: str) -> str | None:
        """The WPA password in an nmcli ``passwd-file`` (``setting.property:secret``; octal
        and backslash escapes, bare spaces at either end stripped), as nmcli reads it."""
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            key, sep, value = line.strip().partition(":")
            if not sep:
                raise CommandError(["nmcli"], 2, f"Error: invalid passwd-file '{path}': "
                                                 "missing colon")
            for short, full in ALIASES.items():
                key = key.replace(short, full)
            if key == PSK:
                secret = _unescape(value.strip())
                self.secrets_read.append(secret)
                return secret
        return None

    def _find(self, kind: str, ref: str) -> FakeProfile:
        for profile in self.profiles.values():
            if (profile.uuid if kind == "uuid" else profile.name) == ref:
                return profile
        raise CommandError(["nmcli"], 10, f"Error: unknown connection '{ref}'.")

    @staticmethod
    def _rows(fields: list[str], rows: list[dict[str, str]]) -> str:
        return "".join(":".join(_escape(r.get(f, "")) for f in fields) + "\n" for r in rows)


def demo_runner() -> FakeNetworkManager:
    """``companion serve --demo``: a flat's Wi-Fi joined, two more in reach."""
    return FakeNetworkManager([FakeAP("Flat 3", 71, password="demo-password"),
                               FakeAP("Neighbours 5G", 38), FakeAP("Caf\u00e9 guests", 22, "")],
                              profiles=["Flat 3"], active="Flat 3")


def _pairs(words: list[str]) -> dict[str, str]:
    """``key value key value ...`` (nmcli's settings) as a dict; ``type``/``ifname`` too;
    ``wifi-sec.*`` under its full name."""
    pairs = {}
    for i in range(0, len(words) - 1, 2):
        key = words[i]
        for short, full in ALIASES.items():
            key = key.replace(short, full) if key.startswith(short) else key
        pairs[key] = words[i + 1]
    return pairs


def _unescape(text: str) -> str:
    """nmcli's escapes in a secret: ``\\ooo`` octal, ``\\x`` for any other x."""
    return re.sub(r"\\([0-7]{1,3}|.)",
                  lambda m: chr(int(m.group(1), 8)) if m.group(1)[0] in "01234567"
                  else m.group(1), text)


__all__ = ["FakeAP", "FakeNetworkManager", "FakeProfile", "demo_runner"]
