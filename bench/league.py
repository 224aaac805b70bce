"""``companion bench league``: many tables pushing while many readers load the standings.

A throwaway PostgreSQL (``bench.pgcluster``, fsync on) or ``LEAGUE_BENCH_DB``; the league
server as its own process (``companion league serve``); 100,000 stored games; then 200
tables push results over HTTP — all 200 at the same instant first, then each every few
seconds — while 500 readers load the standings page. Latencies are measured by the
clients (Tornado's HTTP client on one event loop, in this process). Goals: push p95 ≤
100 ms, standings p95 ≤ 50 ms. The preloaded games get random ratings and a rating
history (one row per seat and scope, as the rater writes them); the pushed ones are rated
by the server as it runs.

Before the load, the **re-rate**: one late game is pushed that belongs ``REWIND_GAMES``
(1,000) games back among the 100,000 (a table that was offline); the rater takes the
history from there on away and rates those games again in one transaction. Measured: from
the push's answer until that pass committed (the late game rated), while readers keep
loading the standings (their p95 and slowest answer during the re-rate; none may fail).
Goal: at most 10 s (``GOALS_S``).
``COMPANION_BENCH_SCALE`` (0.01..1) shrinks everything for a quick run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GOALS_MS = {"push": 100.0, "standings": 50.0}
GOALS_S = {"rerate": 10.0}
GAMES_STORED = 100_000
TABLES = 200
READERS = 500
DURATION_S = 30.0
PLAYERS = 2000
#: how far back among the stored games the late game of the re-rate belongs
REWIND_GAMES = 1000
#: readers loading the standings during the re-rate
RERATE_READERS = 20
KINDS = ("nasty7", "illegal", "casablanca", "crime_lords")


@dataclass
class Scale:
    games: int = GAMES_STORED
    tables: int = TABLES
    readers: int = READERS
    duration: float = DURATION_S
    players: int = PLAYERS
    rewind: int = REWIND_GAMES

    @classmethod
    def of(cls, factor: float) -> Scale:
        f = max(0.01, min(1.0, factor))
        return cls(max(100, int(GAMES_STORED * f)), max(2, int(TABLES * f)),
                   max(2, int(READERS * f)), max(3.0, DURATION_S * f), max(20, int(PLAYERS * f)),
                   max(10, int(REWIND_GAMES * f)))


@dataclass
class Figures:
    push: list[float] = field(default_factory=list)
    burst: list[float] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    #: the time inside the league app (its Server-Timing header), by kind
    app: dict[str, list[float]] = field(default_factory=dict)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def preload(dsn: str, scale: Scale, seed: int = 7) -> list[str]:
    """Tables, players and ``scale.games`` games with results; the tables' tokens."""
    import psycopg

    from league.db import migrate
    from league.store import digest

    rng = random.Random(seed)
    tokens = [f"bench-token-{i}" for i in range(scale.tables)]
    with psycopg.connect(dsn) as conn:
        migrate(conn)
        conn.autocommit = False
        with conn.cursor() as cur:
            with cur.copy("COPY league_tables (id, key, name, token_hash) FROM STDIN") as cp:
                for i, tok in enumerate(tokens, start=1):
                    cp.write_row((i, f"t{i}", f"Table {i}", digest(tok)))
            with cur.copy("COPY players (id, name, key, card) FROM STDIN") as cp:
                for i in range(1, scale.players + 1):
                    cp.write_row((i, f"Player {i}", f"player {i}", f"card{i:06d}"))
            t0 = 1.6e9
            stats: dict[tuple[str, int], list[int]] = {}
            with cur.copy("COPY games (id, table_id, table_key, game_id, seq, game, "
                          "finished_at, rated, counted) FROM STDIN") as cp:
                for g in range(1, scale.games + 1):
                    table = rng.randrange(1, scale.tables + 1)
                    cp.write_row((g, table, f"t{table}", f"pre-{g}", 50, KINDS[g % 4],
                                  t0 + g * 60.0, True, True))
            seats: list[list[int]] = []
            with cur.copy("COPY results (game_ref, seat, player_id, place, score) "
                          "FROM STDIN") as cp:
                for g in range(1, scale.games + 1):
                    who = rng.sample(range(1, scale.players + 1), rng.randint(3, 5))
                    seats.append(who)
                    for seat, pid in enumerate(who):
                        place = seat + 1
                        cp.write_row((g, seat, pid, place, float(rng.randint(0, 100))))
                        for kind in (KINDS[g % 4], "all"):
                            line = stats.setdefault((kind, pid), [0, 0, 0])
                            line[0] += 1
                            line[1] += 1 if place == 1 else 0
                            line[2] += place
            # a rating history as the rater writes it (one row per seat and scope after
            # each game; random figures), so a rewind has the rows to take away and the
            # ratings to go back to; each rating is its player's last history row
            last: dict[tuple[str, int], tuple[float, float]] = {}
            with cur.copy("COPY rating_history (player_id, scope, game_ref, finished_at, "
                          "mu, sigma) FROM STDIN") as cp:
                for g, who in enumerate(seats, start=1):
                    for pid in who:
                        for kind in (KINDS[g % 4], "all"):
                            v = last[(kind, pid)] = (rng.gauss(25, 4), rng.uniform(1.0, 8.3))
                            cp.write_row((pid, kind, g, t0 + g * 60.0, *v))
            with cur.copy("COPY player_stats (game, player_id, played, wins, place_sum) "
                          "FROM STDIN") as cp:
                for (kind, pid), (played, wins, psum) in stats.items():
                    cp.write_row((kind, pid, played, wins, psum))
            with cur.copy("COPY ratings (game, player_id, mu, sigma) FROM STDIN") as cp:
                for kind, pid in stats:
                    cp.write_row((kind, pid, *last[(kind, pid)]))
            for name in ("league_tables", "players", "games"):
                cur.execute(f"SELECT setval('{name}_id_seq', (SELECT max(id) FROM {name}))")
            cur.execute("UPDATE rater SET finished_at = %s, table_key = 't1', game_id = 'z' "
                        "WHERE id = 1", (t0 + (scale.games + 1) * 60.0,))
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
    return tokens


async def _request(client: Any, method: str, url: str, body: bytes | None,
                   headers: dict[str, str], figures: Figures, kind: str) -> float | None:
    from tornado.httpclient import HTTPClientError

    start = time.perf_counter()
    try:
        resp = await client.fetch(url, method=method, body=body, headers=headers,
                                  request_timeout=120, raise_error=True)
        resp.rethrow()
    except (HTTPClientError, OSError) as exc:
        key = f"{kind}: {getattr(exc, 'code', type(exc).__name__)}"
        figures.errors[key] = figures.errors.get(key, 0) + 1
        return None
    timing = resp.headers.get("Server-Timing", "")
    if timing.startswith("app;dur="):
        figures.app.setdefault(kind, []).append(float(timing[8:]))
    return (time.perf_counter() - start) * 1000.0


async def _table(client: Any, base: str, token: str, index: int, scale: Scale,
                 start: asyncio.Event, stop: float, figures: Figures, rng: random.Random) -> None:
    await start.wait()
    k = 0
    while time.monotonic() < stop:
        who = rng.sample(range(1, scale.players + 1), rng.randint(3, 5))
        body = {"version": 1, "game_id": f"bench-{index}-{k}", "game": KINDS[k % 4],
                "finished_at": time.time(), "seq": 40 + k, "lower_wins": False, "unit": "",
                "seats": [{"name": f"Player {p}", "place": i + 1, "score": float(40 - i)}
                          for i, p in enumerate(who)]}
        ms = await _request(client, "POST", base + "/api/v1/results", json.dumps(body).encode(),
                            {"Authorization": f"Bearer {token}",
                             "Content-Type": "application/json"}, figures, "push")
        if ms is not None:
            (figures.burst if k == 0 else figures.push).append(ms)
        k += 1
        await asyncio.sleep(rng.uniform(2.0, 6.0))


async def _reader(client: Any, base: str, start: asyncio.Event, stop: float,
                  figures: Figures, rng: random.Random) -> None:
    await start.wait()
    await asyncio.sleep(rng.uniform(0.0, 5.0))
    while time.monotonic() < stop:
        game = rng.choice(("", "?game=illegal", "?game=nasty7"))
        ms = await _request(client, "GET", base + "/" + game, None, {}, figures, "standings")
        if ms is not None:
            figures.standings.append(ms)
        await asyncio.sleep(rng.uniform(3.0, 7.0))


async def load(base: str, tokens: list[str], scale: Scale, seed: int = 11) -> Figures:
    """Run the tables and readers against ``base`` for ``scale.duration`` seconds."""
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=scale.tables + scale.readers)
    client = AsyncHTTPClient()
    figures = Figures()
    warm = Figures()  # templates compiled, pool connections open: not measured
    for path in ("/", "/?game=illegal", "/?game=nasty7") * 3:
        await _request(client, "GET", base + path, None, {}, warm, "warm-up")
    start = asyncio.Event()
    stop = time.monotonic() + scale.duration
    rng = random.Random(seed)
    tasks = [asyncio.create_task(_table(client, base, tok, i, scale, start, stop, figures,
                                        random.Random(rng.random())))
             for i, tok in enumerate(tokens)]
    tasks += [asyncio.create_task(_reader(client, base, start, stop, figures,
                                          random.Random(rng.random())))
              for _ in range(scale.readers)]
    start.set()
    await asyncio.gather(*tasks)
    client.close()
    return figures


async def rerate(base: str, token: str, dsn: str, scale: Scale) -> dict[str, Any]:
    """Push one late game belonging ``scale.rewind`` games back and time the rater's
    re-rate (until the game is rated), while readers load the standings."""
    import psycopg
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=RERATE_READERS + 2)  # the push never queues
    client = AsyncHTTPClient()
    figures = Figures()
    for path in ("/", "/?game=illegal") * 3:  # warm: not measured
        await _request(client, "GET", base + path, None, {}, Figures(), "warm-up")
    done = asyncio.Event()

    async def reader(k: int) -> None:
        await asyncio.sleep(0.01 * k)
        while not done.is_set():
            ms = await _request(client, "GET", base + "/", None, {}, figures, "standings")
            if ms is not None:
                figures.standings.append(ms)
            await asyncio.sleep(0.1)

    readers = [asyncio.create_task(reader(k)) for k in range(RERATE_READERS)]
    # between two stored games, ``rewind`` from the newest (they are a minute apart)
    at = 1.6e9 + (scale.games - min(scale.rewind, scale.games - 1)) * 60.0 + 30.0
    body = {"version": 1, "game_id": "bench-late", "game": "illegal", "finished_at": at,
            "seq": 9, "lower_wins": False, "unit": "",
            "seats": [{"name": f"Player {p}", "place": i + 1, "score": float(9 - i)}
                      for i, p in enumerate((1, 2, 3))]}
    start = time.perf_counter()
    ms = await _request(client, "POST", base + "/api/v1/results", json.dumps(body).encode(),
                        {"Authorization": f"Bearer {token}",
                         "Content-Type": "application/json"}, figures, "push")
    answered = time.perf_counter()

    def rated() -> bool:
        with psycopg.connect(dsn) as conn:
            row = conn.execute("SELECT rated OR quarantine IS NOT NULL FROM games "
                               "WHERE game_id = 'bench-late'").fetchone()
        return bool(row and row[0])

    while ms is not None and not await asyncio.to_thread(rated):
        await asyncio.sleep(0.05)  # a poll of the database, not a wait the figure is about
    seconds = time.perf_counter() - answered
    done.set()
    await asyncio.gather(*readers)
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT count(*) FROM games WHERE rated AND finished_at >= %s", (at,)).fetchone()
    client.close()
    return {"games": int(row[0]) if row else 0, "seconds": round(seconds, 2),
            "push_to_rated_s": round(time.perf_counter() - start, 2),
            "standings": figures.standings, "errors": figures.errors}


def _serve(dsn: str, folder: Path) -> tuple[subprocess.Popen[str], str]:
    from bench.pgcluster import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "league", "serve", "--db", dsn,
                             "--host", "127.0.0.1", "--port", str(port), "--dir", str(folder),
                             "--threads", "16"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("League:"):
            break
    return proc, f"http://127.0.0.1:{port}"


def run_bench(scale: Scale, dsn: str | None = None) -> dict[str, Any]:
    """Everything: a database, the preload, the server, the load; the figures."""
    import tempfile

    from bench.pgcluster import Cluster

    cluster = None
    if dsn is None:
        cluster = Cluster(fsync=True)
        dsn = cluster.create_database("bench")
    try:
        t = time.perf_counter()
        tokens = preload(dsn, scale)
        preload_s = time.perf_counter() - t
        with tempfile.TemporaryDirectory() as folder:
            proc, base = _serve(dsn, Path(folder))
            try:
                again = asyncio.run(rerate(base, tokens[0], dsn, scale))
                figures = asyncio.run(load(base, tokens, scale))
            finally:
                proc.terminate()
                proc.wait(timeout=60)
                if proc.stdout is not None:
                    proc.stdout.close()
        import psycopg

        with psycopg.connect(dsn) as conn:
            row = conn.execute("SELECT count(*) FROM games").fetchone()
        stored = int(row[0]) if row else 0
    finally:
        if cluster is not None:
            cluster.stop()
    return _summary(scale, figures, preload_s, stored, again)


def _block(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "median_ms": round(_pct(values, 0.5), 2),
            "p95_ms": round(_pct(values, 0.95), 2), "p99_ms": round(_pct(values, 0.99), 2),
            "max_ms": round(max(values), 2) if values else None,
            "mean_ms": round(statistics.fmean(values), 2) if values else None}


def _summary(scale: Scale, f: Figures, preload_s: float, stored: int,
             again: dict[str, Any]) -> dict[str, Any]:
    block = _block
    rerated = {k: v for k, v in again.items() if k != "standings"}
    rerated["standings"] = block(again["standings"])
    return {"scale": scale.__dict__, "preload_s": round(preload_s, 1), "games_stored": stored,
            "push": block(f.push), "push_burst": block(f.burst),
            "standings": block(f.standings), "errors": {**f.errors, **{
                f"re-rate {k}": v for k, v in again["errors"].items()}},
            "rerate": rerated, "goals_s": GOALS_S,
            "in_app": {k: block(v) for k, v in f.app.items() if k != "warm-up"},
            "goals_ms": GOALS_MS, "cpus": os.cpu_count(),
            "load_average_1m_after": round(os.getloadavg()[0], 1)}


def _print(out: dict[str, Any]) -> None:
    s = out["scale"]
    print(f"league bench: {s['games']} games stored, {s['tables']} tables, {s['readers']} "
          f"readers, {s['duration']:.0f} s, {out['cpus']} CPUs (preload {out['preload_s']} s)")
    for key, label, goal in (("push", "push (steady)", GOALS_MS["push"]),
                             ("push_burst", "push (all tables at once)", GOALS_MS["push"]),
                             ("standings", "standings page", GOALS_MS["standings"])):
        b = out[key]
        verdict = "meets" if b["p95_ms"] <= goal else "MISSES"
        print(f"  {label:<27} n={b['n']:<6} median {b['median_ms']:>8.2f} ms  "
              f"p95 {b['p95_ms']:>8.2f} ms  p99 {b['p99_ms']:>8.2f} ms  "
              f"(goal p95 <= {goal:.0f} ms: {verdict})")
    r = out["rerate"]
    verdict = "meets" if r["seconds"] <= GOALS_S["rerate"] else "MISSES"
    print(f"  {'re-rate (a late game)':<27} {r['games']} games rated again in {r['seconds']:.2f} s "
          f"at {s['games']} stored (goal <= {GOALS_S['rerate']:.0f} s: {verdict}); standings "
          f"meanwhile n={r['standings']['n']} p95 {r['standings']['p95_ms']:.2f} ms, "
          f"slowest {r['standings']['max_ms']} ms")
    for kind, b in out["in_app"].items():
        print(f"  inside the app, {kind:<11}   n={b['n']:<6} median {b['median_ms']:>8.2f} ms  "
              f"p95 {b['p95_ms']:>8.2f} ms")
    if out["errors"]:
        print(f"  errors: {out['errors']}")
    print(f"  games in the league after the run: {out['games_stored']}; load average "
          f"{out['load_average_1m_after']} on {out['cpus']} CPUs (other work counts too)")


def main(as_json: bool = False) -> int:
    from bench.pgcluster import unavailable

    dsn = os.environ.get("LEAGUE_BENCH_DB") or None
    if dsn is None and unavailable():
        print(f"league bench: no PostgreSQL ({unavailable()}); or set LEAGUE_BENCH_DB",
              file=sys.stderr)
        return 2
    factor = float(os.environ.get("COMPANION_BENCH_SCALE", "1") or 1)
    out = run_bench(Scale.of(factor), dsn)
    if as_json:
        print(json.dumps(out, indent=2))
    else:
        _print(out)
    return 0


__all__ = ["GOALS_MS", "GOALS_S", "Scale", "load", "main", "preload", "rerate", "run_bench"]
