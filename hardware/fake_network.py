"""A fake NetworkManager: a ``hardware.network.Runner`` that records every nmcli command
and answers like nmcli's terse output (``-t -f ...`` / ``-g ...``), with the state changes
the real one makes (profiles added, modified, deleted; the active connection).

Like gpiozero's mock pins it is a real backend for tests and ``companion serve --demo``:
networks in reach, saved profiles, one Wi-Fi device; ``wrong_password`` lists the networks
whose join fails as nmcli's does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hardware.network import HOTSPOT_CON, WIFI_TYPE, CommandError


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

    @property
    def ssid(self) -> str:
        return self.settings.get("802-11-wireless.ssid", self.name)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


class FakeNetworkManager:
    """Answers nmcli argv lists; ``commands`` holds every one, in order."""

    def __init__(self, in_reach: Sequence[FakeAP] = (), *, device: str | None = "wlan0",
                 profiles: Sequence[str] = (), active: str | None = None,
                 address: str = "192.168.1.23/24") -> None:
        self.in_reach = list(in_reach)
        self.device = device
        self.profiles: dict[str, FakeProfile] = {
            p: FakeProfile(p, {"802-11-wireless.ssid": p}) for p in profiles}
        self.active = active
        self.home_address = address
        self.commands: list[list[str]] = []

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
            case ["device", "wifi", "connect", ssid, *rest]:
                return self._connect(ssid, rest)
            case ["connection", "show"]:
                return self._rows(fields, [{"NAME": p.name, "TYPE": WIFI_TYPE}
                                           for p in self.profiles.values()])
            case ["connection", "show", "id", name] if getter:
                return self._profile(name).settings.get(fields[0], "") + "\n"
            case ["connection", "add", *rest]:
                return self._add(rest)
            case ["connection", "modify", name, *rest]:
                self._profile(name).settings.update(_pairs(rest))
                return ""
            case ["connection", "up", name] | ["connection", "up", "id", name]:
                self._up(name)
                return f"Connection successfully activated (D-Bus active path: /{name})\n"
            case ["connection", "delete", "id", name]:
                self._profile(name)
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

    def _connect(self, ssid: str, rest: list[str]) -> str:
        ap = next((a for a in self.in_reach if a.ssid == ssid), None)
        options = _pairs(rest)
        if ap is None or (ap.hidden and options.get("hidden") != "yes"):
            raise CommandError(["nmcli"], 10, f"Error: No network with SSID '{ssid}' found.")
        given = options.get("password", "")
        profile = self.profiles.setdefault(ssid, FakeProfile(ssid, {"802-11-wireless.ssid": ssid}))
        if given:
            profile.settings["wifi-sec.psk"] = given
        if ap.security and profile.settings.get("wifi-sec.psk") != ap.password:
            self.active = None
            raise CommandError(["nmcli"], 4, "Error: Connection activation failed: Secrets "
                                             "were required, but not provided.")
        self.active = ssid
        return f"Device '{self.device}' successfully activated.\n"

    def _add(self, rest: list[str]) -> str:
        settings = _pairs(rest)
        name = settings.pop("con-name")
        if name in self.profiles:
            raise CommandError(["nmcli"], 2, f"Error: connection '{name}' exists")
        self.profiles[name] = FakeProfile(name, settings)
        return f"Connection '{name}' successfully added.\n"

    def _up(self, name: str) -> None:
        profile = self._profile(name)
        if profile.settings.get("802-11-wireless.mode") != "ap":
            ap = next((a for a in self.in_reach if a.ssid == profile.ssid), None)
            if ap is None:
                raise CommandError(["nmcli"], 4, "Error: Connection activation failed: No "
                                                 "suitable device found for this connection.")
        self.active = name

    def _profile(self, name: str) -> FakeProfile:
        if name not in self.profiles:
            raise CommandError(["nmcli"], 10, f"Error: unknown connection '{name}'.")
        return self.profiles[name]

    @staticmethod
    def _rows(fields: list[str], rows: list[dict[str, str]]) -> str:
        return "".join(":".join(_escape(r.get(f, "")) for f in fields) + "\n" for r in rows)


def demo_runner() -> FakeNetworkManager:
    """``companion serve --demo``: a flat's Wi-Fi joined, two more in reach."""
    return FakeNetworkManager([FakeAP("Flat 3", 71, password="demo-password"),
                               FakeAP("Neighbours 5G", 38), FakeAP("Caf\u00e9 guests", 22, "")],
                              profiles=["Flat 3"], active="Flat 3")


def _pairs(words: list[str]) -> dict[str, str]:
    """``key value key value ...`` (nmcli's settings) as a dict; ``type``/``ifname`` too."""
    return {words[i]: words[i + 1] for i in range(0, len(words) - 1, 2)}


__all__ = ["FakeAP", "FakeNetworkManager", "FakeProfile", "demo_runner"]
