"""``companion bench store``: commit latency and replay speed of the event store.

Append-and-commit latency is measured on a real SQLite file in the state directory
(WAL, ``synchronous=FULL``: every append is on disk when it returns). Replay speed is
how fast a stored 10,000-event game of The Nasty 7 is read and folded back — what a
restart after a power cut costs — and how fast its record is re-decided.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from companion import games
from companion.games.base import IllegalAction, Setup
from companion.paths import state_dir
from companion.records import Header, record_lines, replay_lines
from companion.session import Batch, Session
from companion.store import NewEvent, SqliteStore

TARGET_EVENTS = 10_000
APPENDS = 400


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure_appends(path: Path, n: int = APPENDS) -> list[float]:
    """Seconds per append of one action's batch (two events), each committed."""
    store = SqliteStore(path)
    info = store.create_game(games.DEFAULT_GAME, ["A", "B", "C"], {}, 0)
    times = []
    for i in range(n):
        batch = [NewEvent(i * 1.0, "ActionTaken", {"do": "play", "card": "racketeer"}),
                 NewEvent(i * 1.0, "CardPlayed", {"seat": i % 3, "card": "racketeer"})]
        start = time.perf_counter()
        store.append(info.game_id, batch)
        times.append(time.perf_counter() - start)
    store.close()
    return times


def build_game(store: SqliteStore, target: int = TARGET_EVENTS) -> tuple[str, Session]:
    """Play a Nasty 7 game (hesitations and accusations included) to ``target`` events."""
    engine = games.first_with("camera_demo")  # the game the camera plays: its record
    setup = Setup(("Ann", "Ben", "Cy", "Dee"), {})
    info = store.create_game(engine.name, setup.seats, {}, 0)
    session = Session.start(engine, setup)
    t, stored, k = 0.0, 0, 0
    while stored < target and engine.outcome(session.state) is None:
        k += 1
        view: dict[str, Any] = engine.state_json(session.state)
        nearly_out = bool(view["stacks"][view["next"]] <= 2)  # keep the game going: hesitate
        t += 3.5 if k % 9 == 0 or nearly_out else 0.8  # every ninth card comes too late
        last = view.get("last_player")
        if nearly_out:
            action: dict[str, Any] = {}
        elif k % 13 == 0 and last is not None:
            accuser = (last + 1) % 4
            action = {"do": "accuse", "by": [accuser], "against": last,
                                      "upheld": k % 2 == 0}
        else:
            action = {"do": "play", "card": "twin_racketeer" if k % 11 == 0 else "racketeer"}
        session, early = session.preview_deadlines(t)
        batches: list[Batch] = []
        if action:
            try:
                session, batches = session.preview(action, t)
            except IllegalAction:
                pass
        for rows in session.rows_for([*early, *batches], stored + 1):
            stored = store.append(info.game_id, rows)[-1].seq
    return info.game_id, session


def _measure(path: Path) -> tuple[list[float], int, float, float]:
    """Append latencies, how many events the long game has, and the seconds its fold
    and its record's re-deciding took (the file is removed afterwards)."""
    try:
        appends = measure_appends(path)
        store = SqliteStore(path)
        game_id, session = build_game(store)
        start = time.perf_counter()
        rows = store.events(game_id)
        rebuilt = Session.rebuild(session.engine, session.setup, rows)
        fold_s = time.perf_counter() - start
        assert rebuilt.state == session.state, "the rebuilt state differs from the live one"
        info = store.game(game_id)
        lines = record_lines(Header(info.game, info.seats, info.options, info.seed),
                             session.record_actions())
        start = time.perf_counter()
        replay_lines(lines)
        decide_s = time.perf_counter() - start
        store.close()
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    return appends, len(rows), fold_s, decide_s


def run(as_json: bool) -> int:
    folder = state_dir() / "bench"
    folder.mkdir(exist_ok=True)
    path = folder / f"store-{int(time.time())}.sqlite3"
    appends, events, fold_s, decide_s = _measure(path)
    p95_ms = _percentile(appends, 0.95) * 1000
    figures: dict[str, Any] = {
        "append_ms_median": round(statistics.median(appends) * 1000, 3),
        "append_ms_p95": round(p95_ms, 3),
        "appends": len(appends),
        "replay_events": events,
        "restart_fold_events_per_s": round(events / fold_s),
        "record_redecide_events_per_s": round(events / decide_s),
        "targets": {"append_ms_p95_max": 5.0, "replay_events_per_s_min": 50_000},
    }
    figures["ok"] = p95_ms <= 5.0 and events / fold_s >= 50_000
    if as_json:
        print(json.dumps(figures))
    else:
        print(f"store benchmark ({path.parent})")
        print(f"  append+commit, one action (2 events), {len(appends)} appends: "
              f"median {figures['append_ms_median']} ms, p95 {figures['append_ms_p95']} ms "
              f"(target p95 <= 5 ms)")
        print(f"  restart: read + fold {events} stored events: "
              f"{figures['restart_fold_events_per_s']:,} events/s (target >= 50,000)")
        print(f"  replay of its record (re-deciding every action): "
              f"{figures['record_redecide_events_per_s']:,} events/s")
    return 0 if figures["ok"] else 1
