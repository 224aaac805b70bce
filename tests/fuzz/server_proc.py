"""A real dashboard server process for the hostile-input suite (``python -m tests.fuzz.server_proc``).

Argument: a state folder. It serves the tally test game on a free loopback port, logs to
``<state>/server.log`` and prints one JSON line: the port, the routes, and the cookies and
CSRF values of the host and seat 0 (minted with the app's own guard).
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from pathlib import Path

from companion import games
from companion.config import WebConfig
from companion.inputs import Command
from companion.store import SqliteStore
from companion.table import Table
from tests.core import tally
from web import create_app
from web.auth import CSRF_COOKIE, HOST_COOKIE, SEAT_COOKIE
from web.context import state_of
from web.server import make_server, stop


def main(state: Path) -> int:
    logging.basicConfig(filename=str(state / "server.log"), level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    games.register(tally.engine)
    store = SqliteStore(state / "events.sqlite3")
    store.lock()
    table = Table(store)
    table.start()
    started = table.submit(Command("start", {"game": "tally", "players": ["Ann", "Ben", "Cy"],
                                             "options": {"target": 10**6}})).result(300)
    assert started.accepted, started.reason
    app = create_app(table, web_config=WebConfig(), state_dir=state)
    st = state_of(app)
    assert st is not None
    game_id = table.hub.latest().game_id or ""
    routes = sorted({(m, r.rule) for r in app.url_map.iter_rules()
                     for m in r.methods or () if m in ("GET", "POST")})
    server = make_server(app, "127.0.0.1", 0, 8)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    print(json.dumps({
        "port": server.bind_addr[1],
        "routes": routes,
        "game_id": game_id,
        "host": f"{HOST_COOKIE}={st.guard.host_cookie()}",
        "seat0": f"{SEAT_COOKIE.format(0)}={st.guard.seat_cookie(game_id, 0)}",
        "csrf_cookie": f"{CSRF_COOKIE}=fuzz",
        "csrf": st.guard.csrf_for("fuzz"),
    }), flush=True)
    sys.stdin.read()  # until the test closes our stdin
    alive = table.loop_alive()
    stop(app, server)
    thread.join(300)
    table.stop()
    store.close()
    print(json.dumps({"loop_alive": alive}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
