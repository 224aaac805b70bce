"""The table's outbox: finished games waiting to reach the league, in the table's SQLite.

``collect`` writes the result of every finished game (``companion.results``, public
parts only) into ``outbox.sqlite3`` beside the event store, once per (game, seq);
``push_due`` sends each pending one with the table's token (and ``sent_at``, the table's
clock as it sends, so the league can correct a table whose clock is off) and marks it
pushed only when the league answered "stored" (or "already stored"). A refusal (any
``4xx`` but 401, 408 and 429: the league will never take this result) is final: the row
is kept as "refused" with the league's sentence for the host, and not sent again. A power cut in the middle of a
push leaves the row pending: the next push of the same (table, game, seq) is answered
"already stored", so nothing is lost and nothing counted twice. Failures are retried
with backoff (5 s doubling to an hour), for days if the league is away. The clock and
the HTTP sender are passed in, so tests decide time and answers.

The same results feed the table's own statistics (``web/stats.py``) with no league.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.players import card_code
from companion.results import GameResult, SeatResult, result_of_store
from companion.stats import key_of
from companion.store import EventStore, StoreError

log = logging.getLogger(__name__)

#: (url, token, JSON body) -> (HTTP status, the league's reason); OSError when unreachable
Sender = Callable[[str, str, dict[str, Any]], tuple[int, str]]
#: the league's players, (name, card code) each; OSError when unreachable
Fetch = Callable[["Link"], list[tuple[str, str]]]
BACKOFF_FIRST_S = 5.0
BACKOFF_MAX_S = 3600.0
TIMEOUT_S = 15.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS link (
    id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL, table_key TEXT NOT NULL,
    token TEXT NOT NULL, name TEXT NOT NULL, joined_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
    game_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, body TEXT, finished_at REAL,
    status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '',
    final INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS league_players (
    card TEXT PRIMARY KEY, name TEXT NOT NULL, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS picks (
    game_id TEXT NOT NULL, seat INTEGER NOT NULL, card TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
"""
#: the league's players are fetched again after this long (seconds)
PLAYERS_TTL_S = 600.0


class LeagueError(RuntimeError):
    """The league refused or could not be reached; the message says what to do."""


@dataclass(frozen=True)
class Link:
    url: str
    table_key: str
    token: str
    name: str


@dataclass(frozen=True)
class Status:
    """What the host sees: where the table pushes, and how many games wait."""

    link: Link | None
    pending: int
    pushed: int
    refused: int
    last_error: str


@dataclass(frozen=True)
class Waiting:
    """A game that has not reached the league: what it was, and why not yet."""

    game_id: str
    game: str
    finished_at: float
    names: tuple[str, ...]
    refused: bool  # the league said no: kept, never sent again
    attempts: int
    next_try: float
    last_error: str


def refused(code: int) -> bool:
    """Whether an HTTP answer means the league will never take this result: a ``4xx``
    but 401 (join again), 408 (too slow) and 429 (too many at once)."""
    return 400 <= code < 500 and code not in (401, 408, 429)


def backoff(attempts: int, first: float = BACKOFF_FIRST_S) -> float:
    """Seconds to wait after ``attempts`` failed pushes (5, 10, 20 ... an hour)."""
    return min(BACKOFF_MAX_S, first * 2.0 ** max(0, attempts - 1))


def outbox_path(state_dir: Path, store: EventStore) -> Path:
    """The outbox file beside the store's file (``outbox.sqlite3``)."""
    path = getattr(store, "path", None)
    if isinstance(path, Path):
        return path.with_name(path.stem.replace("events", "outbox") + ".sqlite3")
    return state_dir / "outbox.sqlite3"


class Outbox:
    """The outbox file; safe to share between threads (one connection, one lock)."""

    def __init__(self, path: Path, first_backoff: float = BACKOFF_FIRST_S,
                 wall: Callable[[], float] = time.time) -> None:
        self.path = path
        self.first_backoff = first_backoff
        #: the table's date and time, sent with each push (``sent_at``)
        self.wall = wall
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                   timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}  # game -> the last seq read (this process)
        self._seen_as: dict[str, tuple[bool, bool]] = {}  # game -> (closed, live) then

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the league link ---------------------------------------------------------------

    def link(self) -> Link | None:
        with self._lock:
            row = self._db.execute("SELECT url, table_key, token, name FROM link").fetchone()
        return None if row is None else Link(*row)

    def set_link(self, link: Link, now: float) -> None:
        """Join a league: every stored result waits to be pushed there (from the start)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT OR REPLACE INTO link VALUES (1, ?, ?, ?, ?, ?)",
                             (link.url, link.table_key, link.token, link.name, now))
            self._db.execute("UPDATE outbox SET status = 'pending', attempts = 0, "
                             "next_try = 0, last_error = '' WHERE status <> 'none'")
            self._db.execute("COMMIT")

    def unlink(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM link")

    def live(self) -> bool:
        """Whether the host lets the league see the game being played (off by default)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = 'live'").fetchone()
        return row is not None and row[0] == "1"

    def set_live(self, on: bool) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES ('live', ?)",
                             ("1" if on else "0",))

    # --- the league's players (cached: the table picks them up offline too) ------------

    def set_players(self, players: list[tuple[str, str]], now: float) -> None:
        """Keep the league's players, (name, card code) each, as fetched at ``now``."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM league_players")
            self._db.executemany("INSERT OR REPLACE INTO league_players VALUES (?, ?, ?)",
                                 [(c, n, key_of(n)) for n, c in players])
            self._db.execute("INSERT OR REPLACE INTO settings VALUES ('players_at', ?)",
                             (repr(now),))
            self._db.execute("COMMIT")

    def league_players(self) -> list[tuple[str, str]]:
        """The league's players as last fetched, (name, card code), by name."""
        with self._lock:
            rows = self._db.execute("SELECT name, card FROM league_players "
                                    "ORDER BY key").fetchall()
        return [(str(n), str(c)) for n, c in rows]

    def player_of(self, code: str) -> str | None:
        """The name of the league player whose card (its code, or its QR's text) this is."""
        card = card_code(code) or code
        with self._lock:
            row = self._db.execute("SELECT name FROM league_players WHERE card = ?",
                                   (card,)).fetchone()
        return None if row is None else str(row[0])

    def refresh_players(self, now: float, fetch: Fetch | None = None,
                        force: bool = False) -> bool:
        """Fetch the league's players when the cache is older than ``PLAYERS_TTL_S``
        (or ``force``); whether it was fetched. Unreachable: the cache stays."""
        link = self.link()
        if link is None:
            return False
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = 'players_at'"
                                   ).fetchone()
        if not force and row is not None and now - float(row[0]) < PLAYERS_TTL_S:
            return False
        try:
            players = (fetch or http_players)(link)
        except OSError as exc:
            log.info("the league's players cannot be fetched now: %s", exc)
            return False
        self.set_players(players, now)
        return True

    def pick(self, game_id: str, seat: int, code: str) -> str:
        """Seat ``seat`` of ``game_id`` is this league player (a card code, or its QR's
        text); their name. ``ValueError`` when the table does not know the card."""
        card = card_code(code) or code
        name = self.player_of(card)
        if name is None:
            raise ValueError("This player card is not in the league's list this table has: "
                             "push now on the host's league page to fetch the list again.")
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO picks VALUES (?, ?, ?)",
                             (game_id, seat, card))
        return name

    def picked(self, game_id: str) -> dict[int, tuple[str, str]]:
        """The league players picked for the seats of ``game_id``: seat -> (name, card)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT p.seat, l.name, l.card FROM picks p JOIN league_players l "
                "ON l.card = p.card WHERE p.game_id = ?", (game_id,)).fetchall()
        return {int(s): (str(n), str(c)) for s, n, c in rows}

    def _with_cards(self, result: GameResult) -> GameResult:
        """``result`` with each seat's league player: picked by card for that seat, or a
        name that is a league player's (chosen from the list)."""
        picked = self.picked(result.game_id)
        with self._lock:
            by_key = {str(k): (str(n), str(c)) for k, n, c in self._db.execute(
                "SELECT key, name, card FROM league_players")}
        seats = []
        for i, s in enumerate(result.seats):
            found = picked.get(i) or by_key.get(key_of(s.name))
            seats.append(s if found is None else SeatResult(found[0], s.place, s.score,
                                                            found[1]))
        names = [key_of(s.name) for s in seats]
        if len(set(names)) < len(names):  # a pick made two seats one person: names stay
            return result
        return dataclasses.replace(result, seats=tuple(seats))

    # --- results ----------------------------------------------------------------------

    def collect(self, store: EventStore) -> int:
        """Write the result of each finished game not written yet; how many were new."""
        with self._lock:
            known = dict(self._db.execute("SELECT game_id, seq FROM outbox").fetchall())
            finals = {g for (g,) in self._db.execute("SELECT game_id FROM outbox WHERE final")}
        new = 0
        live = self.live() and self.link() is not None
        for info in store.games():
            if info.closed and info.game_id in finals:
                continue
            try:
                if self._unchanged(store, info.game_id, info.closed, live):
                    continue
                result = result_of_store(store, info.game_id, live=live and not info.closed)
            except (StoreError, LookupError, ValueError) as exc:
                log.error("cannot read game %s for the league: %s", info.game_id, exc)
                continue
            if result is None:
                if info.closed and info.game_id not in finals:
                    self._put(info.game_id, 0, None, "none")
                continue
            if known.get(info.game_id) != result.seq:
                self._put(info.game_id, result.seq, self._with_cards(result), "pending")
                new += 1
        return new

    def _unchanged(self, store: EventStore, game_id: str, closed: bool, live: bool) -> bool:
        """Whether a game was read before with nothing new since (the running game is not
        folded again every round: on a Pi that costs the table loop CPU)."""
        rows = store.events(game_id, after_seq=self._seen.get(game_id, 0))
        key = (closed, live)
        if not rows and self._seen_as.get(game_id) == key:
            return True
        if rows:
            self._seen[game_id] = rows[-1].seq
        self._seen_as[game_id] = key
        return False

    def _put(self, game_id: str, seq: int, result: GameResult | None, status: str) -> None:
        body = None if result is None else json.dumps(result.to_json())
        at = None if result is None else result.finished_at
        final = result is None or result.final
        with self._lock:
            self._db.execute(
                "INSERT INTO outbox (game_id, seq, body, finished_at, status, final) VALUES "
                "(?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, "
                "body = excluded.body, finished_at = excluded.finished_at, "
                "status = excluded.status, attempts = 0, next_try = 0, last_error = '', "
                "final = excluded.final", (game_id, seq, body, at, status, int(final)))

    def results(self) -> list[GameResult]:
        """Every finished game's result, oldest first (the table's own statistics)."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM outbox WHERE body IS NOT NULL AND final "
                                    "ORDER BY finished_at, game_id").fetchall()
        return [GameResult.from_json(json.loads(r[0])) for r in rows]

    def status(self) -> Status:
        with self._lock:
            counts = dict(self._db.execute(
                "SELECT status, count(*) FROM outbox WHERE final GROUP BY status").fetchall())
            err = self._db.execute("SELECT last_error FROM outbox WHERE last_error <> '' "
                                   "ORDER BY next_try DESC LIMIT 1").fetchone()
        return Status(self.link(), counts.get("pending", 0), counts.get("pushed", 0),
                      counts.get("refused", 0), err[0] if err else "")

    # --- pushing ----------------------------------------------------------------------

    def waiting(self) -> list[Waiting]:
        """Each game not pushed yet, and each the league refused, oldest first: what the
        host page lists (with the last error in words and when it tries again)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, body, status, attempts, next_try, last_error FROM outbox "
                "WHERE final AND status IN ('pending', 'refused') "
                "ORDER BY finished_at, game_id").fetchall()
        out = []
        for game_id, body, status, attempts, next_try, error in rows:
            data = json.loads(body) if body else {}
            out.append(Waiting(str(game_id), str(data.get("game", "")),
                               float(data.get("finished_at") or 0.0),
                               tuple(str(s.get("name", "")) for s in data.get("seats", [])),
                               status == "refused", int(attempts), float(next_try), str(error)))
        return out

    def push_due(self, now: float, send: Sender, force: bool = False) -> int:
        """Push every pending result whose time has come (every pending one with
        ``force``: "Push now"); how many the league stored."""
        link = self.link()
        if link is None:
            return 0
        with self._lock:
            due = self._db.execute(
                "SELECT game_id, seq, body, attempts FROM outbox WHERE status = 'pending' "
                "AND (next_try <= ? OR ?) ORDER BY finished_at, game_id",
                (now, int(force))).fetchall()
        stored = 0
        for game_id, seq, body, attempts in due:
            try:
                code, reason = send(link.url.rstrip("/") + "/api/v1/results", link.token,
                                    json.loads(body) | {"sent_at": round(self.wall(), 3)})
            except OSError as exc:
                code, reason = 0, f"the league cannot be reached ({exc})"
            if code in (200, 201):
                self._mark(game_id, seq, "pushed", attempts, 0.0, "")
                stored += 1
            elif refused(code):  # this result will never be taken: keep it, say why
                self._mark(game_id, seq, "refused", attempts + 1, 0.0,
                           reason or f"The league refused this game (HTTP {code}).")
            else:
                self._mark(game_id, seq, "pending", attempts + 1,
                           now + backoff(attempts + 1, self.first_backoff),
                           reason or f"HTTP {code}")
                if code in (0, 401, 429, 503):  # the league is away or forgot us: the rest wait
                    self._postpone(now, now + backoff(attempts + 1, self.first_backoff))
                    break
        return stored

    def _postpone(self, now: float, until: float) -> None:
        with self._lock:
            self._db.execute("UPDATE outbox SET next_try = ? WHERE status = 'pending' "
                             "AND next_try <= ?", (until, now))

    def _mark(self, game_id: str, seq: int, status: str, attempts: int, next_try: float,
              error: str) -> None:
        with self._lock:  # only the seq that was sent: a newer result stays pending
            self._db.execute("UPDATE outbox SET status = ?, attempts = ?, next_try = ?, "
                             "last_error = ? WHERE game_id = ? AND seq = ?",
                             (status, attempts, next_try, error[:300], game_id, seq))


def http_send(url: str, token: str, body: dict[str, Any]) -> tuple[int, str]:
    """POST ``body`` as JSON with the table's token: (status, the league's reason)."""
    data = json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:  # noqa: S310
            return int(resp.status), ""
    except urllib.error.HTTPError as exc:
        try:
            reason = str(json.loads(exc.read(4096)).get("reason", ""))
        except (ValueError, AttributeError, OSError):
            reason = ""
        return int(exc.code), reason or f"HTTP {exc.code}"


def http_players(link: Link) -> list[tuple[str, str]]:
    """The league's players (``GET /api/v1/players`` with the table's token)."""
    req = urllib.request.Request(link.url.rstrip("/") + "/api/v1/players", headers={
        "Authorization": f"Bearer {link.token}"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:  # noqa: S310
            data = json.loads(resp.read(4 * 1024 * 1024))
    except urllib.error.HTTPError as exc:
        raise OSError(f"the league answered HTTP {exc.code}") from None
    except ValueError:
        raise OSError("the answer was not the league's") from None
    out = []
    for p in data.get("players", []) if isinstance(data, dict) else []:
        if isinstance(p, dict) and isinstance(p.get("name"), str) and \
                isinstance(p.get("card"), str):
            out.append((p["name"][:40], p["card"][:40]))
    return out


def join_league(url: str, code: str, send: Sender = http_send) -> Link:
    """Join the league at ``url`` with a join code; ``LeagueError`` says what went wrong."""
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        url = "http://" + url
    try:
        status, reason, body = _post_json(url + "/api/v1/join", {"code": code.strip()})
    except OSError as exc:
        raise LeagueError(f"The league at {url} cannot be reached ({exc}). Check the "
                          "address and that this table is on the network.") from None
    if status != 201:
        raise LeagueError(reason or f"The league answered HTTP {status}.")
    return Link(url, str(body["table"]), str(body["token"]), str(body.get("name", "")))


def _post_json(url: str, body: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:  # noqa: S310
            return int(resp.status), "", dict(json.loads(resp.read(65536)))
    except urllib.error.HTTPError as exc:
        try:
            reason = str(json.loads(exc.read(4096)).get("reason", ""))
        except (ValueError, AttributeError, OSError):
            reason = ""
        return int(exc.code), reason, {}
    except ValueError:
        raise OSError("the answer was not the league's") from None


class Pusher:
    """A thread that collects finished games and pushes them, every ``period`` seconds."""

    def __init__(self, outbox: Outbox, store: EventStore, period: float = 30.0,
                 clock: Callable[[], float] = time.time, send: Sender = http_send) -> None:
        self.outbox, self.store, self.period = outbox, store, period
        self.clock, self.send = clock, send
        self.wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="league-outbox", daemon=True)

    def start(self) -> Pusher:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.outbox.refresh_players(self.clock())
                self.outbox.collect(self.store)
                self.outbox.push_due(self.clock(), self.send)
            except Exception:  # the outbox must never stop the table
                log.exception("the league outbox failed; trying again")
            self.wake.wait(self.period)
            self.wake.clear()

    def stop(self) -> None:
        self._stop.set()
        self.wake.set()
        self._thread.join(timeout=20)
        self.outbox.close()


__all__ = ["Fetch", "Link", "LeagueError", "Outbox", "PLAYERS_TTL_S", "Pusher", "Sender",
           "Status", "Waiting", "backoff", "http_players", "http_send", "join_league",
           "outbox_path", "refused"]
