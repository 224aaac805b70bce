"""``companion bench web``: 500 live phones and one hostile guest, against the real server.

A child process runs the real stack (table loop, SQLite store, Flask app, ``web.server``)
on a loopback port, with the camera pipeline on as ``serve --demo`` runs it (the
synthetic camera through the real decoder, the dispute-clip buffer; OpenCV and numpy
loaded), and the same process settings as ``serve`` (``companion.lean``). Its memory
(RSS) is measured idle, before any phone connects, and at its peak with every phone and
the hostile guest: the goal is at most 150 MB for both. This process holds ``clients`` ``/api/stream`` connections (each from
its own loopback address, as each phone has its own) on one selector thread and notes
when each snapshot's id arrives; the child notes when each snapshot is published (after
its commit). Both use ``time.monotonic`` (CLOCK_MONOTONIC, one clock for every process).

Meanwhile a hostile client on one address tries to hold ``HOSTILE`` connections: half
open live streams it never reads, half send their request head one line a second. The
host (``/api/whoami`` with its cookie; ``/host`` once a second) and every seat
(``/api/seat/<n>``) ask the server all along; their answer times are measured too. Targets: commit → clients p95 ≤ 100 ms, host and seats
p95 ≤ 200 ms, server peak RSS ≤ 150 MB, nothing lost.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, ClassVar

from bench.web_clients import Hostile, Probe, connect, listen

# Its own benchmark game, never served (the engine contract, not a game's internals).
from companion.games.actions import ActionSet, GameAction, Sender, Spec
from companion.games.engine import Engine
from companion.games.moves import Waiting

CLIENTS = 500
EVENTS = 100
INTERVAL_S = 0.1
HOSTILE = 300
SEATS = 6
TARGET_P95_MS = 100.0
TARGET_ANSWER_P95_MS = 200.0
TARGET_RSS_MB = 150.0


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


@dataclass(frozen=True, kw_only=True)
class Count(GameAction):
    """The host counts ``n`` for the seat to play."""

    do: ClassVar[str] = "count"
    label: ClassVar[str] = "Count"
    by: ClassVar[Sender] = "host"
    n: Annotated[int, Spec("the number", 1, 9)] = 1


def _decide(state: _State, action: Count, now: float) -> list[Counted]:
    return [Counted(state.turn, action.n)]


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
    public_view=_public_view, secrets=lambda state, seat: {"you": seat},
    waiting=lambda state: Waiting((state.turn,), "turn", f"Player {state.turn + 1} to play"),
    state_json=lambda state: {"total": state.total}, signals=_no_signals,
    action_for_input=_none, actions=ActionSet("Web benchmark", Count),
)


# --- the server side (child process) ---------------------------------------------------


def _rss_mb() -> float:
    """This process's resident memory now (``VmRSS``), in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _start_camera(table: Any, folder: Path, parts: list[Any]) -> None:
    """The camera pipeline as ``serve --demo`` starts it: the synthetic camera playing a
    deck's real codes through the real decoder, tracker and clip buffer. Its tags go
    nowhere (the benchmark's game has no cards): only its cost is measured."""
    from companion import games
    from companion.commands.serve import _demo_source, start_clips
    from companion.config import Config
    from companion.decks import resolve_tag
    from vision.decoding import default_decoder
    from vision.pipeline import VisionPipeline

    config = Config()
    game = next(name for name, e in sorted(games.available().items()) if e.has("camera_demo"))
    recorder = start_clips(table, folder, parts)
    pipeline = VisionPipeline(_demo_source(config, game),
                              default_decoder(config.decoder.backend), config.tracking,
                              config.zones, on_event=lambda event: None, resolve=resolve_tag,
                              clock=table.clock, on_frame=recorder.on_frame)
    pipeline.start()
    parts.append(pipeline)


def _serve_child(tmp: Path, camera: bool) -> tuple[Any, Any, Any, dict[int, float], list[Any]]:
    """Table, app and server on a free port (and the camera): (table, app, server,
    publication times by seq, parts to stop)."""
    from companion import games
    from companion.config import WebConfig
    from companion.inputs import Command
    from companion.store import SqliteStore
    from companion.table import Table
    from web import create_app
    from web.server import make_server

    games.register(BENCH_ENGINE)
    store = SqliteStore(tmp / "events.sqlite3")
    table = Table(store)
    published: dict[int, float] = {}
    table.subscribe(lambda snap, _sig: published.__setitem__(snap.seq, time.monotonic()))
    table.start()
    table.submit(Command("start", {"game": "bench_web", "players": SEATS})).result(60)
    parts: list[Any] = [store]
    if camera:
        _start_camera(table, tmp, parts)
    app = create_app(table, web_config=WebConfig(), state_dir=tmp)
    server = make_server(app, "127.0.0.1", 0, 16)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True).start()
    return table, app, server, published, parts


def _hello(table: Any, app: Any, server: Any) -> dict[str, Any]:
    from web.auth import HOST_COOKIE, SEAT_COOKIE
    from web.context import state_of

    st = state_of(app)
    assert st is not None
    game_id = table.hub.latest().game_id or ""
    cookies = {"host": f"{HOST_COOKIE}={st.guard.host_cookie()}",
               "seats": [f"{SEAT_COOKIE.format(n)}={st.guard.seat_cookie(game_id, n)}"
                         for n in range(SEATS)]}
    return {"port": server.bind_addr[1], "cookies": cookies}


def _sample_hostile(server: Any) -> tuple[list[int], threading.Event]:
    """The most connections the hostile guest holds, seen by the server, until set."""
    held = [0]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.05):
            held[0] = max(held[0], server.connections_of(Hostile.ADDRESS))

    threading.Thread(target=sample, daemon=True).start()
    return held, sampling


def _child(clients: int, events: int, interval: float, camera: bool = True) -> int:
    import os

    from companion.inputs import Command
    from companion.lean import lean_process
    from web.context import state_of
    from web.server import stop

    lean_process()  # as serve does
    with tempfile.TemporaryDirectory() as name:
        os.environ["TABLE_COMPANION_STATE"] = name  # the demo deck is made here, not at home
        table, app, server, published, parts = _serve_child(Path(name), camera)
        st = state_of(app)
        assert st is not None
        time.sleep(5.0 if camera else 0.5)  # the camera at work before "idle" is read
        idle_mb = _rss_mb()
        print(json.dumps(_hello(table, app, server)), flush=True)
        sys.stdin.readline()  # the parent says when its phones and hostile guest are at work
        held, sampling = _sample_hostile(server)
        first = table.hub.latest().seq + 1
        for _ in range(events):
            table.submit(Command("action", {"action": {"do": "count", "n": 1}})).result(60)
            time.sleep(interval)
        sampling.set()
        measured = {seq: t for seq, t in published.items() if seq >= first}
        rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({"commits": measured, "streams": st.streams, "rss_kb": rss_kb,
                          "idle_mb": round(idle_mb, 1), "busy_mb": round(_rss_mb(), 1),
                          "hostile_held": held[0]}), flush=True)
        sys.stdin.read()  # the parent closes our stdin when its clients are done
        stop(app, server)
        for part in reversed(parts):
            part.stop() if hasattr(part, "stop") else part.close()
        table.stop()
    return 0


@dataclass(frozen=True)
class Figures:
    """``missing``: phones that never got the last snapshot (lost); ``skipped``: snapshots
    a phone did not get because a newer one replaced it first (latest wins, by design)."""

    clients: int
    events: int
    deliveries: int
    missing: int
    median_ms: float
    p95_ms: float
    max_ms: float
    rss_mb: float
    host_p95_ms: float = 0.0
    seats_p95_ms: float = 0.0
    host_page_first_ms: float = 0.0
    host_page_p95_ms: float = 0.0
    answers: int = 0
    answers_failed: int = 0
    hostile_tried: int = 0
    hostile_held_max: int = 0
    skipped: int = 0
    #: the server's RSS before any phone connected (with the camera when ``camera``)
    idle_mb: float = 0.0
    #: its RSS at the end, every phone and the guest still connected
    busy_mb: float = 0.0
    camera: bool = True

    def ok(self) -> bool:
        return (self.missing == 0 and self.p95_ms <= TARGET_P95_MS
                and self.rss_mb <= TARGET_RSS_MB and self.idle_mb <= TARGET_RSS_MB
                and self.answers_failed == 0
                and self.host_p95_ms <= TARGET_ANSWER_P95_MS
                and self.seats_p95_ms <= TARGET_ANSWER_P95_MS)


def _p95(values: Sequence[float]) -> float:
    if len(values) < 20:
        return round(max(values, default=0.0), 2)
    return round(statistics.quantiles(values, n=20)[18], 2)


def _figures(commits: Mapping[int, float], arrivals: list[dict[int, float]],
             rss_kb: int) -> Figures:
    lat = [(a[seq] - t) * 1000 for a in arrivals for seq, t in commits.items() if seq in a]
    last = max(commits, default=None)
    missing = sum(1 for a in arrivals if last is not None and last not in a)
    skipped = len(commits) * len(arrivals) - len(lat)
    return Figures(len(arrivals), len(commits), len(lat), missing,
                   round(statistics.median(lat), 2) if lat else 0.0, _p95(lat),
                   round(max(lat, default=0.0), 2), round(rss_kb / 1024, 1), skipped=skipped)


def _wait(condition: Any, safety: float = 300.0) -> None:
    """Poll ``condition()`` until it holds (``safety``: only against a hung run)."""
    limit = time.monotonic() + safety
    while not condition() and time.monotonic() < limit:
        time.sleep(0.05)


def run(clients: int = CLIENTS, events: int = EVENTS, interval: float = INTERVAL_S,
        hostile: int = HOSTILE, camera: bool = True) -> Figures:
    """Run the benchmark; raises ``RuntimeError`` when the server does not start."""
    cmd = [sys.executable, "-m", "bench.web", "--child", str(clients), str(events),
           str(interval)] + ([] if camera else ["--no-camera"])
    root = Path(__file__).resolve().parent.parent
    with subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          cwd=root) as child:
        assert child.stdin is not None and child.stdout is not None
        try:
            line = child.stdout.readline()
            if not line:
                raise RuntimeError("the benchmark server did not start")
            report, arrivals, probe = _drive(child, json.loads(line), clients, hostile)
        finally:
            child.stdin.close()
            child.wait(60)
    commits = {int(k): float(v) for k, v in report["commits"].items()}
    base = _figures(commits, arrivals, int(report["rss_kb"]))
    return replace(base, host_p95_ms=_p95(probe.times["host"]),
                   seats_p95_ms=_p95(probe.times["seats"]),
                   host_page_first_ms=probe.times["page"][0] if probe.times["page"] else 0.0,
                   host_page_p95_ms=_p95(probe.times["page"][1:]),
                   answers=sum(len(v) for v in probe.times.values()),
                   answers_failed=probe.failed, hostile_tried=hostile,
                   hostile_held_max=int(report.get("hostile_held", 0)),
                   idle_mb=float(report.get("idle_mb", 0.0)),
                   busy_mb=float(report.get("busy_mb", 0.0)), camera=camera)


def _drive(child: Any, hello: Mapping[str, Any], clients: int,
           hostile: int) -> tuple[dict[str, Any], list[dict[int, float]], Probe]:
    """Phones, the hostile guest and the probe against the child's server; its report."""
    port = int(hello["port"])
    socks = connect(port, clients)
    stop = threading.Event()
    arrivals: list[dict[int, float]] = [{} for _ in socks]
    listener = threading.Thread(target=listen, args=(socks, stop, arrivals))
    listener.start()
    _wait(lambda: all(arrivals))  # every phone has its first snapshot
    guest = Hostile(port, hostile)
    probe = Probe(port, hello["cookies"])
    if hostile:
        guest.thread.start()
        _wait(guest.round_done.is_set)  # the guest is holding what it can
    probe.thread.start()
    child.stdin.write("go\n")
    child.stdin.flush()
    report: dict[str, Any] = json.loads(child.stdout.readline())
    last = max((int(k) for k in report["commits"]), default=None)
    _wait(lambda: last is None or all(last in a for a in arrivals))
    for part in (probe, guest):
        part.stop.set()
        if part.thread.is_alive():
            part.thread.join(60)
    stop.set()
    listener.join()
    for s in socks:
        s.close()
    return report, arrivals, probe


def main(as_json: bool, clients: int = CLIENTS, hostile: int = HOSTILE,
         events: int = EVENTS) -> int:
    """``companion bench web [--json]``: prints the figures; 0 when the targets are met."""
    figures = run(clients, events, hostile=hostile)
    if as_json:
        data = dict(figures.__dict__, target_p95_ms=TARGET_P95_MS,
                    target_answer_p95_ms=TARGET_ANSWER_P95_MS,
                    target_rss_mb=TARGET_RSS_MB, ok=figures.ok())
        print(json.dumps(data, indent=2))
    else:
        f = figures
        print(f"web: {f.clients} SSE clients on loopback, {f.events} snapshots, "
              f"{f.deliveries} deliveries ({f.skipped} replaced by a newer one first; "
              f"{f.missing} phones without the last one)")
        print(f"  commit -> client  median {f.median_ms:.1f} ms  p95 {f.p95_ms:.1f} ms  "
              f"max {f.max_ms:.1f} ms   (target p95 <= {TARGET_P95_MS:.0f} ms)")
        print(f"  hostile guest     tried {f.hostile_tried} connections, the server let it "
              f"hold at most {f.hostile_held_max}")
        print(f"  host answered     p95 {f.host_p95_ms:.1f} ms; seats p95 "
              f"{f.seats_p95_ms:.1f} ms; {f.answers} answers, {f.answers_failed} failed   "
              f"(target p95 <= {TARGET_ANSWER_P95_MS:.0f} ms)")
        print(f"  host page /host   first load {f.host_page_first_ms:.1f} ms (it draws the "
              f"join codes), then p95 {f.host_page_p95_ms:.1f} ms; not a target")
        cam = "camera pipeline on" if f.camera else "no camera"
        print(f"  server RSS        idle {f.idle_mb:.1f} MB; with every phone and the guest "
              f"{f.busy_mb:.1f} MB, peak {f.rss_mb:.1f} MB ({cam}; target <= "
              f"{TARGET_RSS_MB:.0f} MB)")
        print("  " + ("targets met" if f.ok() else "TARGETS MISSED"))
    return 0 if figures.ok() else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.web")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--hostile", type=int, default=HOSTILE)
    parser.add_argument("--events", type=int, default=EVENTS)
    parser.add_argument("--child", nargs=3, metavar=("CLIENTS", "EVENTS", "INTERVAL"))
    parser.add_argument("--no-camera", action="store_true")
    ns = parser.parse_args()
    if ns.child:
        sys.exit(_child(int(ns.child[0]), int(ns.child[1]), float(ns.child[2]),
                        camera=not ns.no_camera))
    sys.exit(main(ns.json, ns.clients, ns.hostile, ns.events))
