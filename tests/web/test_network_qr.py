"""The Wi-Fi QR code, rendered to an image, decodes with the project's own decoder to the
right network name and password (special characters included)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import segno
from PIL import Image

from companion.network import Hotspot, load_hotspot, parse_wifi_qr, wifi_qr_payload
from vision.decoding import BACKENDS, default_decoder


def rendered(payload: str, scale: int = 6) -> np.ndarray:
    """The code as the dashboard draws it (segno, error level M), as a grayscale PNG."""
    buf = io.BytesIO()
    segno.make(payload, error="m").save(buf, kind="png", scale=scale, border=4)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("L"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("ssid", "password"), [
    ("Table Companion 4F2A", "k7mq2xw9ahp3"),
    ('Flat 3; "guests", 2:4\\5', "pa;ss,wo:rd\"\\x"),
    ("Caf\u00e9 \u00fc\u00df", "correct horse battery"),
])
def test_the_wifi_code_decodes_to_the_name_and_password(
        backend: str, ssid: str, password: str) -> None:
    found = default_decoder(backend).decode(rendered(wifi_qr_payload(ssid, password)))
    assert len(found) == 1
    fields = parse_wifi_qr(found[0].text)
    assert fields == {"T": "WPA", "S": ssid, "P": password}


def test_the_generated_hotspot_decodes(tmp_path: Path) -> None:
    (tmp_path / "machine-id").write_text("0123456789abcdef0123456789ab4f2a\n")
    hotspot = load_hotspot(tmp_path, tmp_path / "machine-id")
    assert hotspot == Hotspot("Table Companion 4F2A", hotspot.password)
    found = default_decoder().decode(rendered(hotspot.qr_payload()))
    assert [parse_wifi_qr(d.text) for d in found] == [
        {"T": "WPA", "S": "Table Companion 4F2A", "P": hotspot.password}]
