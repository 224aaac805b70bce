"""The dashboard's Wi-Fi: captive-portal answers, the host's Wi-Fi page and switches (with
the fake NetworkManager), the Wi-Fi QR code on the host panel, the TV and the card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.network import EXTENSION, Mode, load_choice
from hardware.fake_network import FakeAP, FakeNetworkManager
from hardware.network import HOTSPOT_CON
from web.network import CHECKS, is_ours

from .conftest import as_host, csrf_of, wire_network

HOME = FakeAP("Flat 3", signal=71, password="correct horse")


@pytest.fixture
def hotspot(app: Flask, tmp_path: Path) -> FakeNetworkManager:
    fake = FakeNetworkManager([HOME], active=None)
    wire_network(app, tmp_path, fake)
    assert fake.active == HOTSPOT_CON
    return fake


@pytest.fixture
def home(app: Flask, tmp_path: Path) -> FakeNetworkManager:
    fake = FakeNetworkManager([HOME], profiles=["Flat 3"], active="Flat 3")
    wire_network(app, tmp_path, fake)
    return fake


@pytest.mark.parametrize(("host", "ours"), [
    ("10.42.0.1", True), ("10.42.0.1:8080", True), ("table.local", True), ("[::1]:8080", True),
    ("localhost:8080", True), ("raspberrypi", True),
    ("connectivitycheck.gstatic.com", False), ("captive.apple.com:80", False),
    ("www.msftconnecttest.com", False), ("detectportal.firefox.com", False),
])
def test_which_names_are_the_tables_own(host: str, ours: bool) -> None:
    assert is_ours(host) is ours


@pytest.mark.parametrize("path", sorted([*CHECKS, "/redirect", "/some/page"]))
def test_in_hotspot_mode_other_names_lead_to_the_table_page(
        client: FlaskClient, hotspot: FakeNetworkManager, path: str) -> None:
    resp = client.get(path, headers={"Host": "connectivitycheck.gstatic.com"})
    assert resp.status_code == 302
    assert resp.headers["Location"] == "http://10.42.0.1/"
    assert resp.headers["Cache-Control"] == "no-store"
    on_port = client.get(path, headers={"Host": "captive.apple.com:8080"})
    assert on_port.headers["Location"] == "http://10.42.0.1:8080/"


def test_the_table_page_itself_answers_normally_in_hotspot_mode(
        client: FlaskClient, hotspot: FakeNetworkManager) -> None:
    assert client.get("/", headers={"Host": "10.42.0.1"}).status_code == 200
    assert client.get("/", headers={"Host": "table.local"}).status_code == 200
    assert client.get("/generate_204", headers={"Host": "10.42.0.1"}).status_code == 204


@pytest.mark.parametrize("host", ["connectivitycheck.gstatic.com", "192.168.1.23:8080"])
def test_outside_hotspot_mode_the_checks_say_online(
        client: FlaskClient, home: FakeNetworkManager, host: str) -> None:
    assert client.get("/generate_204", headers={"Host": host}).status_code == 204
    apple = client.get("/hotspot-detect.html", headers={"Host": host})
    assert apple.status_code == 200 and "<BODY>Success</BODY>" in apple.get_data(as_text=True)
    assert client.get("/connecttest.txt", headers={"Host": host}).get_data(
        as_text=True) == "Microsoft Connect Test"
    assert client.get("/ncsi.txt", headers={"Host": host}).get_data(as_text=True) == \
        "Microsoft NCSI"
    assert client.get("/redirect", headers={"Host": host}).status_code == 404  # as before
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_without_a_control_nothing_is_redirected(client: FlaskClient) -> None:
    resp = client.get("/generate_204", headers={"Host": "connectivitycheck.gstatic.com"})
    assert resp.status_code == 204


def test_the_host_panel_shows_the_mode_and_the_wifi_code(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    html = host.get("/host").get_data(as_text=True)
    assert "The table's own Wi-Fi is on:" in html and "Table Companion 4F2A" in html
    net = app.extensions[EXTENSION]
    assert net.hotspot.password in html
    assert "<svg" in html.split('id="wifi-h"')[1]
    assert 'href="/host/network"' in html and 'href="/host/network/card"' in html


def test_guests_see_no_wifi_password_on_the_table_page_in_home_mode(
        app: Flask, home: FakeNetworkManager) -> None:
    c = app.test_client()
    net = app.extensions[EXTENSION]
    assert net.hotspot.password not in c.get("/?tv=1").get_data(as_text=True)
    assert c.get("/host/network").status_code == 403
    assert c.get("/host/network/card").status_code == 403


def test_the_tv_shows_the_wifi_code_in_hotspot_mode(
        app: Flask, hotspot: FakeNetworkManager) -> None:
    c = app.test_client()
    net = app.extensions[EXTENSION]
    tv = c.get("/?tv=1", headers={"Host": "10.42.0.1"}).get_data(as_text=True)
    assert "Join the table's Wi-Fi" in tv and net.hotspot.password in tv and "<svg" in tv
    assert "Join the table's Wi-Fi" not in c.get("/", headers={"Host": "10.42.0.1"}).get_data(
        as_text=True)


def test_the_wifi_page_lists_networks_and_joins_one(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    page = host.get("/host/network").get_data(as_text=True)
    assert "Flat 3" in page and "signal 71%" in page and "password needed" in page
    hotspot.commands.clear()
    resp = host.post("/host/network/home", data={"csrf_token": csrf_of(host), "ssid": "Flat 3",
                                                 "password": "correct horse"})
    assert resp.status_code == 200
    text = resp.get_data(as_text=True)
    assert "Joining \u201cFlat 3\u201d" in text and "http://table.local/host?token=" in text
    assert ["nmcli", "connection", "up", "uuid", hotspot.profiles["Flat 3"].uuid, "ifname",
            "wlan0", "passwd-file"] in [c[:-1] for c in hotspot.commands]
    assert not [c for c in hotspot.commands if "correct horse" in c]  # not on a command line
    assert hotspot.secrets_read[-1] == "correct horse"
    assert hotspot.active == "Flat 3"
    assert load_choice(state_dir).mode is Mode.HOME


def test_a_missing_password_is_said_and_the_choice_kept(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    host.get("/host/network")
    resp = host.post("/host/network/home", data={"csrf_token": csrf_of(host), "ssid": "Flat 3"})
    assert resp.status_code == 400
    text = resp.get_data(as_text=True)
    assert "\u201cFlat 3\u201d needs its password" in text
    assert re.search(r'value="Flat 3"\s+checked', text)  # the choice is not lost
    assert hotspot.active == HOTSPOT_CON


def test_switching_to_the_hotspot_from_home(
        app: Flask, state_dir: Path, home: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    resp = host.post("/host/network/hotspot", data={"csrf_token": csrf_of(host)})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Turning on the table's own Wi-Fi" in text
    assert "http://10.42.0.1/host?token=" in text
    assert home.commands[-1][:-1] == ["nmcli", "connection", "up", HOTSPOT_CON, "passwd-file"]
    assert home.active == HOTSPOT_CON


def test_switches_need_the_host_and_the_csrf_token(
        app: Flask, state_dir: Path, home: FakeNetworkManager) -> None:
    guest = app.test_client()
    assert guest.post("/host/network/hotspot",
                      data={"csrf_token": csrf_of(guest)}).status_code == 403
    host = as_host(app, state_dir)
    assert host.post("/host/network/hotspot", data={}).status_code == 403
    assert home.active == "Flat 3"


def test_the_card_for_the_box_lid(app: Flask, state_dir: Path,
                                  home: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    html = host.get("/host/network/card").get_data(as_text=True)
    net = app.extensions[EXTENSION]
    assert net.hotspot.ssid in html and net.hotspot.password in html and "<svg" in html
    assert "http://table.local/" in html


def test_without_networkmanager_the_panel_says_so(app: Flask, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    assert "managed outside Table Companion" in host.get("/host").get_data(as_text=True)


def test_a_nul_in_the_password_is_refused_next_to_the_field(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    host.get("/host/network")
    hotspot.commands.clear()
    resp = host.post("/host/network/home", data={"csrf_token": csrf_of(host), "ssid": "Flat 3",
                                                 "password": "correct\x00horse"})
    assert resp.status_code == 400
    text = resp.get_data(as_text=True)
    field = text.index('id="wifi-password"')
    refusal = text.index('id="wifi-error"')
    assert field < refusal < text.index("Join this network</button>")  # beside the field
    assert "only the letters A to Z" in text[refusal:]
    assert "Traceback" not in text
    assert [c for c in hotspot.commands if c[1] == "connection"] == []  # nothing ran
    assert hotspot.active == HOTSPOT_CON


def test_a_bad_name_is_refused_next_to_the_name_field(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    resp = host.post("/host/network/home", data={"csrf_token": csrf_of(host),
                                                 "other": "Attic\nroom"})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert text.index('id="wifi-other"') < text.index('id="wifi-error"') < \
        text.index('id="wifi-password"')
    assert "control characters" in text


def test_the_switch_page_says_how_the_switch_ended(
        app: Flask, state_dir: Path, hotspot: FakeNetworkManager) -> None:
    host = as_host(app, state_dir)
    host.get("/host/network")
    resp = host.post("/host/network/home", data={"csrf_token": csrf_of(host), "ssid": "Flat 3",
                                                 "password": "not the password"})
    text = resp.get_data(as_text=True)
    assert 'id="switch-outcome"' in text and 'data-state="failed"' in text
    assert "Could not join \u201cFlat 3\u201d (the password was not accepted)" in text
    got = host.get("/host/network/outcome").get_json()
    assert got["state"] == "failed" and "Could not join" in got["message"]
    assert app.test_client().get("/host/network/outcome").status_code == 403
