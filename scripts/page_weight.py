"""How heavy the dashboard is: bytes per page and per live update, and time to first paint.

For each game it starts a 3-player game on a real dashboard server (in-memory store),
joins seat 1 and measures, on a 390×844 phone in Debian's Chromium:

- each page (table, seat, host, history, setup) with everything it loads (HTML, CSS,
  scripts, icons): raw bytes and gzip bytes (level 6, what a compressing proxy or
  server would send; the dashboard itself sends them uncompressed);
- one live update (the SSE event of the table page and of a seat, with its HTML);
- first contentful paint of the table and the seat page (``performance`` paint entries).

Usage: ``.venv/bin/python scripts/page_weight.py [game ...]`` (timings depend on the
machine; the byte counts do not).
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import games  # noqa: E402
from companion.config import WebConfig  # noqa: E402
from companion.inputs import Command  # noqa: E402
from companion.store import MemoryStore  # noqa: E402
from companion.table import Table  # noqa: E402
from web import create_app, render  # noqa: E402
from web.auth import host_token  # noqa: E402
from web.server import make_server, stop  # noqa: E402

PAGES = ("/", "/seat/0", "/host", "/history", "/host/setup")


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6))


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as resp:  # noqa: S310 - our loopback server
        return bytes(resp.read())


def measure(game: str, chromium: Any) -> list[tuple[str, int, int, float | None]]:
    state = Path(tempfile.mkdtemp(prefix="page-weight-"))
    table = Table(MemoryStore())
    table.start()
    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state)
    server = make_server(app, "127.0.0.1", 0, 8)
    server.prepare()
    base = f"http://127.0.0.1:{server.bind_addr[1]}"
    threading.Thread(target=server.serve, daemon=True).start()
    rows: list[tuple[str, int, int, float | None]] = []
    try:
        res = table.submit(Command("start", {"game": game, "players": ["Ann", "Ben", "Cy"]}))
        assert res.result(5).accepted
        ctx = chromium.new_context(viewport={"width": 390, "height": 844},
                                   device_scale_factor=2, is_mobile=True)
        page = ctx.new_page()
        page.goto(f"{base}/host?token={host_token(state)}")
        link = page.eval_on_selector("a[href*='/join/']", "a => a.getAttribute('href')")
        page.goto(re.sub(r"^https?://[^/]+", base, link))
        page.locator("form[action^='/join/'] button").click()
        page.wait_for_url(re.compile(r"/seat/0$"))
        for path in PAGES:
            sizes: dict[str, bytes] = {}

            def keep(resp: Any, sizes: dict[str, bytes] = sizes) -> None:
                if "/stream" not in resp.url and resp.request.method == "GET":
                    try:
                        sizes[resp.url] = resp.body()
                    except Exception:  # noqa: BLE001 - a redirect or aborted load
                        pass

            page.on("response", keep)
            page.goto(base + path)
            page.wait_for_load_state("load")
            paint = None
            for _ in range(40):  # the paint entry can come a moment after "load"
                paint = page.evaluate("""() => {
                  const e = performance.getEntriesByName('first-contentful-paint')[0];
                  return e ? e.startTime : null; }""")
                if paint is not None:
                    break
                page.wait_for_timeout(50)
            page.remove_listener("response", keep)
            raw = sum(len(b) for b in sizes.values())
            zipped = sum(gz(b) for b in sizes.values())
            rows.append((f"page {path} ({len(sizes)} files)", raw, zipped, paint))
        ctx.close()
        snap = table.hub.latest()
        with app.app_context():
            for kind, payload, seat in (("table", render.public_payload(snap), None),
                                        ("seat", render.seat_payload(snap, 0), 0)):
                payload["html"] = render.fragment(kind, payload, seat=seat)
                event = render.event_json(payload).encode()
                rows.append((f"live update ({kind})", len(event), gz(event), None))
    finally:
        stop(app, server)
        table.stop()
    return rows


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    wanted = argv or [g for g in ("nasty7", "illegal", "casablanca", "crime_lords")
                      if g in games.available()]
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-gpu"])
        for game in wanted:
            print(f"\n{game}")
            print(f"  {'what':38} {'bytes':>9} {'gzip':>8} {'first paint':>12}")
            for what, raw, zipped, paint in measure(game, chromium):
                fp = f"{paint:.0f} ms" if paint is not None else ""
                print(f"  {what:38} {raw:9,} {zipped:8,} {fp:>12}")
        chromium.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
