"""The Wi-Fi control against the fake NetworkManager: every nmcli command the hotspot and
the switches issue, the state they leave, and what the host is told when a switch fails."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from companion.network import (
    Mode,
    NetworkError,
    load_choice,
    load_hotspot,
    parse_wifi_qr,
    wifi_qr_payload,
)
from hardware.fake_network import FakeAP, FakeNetworkManager
from hardware.network import HOTSPOT_CON, NetworkManager, split_terse

HOME = FakeAP("Flat 3", signal=71, security="WPA2", password="correct horse")
CAFE = FakeAP("Caf\u00e9: guests", signal=40, security="")


def control(tmp_path: Path, fake: FakeNetworkManager) -> NetworkManager:
    machine = tmp_path / "machine-id"
    machine.write_text("5d1e2f0c9b8a47d6a1b2c3d4e5f64f2a\n")
    return NetworkManager(fake, tmp_path, defer=lambda job: job(), machine_id_file=machine,
                          leases=str(tmp_path / "leases-{iface}"), clock=lambda: 1000.0)


def shown(commands: list[list[str]]) -> list[list[str]]:
    """The commands, each passwd-file's (random) path written as ``FILE``."""
    return [[("FILE" if i and c[i - 1] == "passwd-file" else w) for i, w in enumerate(c)]
            for c in commands]


def up_hotspot() -> list[str]:
    return ["nmcli", "connection", "up", HOTSPOT_CON, "passwd-file", "FILE"]


def hotspot_add(net: NetworkManager, priority: str) -> list[str]:
    return ["nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0",
            "con-name", HOTSPOT_CON, "autoconnect", "yes",
            "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
            "ipv4.method", "shared", "ipv4.addresses", "10.42.0.1/24", "ipv6.method", "disabled",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
            "wifi-sec.group", "ccmp", "802-11-wireless.ssid", net.hotspot.ssid,
            "connection.autoconnect-priority", priority]


def test_hotspot_name_from_the_machine_id_and_password_kept_private(tmp_path: Path) -> None:
    net = control(tmp_path, FakeNetworkManager())
    assert net.hotspot.ssid == "Table Companion 4F2A"
    assert len(net.hotspot.password) == 12 and net.hotspot.password.isalnum()
    path = tmp_path / "hotspot.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert json.loads(path.read_text())["password"] == net.hotspot.password
    again = load_hotspot(tmp_path, tmp_path / "machine-id")
    assert again == net.hotspot  # made once, then kept
    assert not list(tmp_path.glob("*.tmp"))  # atomic: no temporary left behind


def test_choosing_the_hotspot_issues_exactly_these_commands(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME], profiles=["Flat 3"], active="Flat 3")
    net = control(tmp_path, fake)
    net.use_hotspot()
    assert shown(fake.commands) == [
        ["nmcli", "-t", "-f", "DEVICE,TYPE", "device", "status"],
        ["nmcli", "-t", "-f", "NAME", "connection", "show"],
        hotspot_add(net, "100"),
        up_hotspot(),
    ]
    assert fake.secrets_read == [net.hotspot.password]  # from the file, not the argv
    assert fake.active == HOTSPOT_CON
    assert fake.profiles[HOTSPOT_CON].settings["802-11-wireless.mode"] == "ap"
    assert fake.profiles[HOTSPOT_CON].settings["ipv4.method"] == "shared"
    assert load_choice(tmp_path).mode is Mode.HOTSPOT  # kept across reboots
    st = net.status()
    assert (st.mode, st.ssid, st.address) == (Mode.HOTSPOT, "Table Companion 4F2A", "10.42.0.1")
    assert net.captive_address() == "10.42.0.1"


def test_a_second_hotspot_only_modifies_the_profile(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME])
    net = control(tmp_path, fake)
    net.use_hotspot()
    fake.commands.clear()
    net.use_hotspot()
    assert shown(fake.commands) == [
        ["nmcli", "-t", "-f", "NAME", "connection", "show"],
        ["nmcli", "connection", "modify", HOTSPOT_CON, "802-11-wireless.ssid",
         net.hotspot.ssid, "connection.autoconnect-priority", "100",
         "802-11-wireless-security.psk", ""],  # forgotten, so the current one is asked for
        up_hotspot(),
    ]


def test_joining_a_new_home_network_with_its_password(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME, CAFE])
    net = control(tmp_path, fake)
    net.use_hotspot()
    net.networks()  # the host's page lists them first
    fake.commands.clear()
    net.use_home("Flat 3", "correct horse")
    uuid = fake.profiles["Flat 3"].uuid
    assert shown(fake.commands) == [
        ["nmcli", "-t", "-f", "NAME", "connection", "show"],
        ["nmcli", "connection", "modify", HOTSPOT_CON, "802-11-wireless.ssid",
         net.hotspot.ssid,
         "connection.autoconnect-priority", "-100"],  # the hotspot only when nothing else
        ["nmcli", "-t", "-f", "NAME,UUID,TYPE", "connection", "show"],
        ["nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "Flat 3",
         "802-11-wireless.ssid", "Flat 3", "wifi-sec.key-mgmt", "wpa-psk"],
        ["nmcli", "connection", "up", "uuid", uuid, "ifname", "wlan0", "passwd-file", "FILE"],
    ]
    assert fake.secrets_read[-1] == "correct horse"
    assert fake.active == "Flat 3"
    choice = load_choice(tmp_path)
    assert choice is not None and (choice.mode, choice.ssid) == (Mode.HOME, "Flat 3")
    st = net.status()
    assert (st.mode, st.ssid, st.signal, st.address) == (Mode.HOME, "Flat 3", 71, "192.0.2.23")
    assert net.captive_address() is None


def test_a_known_network_joins_by_its_profile(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME], profiles=["Flat 3"], active=None)
    fake.profiles["Flat 3"].settings["wifi-sec.psk"] = "correct horse"
    net = control(tmp_path, fake)
    nets = net.networks()
    assert [(n.ssid, n.known, n.secured) for n in nets] == [("Flat 3", True, True)]
    fake.commands.clear()
    net.use_home("Flat 3", None)
    assert ["nmcli", "connection", "up", "uuid", fake.profiles["Flat 3"].uuid,
            "ifname", "wlan0"] in fake.commands
    assert fake.active == "Flat 3"


def test_a_wrong_password_brings_the_hotspot_back_and_says_so(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME])
    net = control(tmp_path, fake)
    net.use_hotspot()
    net.networks()  # the host's page lists them first
    fake.commands.clear()
    net.use_home("Flat 3", "wrong password")
    modify = ["nmcli", "connection", "modify", HOTSPOT_CON, "802-11-wireless.ssid",
              net.hotspot.ssid, "connection.autoconnect-priority"]
    up = next(c for c in fake.commands if c[:3] == ["nmcli", "connection", "up"])
    uuid = up[4]
    assert shown(fake.commands) == [
        ["nmcli", "-t", "-f", "NAME", "connection", "show"],
        [*modify, "-100"],
        ["nmcli", "-t", "-f", "NAME,UUID,TYPE", "connection", "show"],
        ["nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "Flat 3",
         "802-11-wireless.ssid", "Flat 3", "wifi-sec.key-mgmt", "wpa-psk"],
        ["nmcli", "connection", "up", "uuid", uuid, "ifname", "wlan0", "passwd-file", "FILE"],
        ["nmcli", "connection", "delete", "uuid", uuid],  # no profile with a bad password
        ["nmcli", "-t", "-f", "NAME", "connection", "show"],
        [*modify, "100", "802-11-wireless-security.psk", ""],
        up_hotspot(),
    ]
    assert fake.active == HOTSPOT_CON and "Flat 3" not in fake.profiles
    st = net.status()
    assert st.mode is Mode.HOTSPOT
    assert "Could not join \u201cFlat 3\u201d (the password was not accepted)" in st.error
    assert "hotspot is on again" in st.error
    assert load_choice(tmp_path).mode is Mode.HOTSPOT


@pytest.mark.parametrize(("ssid", "password", "words"), [
    ("", "correct horse", "Choose a network"),
    ("x" * 33, None, "at most 32 bytes"),
    ("Flat 3", "short", "8 to 63 characters"),
    ("Flat 3", "x" * 64, "8 to 63 characters"),  # 64 characters: only a hex key
    ("Flat 3", "correct\x00horse", "only the letters A to Z"),
    ("Flat 3", "caf\u00e9 au lait", "only the letters A to Z"),
    ("Flat\x003", "correct horse", "control characters"),
    ("Flat\n3", "correct horse", "control characters"),
    ("\u00e9" * 17, None, "at most 32 bytes"),  # 17 characters, 34 bytes
    ("Flat 3", None, "needs its password"),
])
def test_bad_choices_are_refused_before_anything_changes(
        tmp_path: Path, ssid: str, password: str | None, words: str) -> None:
    fake = FakeNetworkManager([HOME], active=None)
    net = control(tmp_path, fake)
    with pytest.raises(NetworkError, match=words):
        net.use_home(ssid, password)
    changing = [c for c in fake.commands if c[1] in ("connection", "device") and
                c[2] in ("add", "modify", "up", "wifi") and "list" not in c]
    assert changing == []
    assert fake.active is None


def test_no_wifi_device_is_said_not_hidden(tmp_path: Path) -> None:
    net = control(tmp_path, FakeNetworkManager(device=None))
    assert net.status().mode is Mode.OFFLINE
    assert "no Wi-Fi device" in net.status().notes[0]
    assert net.networks() == []
    with pytest.raises(NetworkError, match="no Wi-Fi adapter"):
        net.use_hotspot()


def test_restore_opens_the_hotspot_when_no_wifi_is_joined(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME], active=None)
    net = control(tmp_path, fake)
    st = net.restore()
    assert st.mode is Mode.HOTSPOT and fake.active == HOTSPOT_CON
    # not chosen by the host: NetworkManager prefers any known network at the next boot
    assert fake.profiles[HOTSPOT_CON].settings["connection.autoconnect-priority"] == "-100"


def test_restore_keeps_the_hosts_hotspot_choice(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME], profiles=["Flat 3"], active="Flat 3")
    net = control(tmp_path, fake)
    net.use_hotspot()
    fake.active = "Flat 3"  # e.g. someone joined the flat's Wi-Fi by hand meanwhile
    st = net.restore()
    assert st.mode is Mode.HOTSPOT
    assert fake.profiles[HOTSPOT_CON].settings["connection.autoconnect-priority"] == "100"


def test_restore_leaves_a_joined_home_network_alone(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME], profiles=["Flat 3"], active="Flat 3")
    net = control(tmp_path, fake)
    assert net.restore().mode is Mode.HOME
    assert ["nmcli", "connection", "up", HOTSPOT_CON] not in fake.commands


def test_clients_are_the_live_leases(tmp_path: Path) -> None:
    fake = FakeNetworkManager([HOME])
    net = control(tmp_path, fake)
    net.use_hotspot()
    (tmp_path / "leases-wlan0").write_text(
        "1900 aa:bb:cc:00:00:01 10.42.0.17 anns-phone *\n"
        "1900 aa:bb:cc:00:00:02 10.42.0.23 * *\n"
        "500 aa:bb:cc:00:00:03 10.42.0.31 gone *\n")  # expired before the clock's 1000
    assert net.status().clients == 2
    assert "2 device(s) joined" in net.status().summary()


def test_networks_in_reach_strongest_first_without_our_own_hotspot(tmp_path: Path) -> None:
    own = FakeAP("Table Companion 4F2A", 90)
    fake = FakeNetworkManager([CAFE, HOME, own, FakeAP("Flat 3", 20), FakeAP("", 80)])
    nets = control(tmp_path, fake).networks()
    assert [(n.ssid, n.signal, n.secured) for n in nets] == [
        ("Flat 3", 71, True), ("Caf\u00e9: guests", 40, False)]


def test_terse_fields_are_unescaped() -> None:
    assert split_terse(r"*:Caf\:e \\ 2:40:WPA2") == ["*", "Caf:e \\ 2", "40", "WPA2"]


def test_wifi_qr_payload_escapes_the_special_characters() -> None:
    payload = wifi_qr_payload('My;Net,"1":\\', "pa;ss:word")
    assert payload == 'WIFI:T:WPA;S:My\\;Net\\,\\"1\\"\\:\\\\;P:pa\\;ss\\:word;;'
    assert parse_wifi_qr(payload) == {"T": "WPA", "S": 'My;Net,"1":\\', "P": "pa;ss:word"}


def test_doctor_reports_mode_clients_and_signal(tmp_path: Path) -> None:
    from companion.config import Config
    from companion.doctor import Level, check_wifi

    fake = FakeNetworkManager([HOME], active=None)
    net = control(tmp_path, fake)
    net.use_hotspot()
    (tmp_path / "leases-wlan0").write_text("1900 aa:bb:cc:00:00:01 10.42.0.17 anns-phone *\n")
    conf = tmp_path / "table-companion.conf"
    rows = {r.item: r for r in check_wifi(Config(), net, conf)}
    assert rows["mode"].level is Level.OK and "Table Companion 4F2A" in rows["mode"].detail
    assert rows["clients"].detail == "1 device(s) joined"
    assert rows["captive portal"].level is Level.WARN  # the installer's file is missing
    conf.write_text("address=/#/10.42.0.1\n")
    assert {r.item: r for r in check_wifi(Config(), net, conf)}["captive portal"].level \
        is Level.OK
    weak = FakeNetworkManager([FakeAP("Flat 3", 20, password="x" * 8)], profiles=["Flat 3"],
                              active="Flat 3")
    rows = {r.item: r for r in check_wifi(Config(), control(tmp_path, weak), conf)}
    assert rows["mode"].level is Level.WARN and "signal 20%" in rows["mode"].detail
    assert "clients" not in rows
    offline = FakeNetworkManager(device=None)
    rows = {r.item: r for r in check_wifi(Config(), control(tmp_path, offline), conf)}
    assert rows["mode"].level is Level.WARN and "no Wi-Fi device" in rows["mode"].detail


def test_doctor_leaves_a_laptops_wifi_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.config import Config
    from companion.doctor import check_wifi

    monkeypatch.setattr("hardware.pins.MODEL_PATH", Path("/nonexistent/model"))
    rows = check_wifi(Config())
    assert [(r.item, r.detail) for r in rows] == [
        ("control", "not a Raspberry Pi: the Wi-Fi is left to the system")]


def test_the_demo_says_its_wifi_is_simulated(tmp_path: Path) -> None:
    from companion.config import NetworkConfig
    from hardware.fake_network import demo_runner
    from hardware.network import open_network

    net = open_network(NetworkConfig(), tmp_path, runner=demo_runner())
    assert net is not None
    st = net.status()
    assert st.mode is Mode.HOME and st.ssid == "Flat 3"
    assert any("simulated" in n for n in st.notes)
    net.use_hotspot()
    assert net.status().mode is Mode.HOTSPOT
    assert net.captive_address() is None  # the demo's page is never sent to 10.42.0.1


def test_auto_leaves_a_laptop_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.config import NetworkConfig
    from hardware.network import open_network

    monkeypatch.setattr("hardware.pins.MODEL_PATH", tmp_path / "no-model")
    assert open_network(NetworkConfig(), tmp_path) is None
    assert open_network(NetworkConfig(manage="no"), tmp_path) is None


def test_a_network_typed_by_name_is_joined_as_hidden(tmp_path: Path) -> None:
    attic = FakeAP("Attic", 50, password="up the stairs", hidden=True)
    fake = FakeNetworkManager([HOME, attic], active=None)
    net = control(tmp_path, fake)
    assert [n.ssid for n in net.networks()] == ["Flat 3"]
    net.use_home("Attic", "up the stairs")
    assert ["nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name",
            "Attic", "802-11-wireless.ssid", "Attic", "802-11-wireless.hidden", "yes",
            "wifi-sec.key-mgmt", "wpa-psk"] in fake.commands
    assert fake.active == "Attic"


def test_the_real_runner_reads_nmcli_untranslated(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.network import CommandError, SubprocessRunner, nmcli_env

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("LANGUAGE", "de")
    env = nmcli_env()
    assert env["LC_ALL"] == "C.UTF-8" and "LANG" not in env and "LANGUAGE" not in env
    run = SubprocessRunner(timeout_s=30)
    assert run(["sh", "-c", "echo $LC_ALL"]) == "C.UTF-8\n"
    with pytest.raises(CommandError, match="no such"):
        run(["sh", "-c", "echo 'Error: no such device' >&2; exit 10"])


# --- what the host types cannot fool nmcli (issue 38) ------------------------------------

TRICKY = "  back\\slash #1: \"quoted\"  "  # spaces at both ends, a backslash, a '#'


def test_no_password_is_ever_on_a_command_line(tmp_path: Path) -> None:
    fake = FakeNetworkManager([FakeAP("Flat 3", 71, password=TRICKY)])
    net = control(tmp_path, fake)
    net.restore()  # the hotspot, with its own password
    net.networks()
    net.use_home("Flat 3", TRICKY)
    net.use_hotspot()
    assert fake.active == HOTSPOT_CON
    every_word = [w for c in fake.commands for w in c]
    for secret in (TRICKY, TRICKY.strip(), net.hotspot.password):
        assert not [w for w in every_word if secret in w]
    # nmcli read each from its file, exactly (the spaces and the backslash too)
    assert fake.secrets_read == [net.hotspot.password, TRICKY, net.hotspot.password]
    assert fake.profiles["Flat 3"].settings["802-11-wireless-security.psk"] == TRICKY
    assert not list(tmp_path.glob(".nm-secret-*"))  # each file deleted once read


@pytest.mark.parametrize("ssid", ["--ask", "-a", "--show-secrets", "-h", "help", "--", "-"])
def test_a_name_like_an_option_is_only_ever_a_value(tmp_path: Path, ssid: str) -> None:
    ap = FakeAP(ssid, 60, password="correct horse")
    fake = FakeNetworkManager([ap])
    net = control(tmp_path, fake)
    net.networks()
    net.use_home(ssid, "correct horse")
    assert fake.active == ssid
    for command in fake.commands:
        at = [i for i, w in enumerate(command) if w == ssid]
        # only right after a property name of `connection add`, which nmcli takes verbatim
        assert all(command[1:3] == ["connection", "add"] and
                   command[i - 1] in ("con-name", "802-11-wireless.ssid") for i in at), command
    fake.commands.clear()
    net.use_hotspot()
    net.networks()  # the host's page lists them first
    net.use_home(ssid, None)  # saved now: joined by its profile's UUID, not its name
    assert ["nmcli", "connection", "up", "uuid", fake.profiles[ssid].uuid,
            "ifname", "wlan0"] in fake.commands
    assert not [c for c in fake.commands if ssid in c]


def test_the_switch_reports_its_outcome(tmp_path: Path) -> None:
    from companion.network import SwitchState

    jobs: list[Callable[[], None]] = []
    fake = FakeNetworkManager([HOME])
    machine = tmp_path / "machine-id"
    machine.write_text("5d1e2f0c9b8a47d6a1b2c3d4e5f64f2a\n")
    net = NetworkManager(fake, tmp_path, defer=jobs.append, machine_id_file=machine,
                         leases=str(tmp_path / "leases-{iface}"))
    assert net.outcome().state is SwitchState.NONE
    net.networks()
    net.use_home("Flat 3", "wrong password")
    assert net.outcome().state is SwitchState.SWITCHING
    jobs.pop()()
    failed = net.outcome()
    assert failed.state is SwitchState.FAILED
    assert "Could not join \u201cFlat 3\u201d (the password was not accepted)" in failed.message
    net.use_home("Flat 3", "correct horse")
    jobs.pop()()
    assert net.outcome().state is SwitchState.DONE
    assert "on \u201cFlat 3\u201d now" in net.outcome().message


def test_an_unexpected_failure_in_the_background_is_said(tmp_path: Path) -> None:
    from companion.network import SwitchState

    fake = FakeNetworkManager([HOME])
    net = control(tmp_path, fake)
    net.networks()

    def broken(argv: Sequence[str]) -> str:
        if argv[1:3] == ["connection", "add"]:
            raise ValueError("embedded null byte")  # what subprocess says of a NUL
        return fake(argv)
    net.run_nmcli = broken
    net.use_home("Flat 3", "correct horse")
    outcome = net.outcome()
    assert outcome.state is SwitchState.FAILED
    assert outcome.message.startswith("The Wi-Fi could not be changed")
    assert "Restart the table" in outcome.message and "Traceback" not in outcome.message
    assert net.status().error == outcome.message  # the host panel says it too


def test_the_real_runner_turns_a_nul_into_a_command_error() -> None:
    from hardware.network import CommandError, SubprocessRunner

    with pytest.raises(CommandError, match="null"):
        SubprocessRunner(timeout_s=30)(["sh", "-c", "echo\x00"])
