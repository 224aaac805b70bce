"""Opening the table's event store when its file may be damaged, and saying so.

A damaged database (a failing SD card, a power cut during a card's own housekeeping)
used to drop the running game silently: only the log said so, the host panel said
"No game running", and the next game was written onto the damaged file.

:func:`open_table_store` checks the file before the table uses it (SQLite's
``quick_check`` and a read of every stored game and event). A damaged file is moved
aside under a dated name and kept, whole, for rescue (``companion export --store FILE``);
new games go to a fresh file, and the :class:`~companion.snapshot.Notice` it returns is
shown on the TV and the host page until a game runs again.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from companion.atomic import sync_folder
from companion.snapshot import Notice
from companion.store import ASIDE_MARK, GameInfo, SqliteStore, StoreError, claim_lock

log = logging.getLogger(__name__)

#: SQLite's words for a damaged file
_DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_DAMAGE_TEXT = ("malformed", "not a database", "corrupt")

PUBLIC_TEXT = ("A game could not be resumed: the table's saved games were damaged. "
               "The host can start a new game.")


def problem(path: Path) -> str | None:
    """What is damaged in the store at ``path`` (SQLite's words), or None if it reads."""
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(str(path), timeout=10)
        try:
            found = [str(r[0]) for r in db.execute("PRAGMA quick_check").fetchall()]
            if found != ["ok"]:
                return "; ".join(found[:3])
            # what a resume reads: every game and every event (quick_check skips the
            # content of overflow pages)
            for table in ("games", "events", "requests"):
                if _has_table(db, table):
                    db.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        name = str(getattr(exc, "sqlite_errorname", "") or "")
        if name.startswith(_DAMAGE) or any(w in str(exc).lower() for w in _DAMAGE_TEXT):
            return str(exc)
        return None  # locked, read-only, ...: not damage; opening the store says what
    return None


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                     (name,)).fetchone()
    return row is not None


def move_aside(path: Path, now: datetime) -> Path:
    """Rename the store (with its ``-wal`` and ``-shm`` files) to a dated name beside it."""
    stamp = now.strftime("%Y-%m-%d-%H%M%S")
    aside = path.with_name(f"{path.stem}{ASIDE_MARK}{stamp}{path.suffix}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.stem}{ASIDE_MARK}{stamp}-{n}{path.suffix}")
    for extra in ("-wal", "-shm"):  # the journal first: the main file is the last to go
        side = path.with_name(path.name + extra)
        if side.exists():
            os.replace(side, aside.with_name(aside.name + extra))
    os.replace(path, aside)
    sync_folder(path.parent)
    return aside


def carry_over(aside: Path, fresh: Path) -> bool:
    """Copy the latest open game, if it still reads whole, from the damaged store ``aside``
    to the new store ``fresh`` (which has the schema). Whether it was carried over."""
    try:
        old = sqlite3.connect(f"{aside.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
        try:
            game = old.execute("SELECT * FROM games WHERE closed = 0 "
                               "ORDER BY created DESC LIMIT 1").fetchone()
            if game is None:
                return False
            events = old.execute("SELECT * FROM events WHERE game_id = ? ORDER BY seq",
                                 (game[0],)).fetchall()
            requests = old.execute("SELECT * FROM requests WHERE game_id = ?",
                                   (game[0],)).fetchall()
        finally:
            old.close()
        if [e[1] for e in events] != list(range(1, len(events) + 1)):
            return False  # a gap: events were lost in the damaged pages
        for text in (game[2], game[3], *(e[4] for e in events)):
            json.loads(text)  # noise inside a row reads, but is no JSON
        new = sqlite3.connect(str(fresh), timeout=10)
        try:
            with new:  # one transaction: all of the game or none of it
                new.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", game)
                new.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", events)
                new.executemany("INSERT INTO requests VALUES (?, ?, ?)", requests)
        finally:
            new.close()
    except (sqlite3.Error, ValueError, TypeError) as exc:
        log.error("the running game could not be carried over from %s: %s", aside, exc)
        return False
    return True


def damaged_notice(aside: Path, carried: bool = False) -> Notice:
    """What the TV and the host are told when the store was moved aside as ``aside``
    (``carried``: its running game was read whole and goes on in the new file)."""
    kept = (f"The damaged file was kept, unchanged, as {aside.name} in the state folder "
            f"({aside.parent}); new games are saved in a fresh file.")
    command = f"companion export --store {aside}"
    if carried:
        return Notice(public=None, title="The file of saved games was damaged", host=(
            f"The running game was read whole and goes on. {kept} To rescue the older "
            "games, run this on the table's computer:"), command=command)
    return Notice(public=PUBLIC_TEXT, host=(
        f"The file of saved games was damaged. {kept} Start a new game to play on. To "
        "rescue the old games, run this on the table's computer:"), command=command)


def not_resumed(info: GameInfo, exc: BaseException) -> Notice:
    """What the TV and the host are told when a stored game could not be folded again."""
    started = datetime.fromtimestamp(info.created).strftime("%d %b %Y, %H:%M")
    reason = str(exc).strip().rstrip(".") or type(exc).__name__
    host = (f"The game started {started} ({', '.join(info.seats)}) could not be resumed: "
            f"{reason}. It stays stored. Start a new game to play on. To list the stored "
            "games and write this one's record, run this on the table's computer:")
    return Notice(public="The last game could not be resumed. The host can start a new "
                         "game.", host=host, command="companion export")


def open_table_store(path: Path, now: datetime | None = None
                     ) -> tuple[SqliteStore, Notice | None]:
    """The table's store at ``path``, claimed for this process, and a notice when the old
    file was damaged and moved aside. ``StoreError`` says why it cannot be opened."""
    fd = claim_lock(path)  # before anything moves: another companion may be using it
    try:
        notice = None
        found = problem(path)
        if found is not None:
            log.error("the event store %s is damaged (%s): moving it aside", path, found)
            try:
                aside = move_aside(path, now or datetime.now())
            except OSError as exc:
                raise StoreError(
                    f"the event store {path} is damaged ({found}) and could not be moved "
                    f"aside ({exc.strerror}): move it away by hand (keep it, your games are "
                    "in it) and start again") from None
            log.error("kept the damaged event store as %s; new games go to a fresh %s",
                      aside, path.name)
            store = SqliteStore(path)
            notice = damaged_notice(aside, carried=carry_over(aside, path))
        else:
            store = SqliteStore(path)
    except BaseException:
        os.close(fd)
        raise
    store.hold_lock(fd)
    return store, notice


__all__ = ["damaged_notice", "move_aside", "not_resumed", "open_table_store", "problem"]
