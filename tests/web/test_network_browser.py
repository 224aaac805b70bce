"""The host's Wi-Fi panel in real Chromium at 390×844, with the fake NetworkManager: the
networks in reach, a missing and a wrong password, back to the hotspot, a saved network;
the Wi-Fi code on the TV and the printable card. The code on the screen decodes (the
project's own decoder) to the hotspot's name and password."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from PIL import Image
from playwright.sync_api import expect

from companion.network import parse_wifi_qr
from hardware.fake_network import FakeAP, FakeNetworkManager
from hardware.network import HOTSPOT_CON, NetworkManager
from tests.browser import BROWSER, shot, too_wide
from tests.web.conftest import wire_network
from vision.decoding import default_decoder
from web.auth import host_token

pytestmark = BROWSER


@pytest.fixture
def wifi(app: Flask, state_dir: Path, tmp_path: Path) -> tuple[FakeNetworkManager,
                                                                NetworkManager]:
    fake = FakeNetworkManager([FakeAP("Flat 3", 71, password="correct horse"),
                               FakeAP("Neighbours 5G", 38, password="their secret"),
                               FakeAP("Caf\u00e9 guests", 22, security="")],
                              profiles=["Flat 3"], active="Flat 3")
    fake.profiles["Flat 3"].settings["wifi-sec.psk"] = "correct horse"
    net = wire_network(app, tmp_path, fake)
    return fake, net


def decode_on_screen(page: Any, selector: str) -> dict[str, str]:
    """The QR code as the screen shows it, read by the project's decoder."""
    png = page.locator(selector).screenshot()
    gray = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    pad = np.pad(gray, 40, constant_values=255)  # the page's white quiet zone, and more
    found = default_decoder().decode(pad)
    assert len(found) == 1, found
    return parse_wifi_qr(found[0].text)


def test_host_switches_the_wifi_on_a_phone(live_url: str, phone: Any, state_dir: Path,
                                           wifi: tuple[FakeNetworkManager, NetworkManager]
                                           ) -> None:
    fake, net = wifi
    page = phone()
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    panel = page.locator("section.wifi")
    expect(panel.locator(".wifi-now")).to_contain_text("On the Wi-Fi \u201cFlat 3\u201d")
    expect(panel.locator(".wifi-now")).to_contain_text("signal 71%")
    panel.scroll_into_view_if_needed()
    shot(page, "wifi-panel-home")
    panel.get_by_role("link", name="Change Wi-Fi").click()

    expect(page.get_by_role("heading", name="Wi-Fi", exact=True)).to_be_visible()
    names = page.locator("label.network .name").all_inner_texts()
    assert names == ["Flat 3", "Neighbours 5G", "Caf\u00e9 guests"]
    assert too_wide(page) == []
    shot(page, "wifi-page")

    page.get_by_label("Neighbours 5G").check()
    page.get_by_role("button", name="Join this network").click()
    expect(page.locator("#wifi-error")).to_contain_text("needs its password")
    expect(page.get_by_label("Neighbours 5G")).to_be_checked()  # the choice is kept
    shot(page, "wifi-missing-password")
    assert fake.active == "Flat 3"

    page.get_by_label("Password (a new network only").fill("not their secret")
    page.get_by_role("button", name="Join this network").click()
    expect(page.get_by_role("heading", name="Joining \u201cNeighbours 5G\u201d")).to_be_visible()
    # never silence after "switching": the page says how it ended
    expect(page.locator("#switch-outcome")).to_contain_text(
        "Could not join \u201cNeighbours 5G\u201d (the password was not accepted)")
    shot(page, "wifi-switching")
    assert fake.active == HOTSPOT_CON  # the wrong password: the table's own Wi-Fi again

    page.goto(f"{live_url}/host")
    panel = page.locator("section.wifi")
    expect(panel.locator(".refusal")).to_contain_text("Could not join \u201cNeighbours 5G\u201d")
    expect(panel.locator(".wifi-now")).to_contain_text("The table's own Wi-Fi is on")
    panel.scroll_into_view_if_needed()
    shot(page, "wifi-panel-hotspot")
    assert decode_on_screen(page, "section.wifi .wifi-code svg") == {
        "T": "WPA", "S": "Table Companion 4F2A", "P": net.hotspot.password}

    panel.get_by_role("link", name="Change Wi-Fi").click()
    page.get_by_label("Flat 3").check()
    page.get_by_role("button", name="Join this network").click()
    expect(page.get_by_role("heading", name="Joining \u201cFlat 3\u201d")).to_be_visible()
    assert fake.active == "Flat 3"
    expect(page.locator("#switch-outcome")).to_contain_text("The table is on \u201cFlat 3\u201d now")
    assert ["nmcli", "connection", "up", "uuid", fake.profiles["Flat 3"].uuid,
            "ifname", "wlan0"] in fake.commands
    page.goto(f"{live_url}/host")
    expect(page.locator("section.wifi .wifi-now")).to_contain_text("On the Wi-Fi \u201cFlat 3\u201d")


def test_tv_and_card_show_the_wifi_code(live_url: str, phone: Any, tv: Any, state_dir: Path,
                                        wifi: tuple[FakeNetworkManager, NetworkManager]
                                        ) -> None:
    fake, net = wifi
    net.hotspot_now()
    screen = tv()
    screen.goto(f"{live_url}/?tv=1")
    corner = screen.locator("aside.wifi-tv")
    expect(corner).to_contain_text("Table Companion 4F2A")
    shot(screen, "wifi-tv")
    assert decode_on_screen(screen, "aside.wifi-tv svg")["P"] == net.hotspot.password

    page = phone()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    page.locator("section.wifi").get_by_role("link", name="Print the Wi-Fi card").click()
    expect(page.locator(".wifi-card dd").nth(1)).to_have_text(net.hotspot.password)
    assert too_wide(page) == []
    shot(page, "wifi-card")
    assert decode_on_screen(page, ".wifi-card svg")["S"] == "Table Companion 4F2A"
