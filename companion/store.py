"""The event store: append-only events per game, committed before anyone is told.

Two backends behind one interface, ``EventStore``: ``MemoryStore`` (tests, benchmarks)
and ``SqliteStore`` (the table: WAL mode, ``synchronous=FULL``, so an append that
returned survives a power cut). Every game has contiguous ``seq`` numbers from 1;
``append`` writes a whole batch in one transaction or nothing.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

#: schema version written with every event; bump it and add an upcaster when a
#: stored payload changes shape.
EVENT_VERSION = 1


class StoreError(RuntimeError):
    """The store cannot do what was asked; the message says why and what to do."""


def sqlite_failure(exc: BaseException, doing: str, path: Path | None = None) -> StoreError:
    """A ``StoreError`` for an SQLite (or OS) failure while ``doing`` something.

    The message names the cause a person can act on: a full disk, a read-only or missing
    folder, another program holding the file, a damaged file.
    """
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    where = f" ({path})" if path is not None else ""
    if name == "SQLITE_FULL" or "full" in text or getattr(exc, "errno", None) == 28:
        advice = ("the disk is full: free some space (old logs, recordings) and repeat; "
                  "nothing was lost")
    elif name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN")) or \
            "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        advice = ("the state folder is read-only or not ours: check its permissions "
                  "(`companion doctor` checks it) and repeat")
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        advice = ("another program holds the event store: stop it (only one companion may "
                  "run per state folder) and repeat")
    elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text \
            or "not a database" in text:
        advice = damaged_advice(path)
    elif isinstance(exc, OverflowError):
        advice = "a number is too large to store: use a smaller one"
    else:
        advice = "the storage failed; check the SD card (`companion doctor`) and repeat"
    return StoreError(f"could not {doing}{where}: {advice} [{exc}]")


#: the name the table gives a damaged store it moved aside (``damage.move_aside``)
ASIDE_MARK = "-damaged-"


def damaged_advice(path: Path | None) -> str:
    """What to do about a damaged store file: the table moves the live one aside by itself
    when it starts; a copy it already kept aside is to be read, not moved again."""
    if path is not None and ASIDE_MARK in path.name:
        return (f"this is the damaged copy the table kept aside ({path.name}), and this "
                "part of it no longer reads: it stays as it is, for a rescue by someone who "
                "knows SQLite (`sqlite3 FILE .recover`); the games played since are in the "
                "table's fresh file")
    return ("the event store is damaged: start companion again (`./run`): it moves the "
            "damaged file aside by itself, keeps it whole, starts a fresh one and says "
            "how to rescue the games that were in it")


class SeqConflictError(StoreError):
    """An append that did not start where the writer expected: a second writer."""

    def __init__(self, game_id: str, found: int, expected: int) -> None:
        super().__init__(
            f"game {game_id} is at seq {found - 1} in the store, this table expected "
            f"{expected - 1}: another companion is writing to the same state directory; "
            "stop it (only one companion may run per state directory)"
        )


@dataclass(frozen=True)
class GameInfo:
    """A game's header row: what it is, who plays, and whether it was closed."""

    game_id: str
    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any]
    seed: int
    created: float  # wall-clock time (seconds since the epoch), for people
    closed: bool = False


@dataclass(frozen=True)
class NewEvent:
    """An event about to be stored: game time ``t``, type name and JSON payload."""

    t: float
    type: str
    payload: Mapping[str, Any]
    version: int = EVENT_VERSION


@dataclass(frozen=True)
class StoredEvent:
    game_id: str
    seq: int
    t: float
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    version: int = EVENT_VERSION
    batch: int = 0  # seq of the first event appended together with this one


class EventStore(Protocol):
    """What the table loop needs from storage."""

    def create_game(
        self, game: str, seats: Sequence[str], options: Mapping[str, Any], seed: int
    ) -> GameInfo: ...

    def append(
        self, game_id: str, events: Sequence[NewEvent], expect_seq: int | None = None,
        request_id: str | None = None,
    ) -> list[StoredEvent]:
        """Store ``events`` as one batch, committed when this returns.

        With ``expect_seq`` the batch must start at that seq, or nothing is written and
        ``SeqConflictError`` says that someone else wrote to this game. With
        ``request_id`` the id is stored in the same transaction (``request_seq`` finds it),
        so a retried request is known to be done, exactly once.
        """
        ...

    def request_seq(self, request_id: str) -> int | None:
        """The seq of the last event stored for ``request_id``, or None."""
        ...

    def events(self, game_id: str, after_seq: int = 0) -> list[StoredEvent]: ...

    def games(self) -> list[GameInfo]: ...

    def game(self, game_id: str) -> GameInfo: ...

    def close_game(self, game_id: str) -> None: ...

    def close(self) -> None: ...


def new_game_id() -> str:
    """A short, unique, URL-safe game id that sorts by creation time."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]


def latest_open_game(store: EventStore) -> GameInfo | None:
    """The most recent game that was not closed: the one to rebuild after a restart."""
    open_games = [g for g in store.games() if not g.closed]
    return open_games[-1] if open_games else None


class MemoryStore:
    """An ``EventStore`` in memory: same contract, nothing survives the process."""

    def __init__(self) -> None:
        self._games: dict[str, GameInfo] = {}
        self._events: dict[str, list[StoredEvent]] = {}
        self._requests: dict[str, int] = {}
        self._lock = threading.Lock()

    def create_game(
        self, game: str, seats: Sequence[str], options: Mapping[str, Any], seed: int
    ) -> GameInfo:
        info = GameInfo(new_game_id(), game, tuple(seats), dict(options), seed, time.time())
        with self._lock:
            while info.game_id in self._games:
                info = GameInfo(new_game_id(), game, tuple(seats), dict(options), seed, info.created)
            self._games[info.game_id] = info
            self._events[info.game_id] = []
        return info

    def append(
        self, game_id: str, events: Sequence[NewEvent], expect_seq: int | None = None,
        request_id: str | None = None,
    ) -> list[StoredEvent]:
        with self._lock:
            rows = self._rows(game_id)
            first = len(rows) + 1
            if expect_seq is not None and first != expect_seq:
                raise SeqConflictError(game_id, first, expect_seq)
            try:
                stored = [_stored(game_id, first + i, first, e) for i, e in enumerate(events)]
            except ValueError as exc:
                raise StoreError(f"could not store events for game {game_id}: {exc}") from None
            rows.extend(stored)
            if request_id is not None and stored:
                self._requests[request_id] = stored[-1].seq
        return stored

    def request_seq(self, request_id: str) -> int | None:
        with self._lock:
            return self._requests.get(request_id)

    def events(self, game_id: str, after_seq: int = 0) -> list[StoredEvent]:
        with self._lock:
            return list(self._rows(game_id)[after_seq:])

    def games(self) -> list[GameInfo]:
        with self._lock:
            return list(self._games.values())

    def game(self, game_id: str) -> GameInfo:
        with self._lock:
            if game_id not in self._games:
                raise StoreError(_no_game(game_id))
            return self._games[game_id]

    def close_game(self, game_id: str) -> None:
        with self._lock:
            if game_id not in self._games:
                raise StoreError(_no_game(game_id))
            info = self._games[game_id]
            self._games[game_id] = GameInfo(**{**info.__dict__, "closed": True})

    def close(self) -> None:
        pass

    def _rows(self, game_id: str) -> list[StoredEvent]:
        if game_id not in self._events:
            raise StoreError(_no_game(game_id))
        return self._events[game_id]


def _stored(game_id: str, seq: int, batch: int, e: NewEvent) -> StoredEvent:
    # A JSON round trip, so both backends hand back exactly what SQLite would; NaN and
    # infinities are refused (ValueError): they are not JSON and would break every reader.
    payload = json.loads(json.dumps(e.payload, allow_nan=False))
    return StoredEvent(game_id, seq, float(e.t), e.type, payload, e.version, batch)


def _no_game(game_id: str) -> str:
    return f"no game {game_id!r} in the store; `companion export` lists nothing? check the id"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(game_id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    version INTEGER NOT NULL,
    batch INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    request_id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL
) WITHOUT ROWID;
"""


def claim_lock(path: Path) -> int:
    """Claim the store at ``path`` for this process: the open lock file's descriptor.

    ``StoreError`` if another process holds it. The lock goes when the descriptor is
    closed or the process ends, however it ends.
    """
    lock_path = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise sqlite_failure(exc, "lock the event store", lock_path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.read(fd, 32).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreError(
            f"another companion (pid {other}) is already running on {path}; "
            "stop it first (`systemctl stop companion` for the service)"
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    except OSError as exc:
        os.close(fd)
        raise sqlite_failure(exc, "lock the event store", lock_path) from None
    return fd


class SqliteStore:
    """An ``EventStore`` in one SQLite file (WAL, ``synchronous=FULL``).

    Safe to share between threads: one connection behind a lock. ``append`` returns
    only after the transaction is committed to disk.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise sqlite_failure(exc, "create the state folder", path.parent) from None
        try:
            self._db = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=10
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise sqlite_failure(exc, "open the event store", path) from None
        self._lock = threading.Lock()
        self._lock_fd: int | None = None

    def lock(self) -> None:
        """Claim this store for one process (the table); ``StoreError`` if it is taken.

        The lock is released when the process ends, however it ends.
        """
        self.hold_lock(claim_lock(self.path))

    def hold_lock(self, fd: int) -> None:
        """Keep the lock ``claim_lock`` took (closed with the store)."""
        self._lock_fd = fd

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> SqliteStore:
        return cls(state_dir / "events.sqlite3")

    @classmethod
    def reader(cls, path: Path) -> SqliteStore:
        """The store at ``path``, read-only (export, rescue): it opens on a read-only folder
        or SD card, exactly when games need rescuing. Writing to it is a ``StoreError``."""
        if not path.is_file():
            raise StoreError(f"no event store at {path}: no game was stored there; give the "
                             "file of saved games (events.sqlite3 in the state folder)")
        store = cls.__new__(cls)
        store.path, store._lock, store._lock_fd = path, threading.Lock(), None
        failure: sqlite3.Error | None = None
        # read-only needs the -shm file of a WAL store to exist or be creatable; where the
        # folder is read-only too, the file is opened as immutable (nobody can write it)
        for query in ("mode=ro", "mode=ro&immutable=1"):
            db = None
            try:
                db = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True,
                                     isolation_level=None, check_same_thread=False, timeout=10)
                db.execute("SELECT count(*) FROM games").fetchone()
            except sqlite3.Error as exc:
                failure = exc
                if db is not None:
                    db.close()
                continue
            store._db = db
            return store
        assert failure is not None
        raise sqlite_failure(failure, "read the event store", path)

    def create_game(
        self, game: str, seats: Sequence[str], options: Mapping[str, Any], seed: int
    ) -> GameInfo:
        info = GameInfo(new_game_id(), game, tuple(seats), dict(options), seed, time.time())
        try:
            row = (info.game_id, game, json.dumps(list(seats)),
                   json.dumps(dict(options), allow_nan=False), seed, info.created)
        except ValueError as exc:
            raise StoreError(f"could not create the game: {exc}") from None
        self._write("create the game", "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 0)", row)
        return info

    def _write(self, doing: str, sql: str, params: tuple[Any, ...]) -> None:
        """One statement in its own transaction; any failure is a ``StoreError``."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(sql, params)
                self._db.execute("COMMIT")
            except (sqlite3.Error, OverflowError) as exc:
                self._rollback()
                raise sqlite_failure(exc, doing, self.path) from None

    def _rollback(self) -> None:
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the connection rolls back by itself when it cannot

    def _read(self, doing: str, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise sqlite_failure(exc, doing, self.path) from None

    def append(
        self, game_id: str, events: Sequence[NewEvent], expect_seq: int | None = None,
        request_id: str | None = None,
    ) -> list[StoredEvent]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                row = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
                ).fetchone()
                first = int(row[0]) + 1
                if expect_seq is not None and first != expect_seq:
                    self._db.execute("ROLLBACK")
                    raise SeqConflictError(game_id, first, expect_seq)
                stored = [_stored(game_id, first + i, first, e) for i, e in enumerate(events)]
                self._db.executemany(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(s.game_id, s.seq, s.t, s.type, json.dumps(s.payload), s.version, s.batch)
                     for s in stored],
                )
                if request_id is not None and stored:
                    self._db.execute("INSERT INTO requests VALUES (?, ?, ?)",
                                     (request_id, game_id, stored[-1].seq))
                self._db.execute("COMMIT")
            except SeqConflictError:
                raise
            except ValueError as exc:  # NaN or infinity: not JSON
                self._rollback()
                raise StoreError(f"could not store events for game {game_id}: {exc}") from None
            except (sqlite3.Error, OverflowError) as exc:
                self._rollback()
                raise sqlite_failure(exc, f"store events for game {game_id}", self.path) from exc
        return stored

    def request_seq(self, request_id: str) -> int | None:
        rows = self._read("look up a request", "SELECT seq FROM requests WHERE request_id = ?",
                          (request_id,))
        return int(rows[0][0]) if rows else None

    def events(self, game_id: str, after_seq: int = 0) -> list[StoredEvent]:
        rows = self._read(
            f"read the events of game {game_id}",
            "SELECT seq, t, type, payload, version, batch FROM events "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        if not rows:
            self.game(game_id)  # an unknown game is an error, not an empty list
        return [
            StoredEvent(game_id, seq, t, typ, json.loads(payload), version, batch)
            for seq, t, typ, payload, version, batch in rows
        ]

    def games(self) -> list[GameInfo]:
        rows = self._read(
            "list the games",
            "SELECT game_id, game, seats, options, seed, created, closed FROM games "
            "ORDER BY created, rowid",
        )
        return [_info(r) for r in rows]

    def game(self, game_id: str) -> GameInfo:
        rows = self._read(
            f"read game {game_id}",
            "SELECT game_id, game, seats, options, seed, created, closed FROM games "
            "WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            raise StoreError(_no_game(game_id))
        return _info(rows[0])

    def close_game(self, game_id: str) -> None:
        self._write(f"close game {game_id}", "UPDATE games SET closed = 1 WHERE game_id = ?",
                    (game_id,))

    def integrity(self) -> str:
        """SQLite's own integrity check: ``"ok"`` or the problems it found."""
        rows = self._read("check the event store", "PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)

    def close(self) -> None:
        with self._lock:
            self._db.close()
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)


def _info(row: tuple[Any, ...]) -> GameInfo:
    game_id, game, seats, options, seed, created, closed = row
    return GameInfo(
        game_id, game, tuple(json.loads(seats)), json.loads(options), int(seed), float(created),
        bool(closed),
    )
