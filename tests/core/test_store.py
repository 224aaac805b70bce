"""One contract, every backend: the memory store and the SQLite store behave alike."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from companion.store import (
    EventStore,
    MemoryStore,
    NewEvent,
    SqliteStore,
    StoreError,
    latest_open_game,
)


class StoreContract:
    """Subclasses provide ``make(tmp_path)``; every test runs on each backend."""

    def make(self, tmp_path: Path) -> EventStore:
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path) -> EventStore:
        return self.make(tmp_path)

    def test_seq_is_contiguous_per_game(self, store: EventStore) -> None:
        a = store.create_game("tally", ["A", "B"], {}, 0)
        b = store.create_game("tally", ["C", "D"], {"target": 5}, 7)
        store.append(a.game_id, [NewEvent(0.5, "X", {"n": 1}), NewEvent(0.5, "Y", {})])
        store.append(b.game_id, [NewEvent(1.0, "X", {"n": 2})])
        stored = store.append(a.game_id, [NewEvent(2.0, "Z", {"list": [1, 2]})])
        assert [e.seq for e in store.events(a.game_id)] == [1, 2, 3]
        assert [e.seq for e in store.events(b.game_id)] == [1]
        assert stored[0].seq == 3 and stored[0].batch == 3
        assert store.events(a.game_id)[1].batch == 1

    def test_payload_type_time_version_round_trip(self, store: EventStore) -> None:
        g = store.create_game("tally", ["A", "B"], {"target": 9}, 3)
        payload = {"text": "Zoë", "nested": {"a": [1, 2.5, None, True]}}
        store.append(g.game_id, [NewEvent(1.25, "Thing", payload, version=2)])
        (e,) = store.events(g.game_id)
        assert (e.t, e.type, dict(e.payload), e.version) == (1.25, "Thing", payload, 2)
        assert store.game(g.game_id).options == {"target": 9}
        assert store.game(g.game_id).seed == 3

    def test_events_after_seq(self, store: EventStore) -> None:
        g = store.create_game("tally", ["A", "B"], {}, 0)
        store.append(g.game_id, [NewEvent(float(i), "E", {"i": i}) for i in range(5)])
        assert [e.payload["i"] for e in store.events(g.game_id, after_seq=3)] == [3, 4]

    def test_latest_open_game_skips_closed(self, store: EventStore) -> None:
        a = store.create_game("tally", ["A", "B"], {}, 0)
        b = store.create_game("tally", ["A", "B"], {}, 0)
        assert latest_open_game(store) == store.game(b.game_id)
        store.close_game(b.game_id)
        latest = latest_open_game(store)
        assert latest is not None and latest.game_id == a.game_id
        store.close_game(a.game_id)
        assert latest_open_game(store) is None

    def test_expect_seq_refuses_a_second_writer(self, store: EventStore) -> None:
        from companion.store import SeqConflictError

        g = store.create_game("tally", ["A", "B"], {}, 0)
        store.append(g.game_id, [NewEvent(0.0, "E", {})], expect_seq=1)
        with pytest.raises(SeqConflictError, match="another companion"):
            store.append(g.game_id, [NewEvent(0.0, "E", {})], expect_seq=1)
        assert len(store.events(g.game_id)) == 1

    def test_unknown_game_is_a_clear_error(self, store: EventStore) -> None:
        with pytest.raises(StoreError, match="no game 'nope'"):
            store.events("nope")
        with pytest.raises(StoreError, match="no game"):
            store.game("nope")

    def test_concurrent_appends_stay_contiguous(self, store: EventStore) -> None:
        g = store.create_game("tally", ["A", "B"], {}, 0)

        def writer() -> None:
            for i in range(50):
                store.append(g.game_id, [NewEvent(float(i), "E", {}), NewEvent(float(i), "F", {})])

        threads = [threading.Thread(target=writer) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        events = store.events(g.game_id)
        assert [e.seq for e in events] == list(range(1, 401))
        # a batch is never split by another writer
        for e in events:
            assert (e.seq - e.batch) in (0, 1)


class TestMemoryStore(StoreContract):
    def make(self, tmp_path: Path) -> EventStore:
        return MemoryStore()


class TestSqliteStore(StoreContract):
    def make(self, tmp_path: Path) -> EventStore:
        return SqliteStore(tmp_path / "events.sqlite3")

    def test_wal_and_full_sync(self, tmp_path: Path) -> None:
        store = SqliteStore(tmp_path / "e.sqlite3")
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store.integrity() == "ok"

    def test_survives_reopen(self, tmp_path: Path) -> None:
        path = tmp_path / "e.sqlite3"
        store = SqliteStore(path)
        g = store.create_game("tally", ["A", "B"], {}, 0)
        store.append(g.game_id, [NewEvent(1.0, "E", {"k": "v"})])
        store.close()
        again = SqliteStore(path)
        assert [dict(e.payload) for e in again.events(g.game_id)] == [{"k": "v"}]
        assert again.games()[0].seats == ("A", "B")

    def test_one_process_per_store(self, tmp_path: Path) -> None:
        first = SqliteStore(tmp_path / "e.sqlite3")
        first.lock()
        second = SqliteStore(tmp_path / "e.sqlite3")
        with pytest.raises(StoreError, match=f"pid {os.getpid()}"):
            second.lock()
        first.close()
        second.lock()  # free again once the first is closed
        second.close()
        second.close()

    def test_damaged_file_is_a_clear_error(self, tmp_path: Path) -> None:
        path = tmp_path / "bad.sqlite3"
        path.write_bytes(b"this is not a database" * 100)
        with pytest.raises(StoreError, match="start companion again"):
            SqliteStore(path)

    def test_state_dir_file(self, state_dir: Path) -> None:
        store = SqliteStore.in_state_dir(state_dir)
        assert store.path == state_dir / "events.sqlite3"
        assert store.path.exists()


def test_state_dir_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.paths import state_dir

    monkeypatch.setenv("TABLE_COMPANION_STATE", str(tmp_path / "fresh"))
    path = state_dir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
