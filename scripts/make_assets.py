"""Make the dashboard's generated static assets (run once; the results are committed).

- ``web/static/turn.wav``: the short "your turn" chime (two soft sine notes, 0.3 s);
- ``web/static/favicon.png``: ``favicon.svg`` rendered at 192×192 by Debian's Chromium.

Usage: ``.venv/bin/python scripts/make_assets.py``
"""

from __future__ import annotations

import base64
import math
import struct
import wave
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
RATE = 16_000


def chime(path: Path) -> None:
    """Two notes (E6 then A6) with a quick fade, 16 kHz mono 16-bit: about 10 KB."""
    frames = bytearray()
    for freq, dur in ((1318.5, 0.12), (1760.0, 0.18)):
        n = int(RATE * dur)
        for i in range(n):
            env = min(1.0, i / (0.005 * RATE)) * (1 - i / n) ** 2
            frames += struct.pack("<h", int(9000 * env * math.sin(2 * math.pi * freq * i / RATE)))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))


def icon(svg: Path, png: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 192, "height": 192})
        data = base64.b64encode(svg.read_bytes()).decode()
        page.set_content(f'<body style="margin:0;background:transparent">'
                         f'<img src="data:image/svg+xml;base64,{data}" '
                         f'width="192" height="192"></body>')
        page.screenshot(path=str(png), omit_background=True,
                        clip={"x": 0, "y": 0, "width": 192, "height": 192})
        b.close()


if __name__ == "__main__":
    chime(STATIC / "turn.wav")
    icon(STATIC / "favicon.svg", STATIC / "favicon.png")
    print("wrote", STATIC / "turn.wav", STATIC / "favicon.png")
