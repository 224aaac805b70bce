"""``companion bench web``: commit → arrival latency at 50 SSE clients, and server memory.

A child process runs the real stack (table loop, SQLite store, Flask app, cheroot) on a
loopback port; this process holds 50 ``/api/stream`` connections on one selector thread
and notes when each snapshot's id arrives. The child notes when each snapshot is
published (after its commit). Both use ``time.monotonic`` (CLOCK_MONOTONIC, the same
clock in every process on Linux). Targets: p95 ≤ 50 ms, server peak RSS ≤ 120 MB.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

# The one web module that builds an engine: its own benchmark game, never served (the
# engine contract is not a game's internals, so web-no-game-internals allows it).
from companion.games.engine import Engine

CLIENTS = 50
EVENTS = 100
INTERVAL_S = 0.1
TARGET_P95_MS = 50.0
TARGET_RSS_MB = 120.0
ID_RE = re.compile(rb"id: [0-9a-f]+-(\d+)\n")


# --- a small engine with a table-sized view (no dependency on a game being written) ----


@dataclass(frozen=True)
class _State:
    seats: int
    total: int = 0
    turn: int = 0


@dataclass(frozen=True)
class Counted:
    seat: int
    n: int


def _start(setup: Any) -> _State:
    return _State(setup.n_seats)


def _decide(state: _State, action: Mapping[str, Any], now: float) -> list[Counted]:
    return [Counted(state.turn, int(action.get("n", 1)))]


def _apply(state: _State, event: Counted) -> _State:
    return replace(state, total=state.total + event.n, turn=(state.turn + 1) % state.seats)


def _public_view(state: _State) -> dict[str, Any]:
    seats = [{"seat": s, "name": f"Player {s + 1}", "cards": 18 - (state.total + s) % 18,
              "to_play": s == state.turn, "skips": 0} for s in range(state.seats)]
    return {"status": f"Player {state.turn + 1} to play", "seats": seats,
            "turn": state.turn, "pile": state.total, "log": ["x" * 60] * 5}


def _none(*_: Any) -> None:
    return None


def _no_signals(state: _State, events: Sequence[Counted]) -> list[tuple[str, int | None]]:
    return []


#: Six seats adding to a total; the view is about as large as a real game's.
BENCH_ENGINE: Engine[_State, Counted] = Engine(
    name="bench_web", title="Web benchmark", aliases=(), min_seats=2, max_seats=8,
    default_options={}, event_types={"Counted": Counted},
    start=_start, decide=_decide, apply=_apply, outcome=_none, next_deadline=_none,
    public_view=_public_view, seat_view=lambda state, seat: {"you": seat},
    state_json=lambda state: {"total": state.total}, signals=_no_signals,
    action_for_input=_none,
)


# --- the server side (child process) ---------------------------------------------------


def _child(clients: int, events: int, interval: float) -> int:
    from companion import games
    from companion.config import WebConfig
    from companion.inputs import Command
    from companion.store import SqliteStore
    from companion.table import Table
    from web import create_app
    from web.context import state_of
    from web.server import make_server, stop

    games.register(BENCH_ENGINE)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "events.sqlite3")
        table = Table(store)
        published: dict[int, float] = {}
        table.subscribe(lambda snap, _sig: published.__setitem__(snap.seq, time.monotonic()))
        table.start()
        table.submit(Command("start", {"game": "bench_web", "players": 6})).result(10)
        app = create_app(table, web_config=WebConfig(), state_dir=Path(tmp))
        server = make_server(app, "127.0.0.1", 0, clients + 16)
        server.prepare()
        thread = threading.Thread(target=server.serve, daemon=True)
        thread.start()
        print(json.dumps({"port": server.bind_addr[1]}), flush=True)
        st = state_of(app)
        assert st is not None
        deadline = time.monotonic() + 30
        while st.streams < clients and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        first = table.hub.latest().seq + 1
        for _ in range(events):
            table.submit(Command("action", {"action": {"do": "count", "n": 1}})).result(10)
            time.sleep(interval)
        time.sleep(0.5)
        measured = {seq: t for seq, t in published.items() if seq >= first}
        rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({"commits": measured, "streams": st.streams, "rss_kb": rss_kb}),
              flush=True)
        sys.stdin.read()  # the parent closes our stdin when its clients are done
        stop(app, server)
        thread.join(5)
        table.stop()
        store.close()
    return 0


# --- the clients (this process) ---------------------------------------------------------


def _connect(port: int, n: int) -> list[socket.socket]:
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Accept: text/event-stream\r\n\r\n")
        s.setblocking(False)
        socks.append(s)
    return socks


def _listen(socks: list[socket.socket], stop: threading.Event,
            arrivals: list[dict[int, float]]) -> None:
    sel = selectors.DefaultSelector()
    tails = [b""] * len(socks)
    for i, s in enumerate(socks):
        sel.register(s, selectors.EVENT_READ, i)
    try:
        while not stop.is_set():
            for key, _ in sel.select(timeout=0.2):
                now = time.monotonic()
                i = key.data
                try:
                    data = socks[i].recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    sel.unregister(socks[i])
                    continue
                buf = tails[i] + data
                for m in ID_RE.finditer(buf):
                    arrivals[i].setdefault(int(m.group(1)), now)
                tails[i] = buf[-64:]
    finally:
        sel.close()


@dataclass(frozen=True)
class Figures:
    clients: int
    events: int
    deliveries: int
    missing: int
    median_ms: float
    p95_ms: float
    max_ms: float
    rss_mb: float

    def ok(self) -> bool:
        return (self.missing == 0 and self.p95_ms <= TARGET_P95_MS
                and self.rss_mb <= TARGET_RSS_MB)


def _figures(commits: Mapping[int, float], arrivals: list[dict[int, float]],
             rss_kb: int) -> Figures:
    lat = [(a[seq] - t) * 1000 for a in arrivals for seq, t in commits.items() if seq in a]
    missing = len(commits) * len(arrivals) - len(lat)
    q = statistics.quantiles(lat, n=20) if len(lat) >= 20 else [max(lat, default=0.0)] * 19
    return Figures(len(arrivals), len(commits), len(lat), missing,
                   round(statistics.median(lat), 2) if lat else 0.0, round(q[18], 2),
                   round(max(lat, default=0.0), 2), round(rss_kb / 1024, 1))


def run(clients: int = CLIENTS, events: int = EVENTS, interval: float = INTERVAL_S) -> Figures:
    """Run the benchmark; raises ``RuntimeError`` when the server does not start."""
    cmd = [sys.executable, "-m", "web.bench", "--child", str(clients), str(events),
           str(interval)]
    root = Path(__file__).resolve().parent.parent
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          cwd=root) as child:
        assert child.stdin is not None and child.stdout is not None
        try:
            line = child.stdout.readline()
            if not line:
                raise RuntimeError("the benchmark server did not start")
            port = int(json.loads(line)["port"])
            socks = _connect(port, clients)
            stop = threading.Event()
            arrivals: list[dict[int, float]] = [{} for _ in socks]
            listener = threading.Thread(target=_listen, args=(socks, stop, arrivals))
            listener.start()
            report = json.loads(child.stdout.readline())
            time.sleep(0.2)
            stop.set()
            listener.join()
            for s in socks:
                s.close()
        finally:
            child.stdin.close()
            child.wait(15)
    commits = {int(k): float(v) for k, v in report["commits"].items()}
    return _figures(commits, arrivals, int(report["rss_kb"]))


def main(as_json: bool) -> int:
    """``companion bench web [--json]``: prints the figures; 0 when the targets are met."""
    figures = run()
    if as_json:
        data = dict(figures.__dict__, target_p95_ms=TARGET_P95_MS,
                    target_rss_mb=TARGET_RSS_MB, ok=figures.ok())
        print(json.dumps(data, indent=2))
    else:
        f = figures
        print(f"web: {f.clients} SSE clients on loopback, {f.events} snapshots, "
              f"{f.deliveries} deliveries ({f.missing} missing)")
        print(f"  commit -> client  median {f.median_ms:.1f} ms  p95 {f.p95_ms:.1f} ms  "
              f"max {f.max_ms:.1f} ms   (target p95 <= {TARGET_P95_MS:.0f} ms)")
        print(f"  server peak RSS   {f.rss_mb:.1f} MB   (target <= {TARGET_RSS_MB:.0f} MB)")
        print("  " + ("targets met" if f.ok() else "TARGETS MISSED"))
    return 0 if figures.ok() else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m web.bench")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("CLIENTS", "EVENTS", "INTERVAL"))
    ns = parser.parse_args()
    if ns.child:
        sys.exit(_child(int(ns.child[0]), int(ns.child[1]), float(ns.child[2])))
    sys.exit(main(ns.json))
