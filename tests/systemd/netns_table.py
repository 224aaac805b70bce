"""The table side of the hotspot test (``python -m tests.systemd.netns_table STATE PORT``).

Run inside the table's network namespace: the real dashboard (``web.create_app`` on
``web.server``) on ``0.0.0.0:PORT``, its Wi-Fi control in hotspot mode through the fake
NetworkManager (the namespace has no Wi-Fi radio; the commands are the ones the Pi runs).
Prints one JSON line once it listens; stops when its stdin closes.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from companion.config import WebConfig
from companion.network import EXTENSION
from companion.store import MemoryStore
from companion.table import Table
from hardware.fake_network import FakeAP, FakeNetworkManager
from hardware.network import NetworkManager
from web import create_app
from web.server import make_server, stop


def main(state: Path, port: int) -> int:
    table = Table(MemoryStore())
    table.start()
    app = create_app(table, web_config=WebConfig(port=port), state_dir=state)
    fake = FakeNetworkManager([FakeAP("Flat 3", 60, password="correct horse")], active=None)
    net = NetworkManager(fake, state, defer=lambda job: job())
    mode = net.restore().mode.value  # nothing joined: the hotspot opens
    app.extensions[EXTENSION] = net
    server = make_server(app, "0.0.0.0", port, 8)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    print(json.dumps({"port": server.bind_addr[1], "mode": mode, "ssid": net.hotspot.ssid}),
          flush=True)
    sys.stdin.read()
    stop(app, server)
    thread.join(10)
    table.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2])))
