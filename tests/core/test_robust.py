"""The loop cannot die: every failure is a refusal, the store fails cleanly, retries are once.

Each test here reproduces a defect of issue 18 (it failed before the fix).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.inputs import HOST, Command
from companion.sdnotify import Watchdog
from companion.store import (
    MemoryStore,
    NewEvent,
    SqliteStore,
    StoredEvent,
    StoreError,
    latest_open_game,
)
from companion.table import UNEXPECTED, Table


def submit(table: Table, name: str, args: dict[str, Any] | None = None,
           request_id: str | None = None) -> Any:
    return table.submit(Command(name, args or {}, source=HOST, request_id=request_id)).result(300)


def start_args(**extra: Any) -> dict[str, Any]:
    return {"game": "tally", "players": ["Ann", "Ben"], **extra}


@pytest.fixture
def running() -> Iterator[Table]:
    table = Table(MemoryStore())
    table.start()
    yield table
    table.stop()


@pytest.mark.parametrize("seed", [1e30, float("inf"), float("nan"), -1, 2**64, "x", True])
def test_a_bad_seed_is_refused_and_the_loop_goes_on(running: Table, seed: Any) -> None:
    assert submit(running, "start", start_args()).accepted
    res = submit(running, "start", start_args(seed=seed))
    assert not res.accepted and "seed" in (res.reason or "")
    assert running.loop_alive()
    assert running.info is not None and not running.info.closed
    assert submit(running, "action", {"action": {"do": "add", "n": 2}}).accepted


class ExplodingStore(MemoryStore):
    """A store that fails in a way nobody foresaw (not a StoreError)."""

    explode = False

    def append(self, game_id: str, events: Sequence[NewEvent], expect_seq: int | None = None,
               request_id: str | None = None) -> list[StoredEvent]:
        if self.explode:
            raise ZeroDivisionError("surprise")
        return super().append(game_id, events, expect_seq, request_id)


def test_an_unforeseen_error_is_a_refusal_and_the_game_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    store = ExplodingStore()
    table = Table(store)
    table.start()
    try:
        assert submit(table, "start", start_args()).accepted
        store.explode = True
        res = submit(table, "action", {"action": {"do": "add", "n": 3}})
        assert not res.accepted and res.reason == UNEXPECTED
        assert "ZeroDivisionError" in caplog.text  # the traceback is in the log
        assert table.loop_alive()
        store.explode = False
        assert submit(table, "action", {"action": {"do": "add", "n": 3}}).accepted
        assert table.hub.latest().public["total"] == 3  # the failed one left nothing
    finally:
        table.stop()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_dead_loop_thread_is_started_again_from_the_store() -> None:
    table = Table(MemoryStore())
    table.start()
    try:
        assert submit(table, "start", start_args()).accepted
        assert submit(table, "action", {"action": {"do": "add", "n": 4}}).accepted
        died = threading.Event()
        real_turn = table._turn

        def fatal() -> bool:
            died.set()
            raise SystemExit  # not an Exception: the loop thread ends
        table._turn = fatal  # type: ignore[method-assign]
        table.submit(Command("action", {"action": {"do": "add", "n": 1}}))
        assert died.wait(300)
        assert table._thread is not None
        table._thread.join(300)
        assert not table.loop_alive()
        table._turn = real_turn  # type: ignore[method-assign]
        res = submit(table, "action", {"action": {"do": "add", "n": 2}})
        assert res.accepted and table.loop_alive() and table.restarts == 1
        assert table.hub.latest().public["total"] == 7  # the queued one was not lost
    finally:
        table.stop()


def test_the_watchdog_starts_a_dead_loop_and_pings_only_a_turning_one() -> None:
    table = Table(MemoryStore())
    table.start()
    try:
        assert table._thread is not None
        table._stopping.set()  # make the loop end as if it had died ...
        table._queue.put((None, __import__("concurrent.futures").futures.Future()))
        table._thread.join(300)
        table._stopping.clear()  # ... without a stop having been asked for
        assert not table.loop_alive()
        dog = Watchdog(table, interval=0.05)
        dog.beat()
        assert table.loop_alive() and table.restarts == 1
    finally:
        table.stop()


# --- the store: every failure a StoreError that says what to do ----------------------------


def _fill(store: SqliteStore) -> None:
    """Make the disk full for SQLite: no new page, and no room left in the pages it has.

    Closed one-letter games fill the free room (a closed game is never resumed); then
    SQLite answers SQLITE_FULL ("database or disk is full") as on a full SD card.
    """
    db = store._db
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    for i in range(100_000):
        try:
            db.execute("INSERT INTO games VALUES (?, 'x', '[]', '{}', 0, 0, 1)", (f"{i}",))
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)
            return
    raise AssertionError("the store never got full")


def _free(store: SqliteStore) -> None:
    store._db.execute("PRAGMA max_page_count=1073741823")


def _big_game(table: Table) -> None:
    """Enough rows that the next game header needs a new page."""
    for _ in range(60):
        assert submit(table, "action", {"action": {"do": "add", "n": 1}}).accepted


def test_a_full_disk_during_start_and_end_keeps_the_table_answering(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "events.sqlite3")
    table = Table(store)
    table.start()
    try:
        assert submit(table, "start", start_args(options={"target": 10**6})).accepted
        _big_game(table)
        first = table.info
        assert first is not None
        _fill(store)
        res = submit(table, "start", start_args(options={"target": 10**6}))
        assert not res.accepted and "disk is full" in (res.reason or "")
        assert table.loop_alive() and table.info == first  # the old game is still open
        assert latest_open_game(store) == first  # a restart now resumes it: nothing lost
        res = submit(table, "end")
        assert table.loop_alive()
        if not res.accepted:  # closing may need no new page; when it does, it is refused
            assert "disk is full" in (res.reason or "")
            assert table.info == first
        _free(store)
        assert submit(table, "start", start_args(options={"target": 10**6})).accepted
        assert table.info is not None and table.info != first
        assert submit(table, "action", {"action": {"do": "add", "n": 5}}).accepted
        assert submit(table, "end").accepted
    finally:
        table.stop()
        store.close()


def test_close_failing_after_the_successor_exists_resumes_the_successor(
        tmp_path: Path) -> None:
    class CloseFails(SqliteStore):
        def close_game(self, game_id: str) -> None:
            raise StoreError("could not close: the disk is full")

    store = CloseFails(tmp_path / "events.sqlite3")
    table = Table(store)
    assert table.process(Command("start", start_args())).accepted
    old = table.info
    assert table.process(Command("start", start_args(seed=7))).accepted
    new = table.info
    assert new is not None and old is not None and new != old
    again = Table(store)  # a restart resumes the successor, never nothing
    assert again.info is not None and again.info.game_id == new.game_id
    store.close()


def test_store_failures_name_the_cause(tmp_path: Path) -> None:
    bad = tmp_path / "events.sqlite3"
    bad.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="damaged"):
        SqliteStore(bad).games()
    ro = tmp_path / "ro"
    ro.mkdir()
    SqliteStore(ro / "events.sqlite3").close()
    ro.chmod(0o500)
    (ro / "events.sqlite3").chmod(0o400)
    try:
        try:
            store = SqliteStore(ro / "events.sqlite3")
        except StoreError as exc:
            assert "read-only" in str(exc)
        else:
            if _writable(ro / "events.sqlite3"):  # root writes anyway: a folder it cannot make
                store.close()
                with pytest.raises(StoreError, match="read-only"):
                    SqliteStore(Path("/sys/companion-state/events.sqlite3"))
                return
            with pytest.raises(StoreError, match="read-only"):
                store.create_game("tally", ["A", "B"], {}, 0)
            store.close()
    finally:
        ro.chmod(0o700)


def _writable(path: Path) -> bool:
    try:
        with open(path, "r+b"):
            return True
    except OSError:
        return False


def test_locked_store_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SqliteStore(path)
    store._db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="another program"):
            store.create_game("tally", ["A", "B"], {}, 0)
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


def test_nan_never_reaches_the_store() -> None:
    store = MemoryStore()
    info = store.create_game("tally", ["A", "B"], {}, 0)
    with pytest.raises(StoreError):
        store.append(info.game_id, [NewEvent(0.0, "X", {"n": float("nan")})])
    assert store.events(info.game_id) == []


def test_nan_in_an_action_is_refused_not_stored(running: Table) -> None:
    assert submit(running, "start", start_args()).accepted
    res = submit(running, "action", {"action": {"do": "add", "n": 1, "x": float("nan")}})
    assert not res.accepted and "finite" in (res.reason or "")
    assert running.history() == []


# --- request ids: a retry of a stored request is "already done" ----------------------------


def test_a_retried_request_is_stored_once(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "events.sqlite3")
    table = Table(store)
    table.start()
    try:
        assert submit(table, "start", start_args(), request_id="s-1").accepted
        again = submit(table, "start", start_args(), request_id="s-1")
        assert again.accepted and again.already
        first = submit(table, "action", {"action": {"do": "add", "n": 2}}, request_id="a-1")
        retry = submit(table, "action", {"action": {"do": "add", "n": 2}}, request_id="a-1")
        assert first.accepted and not first.already
        assert retry.accepted and retry.already and retry.seq == first.seq
        assert "Already done" in (retry.reason or "")
        assert table.hub.latest().public["total"] == 2
    finally:
        table.stop()
    restarted = Table(store)  # the store remembers the id across a restart
    res = restarted.process(Command("action", {"action": {"do": "add", "n": 2}},
                                    request_id="a-1"))
    assert res.accepted and res.already
    assert restarted.hub.latest().public["total"] == 2
    store.close()


def test_a_bad_request_id_is_refused(running: Table) -> None:
    assert submit(running, "start", start_args()).accepted
    res = submit(running, "action", {"action": {"do": "add", "n": 2}}, request_id="x" * 500)
    assert not res.accepted and "request_id" in (res.reason or "")
