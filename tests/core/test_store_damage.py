"""A damaged store is said, moved aside and kept; new games go to a fresh file; games can
be exported from a read-only state folder (issue 28, B3 and B7)."""

from __future__ import annotations

import fcntl
import os
import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime
from pathlib import Path

import pytest

from companion.damage import PUBLIC_TEXT, open_table_store, problem
from companion.inputs import TABLE, Command
from companion.store import NewEvent, SqliteStore, StoreError
from companion.table import Table
from tests.full_disk import _can_mount, disk

WHEN = datetime(2026, 11, 25, 15, 4, 5)
ASIDE = "events-damaged-2026-11-25-150405.sqlite3"


def _played(path: Path) -> str:
    """A store with a running Nasty 7 game and a long finished one; the running game's id."""
    store = SqliteStore(path)
    old = store.create_game("nasty7", ["Ann", "Ben"], {}, 1)
    for n in range(300):  # about 100 KB of history, so the file has pages to damage
        store.append(old.game_id, [NewEvent(float(n), "Noted", {"text": "x" * 300, "n": n})])
    store.close_game(old.game_id)
    table = Table(store)
    assert table.process(Command("start", {"game": "nasty7", "players": 3})).accepted
    for card in ("racketeer", "twin_racketeer", "gun"):
        assert table.process(Command("action", {"action": {"do": "play", "card": card}},
                                     source=TABLE)).accepted  # the camera's play
    assert table.info is not None
    running = table.info.game_id
    store.close()  # the last connection: the WAL is checkpointed into the file
    return running


def _damage(path: Path, where: str = "end") -> bytes:
    """Pages of noise written inside the file, whose SQLite header stays valid: the
    running game's rows (``end``) or some of the finished game's (``middle``)."""
    data = bytearray(path.read_bytes())
    assert len(data) > 60_000
    # whole pages of the events table's leaves in key order (SQLite's dbstat). The key
    # is (game id, seq) and game ids are random: the running game's few rows are the
    # last leaves or the first, as its id sorts after the finished game's or before;
    # the finished game's fill the rest. Where they lie in the file depends on the
    # schema, so they are looked up.
    size = int.from_bytes(data[16:18], "big") or 65536
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        leaves = [n for (n,) in db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' "
            "ORDER BY path")]
        ids = dict(db.execute("SELECT closed, game_id FROM games").fetchall())
    assert len(leaves) >= 20, leaves
    running_last = ids[0] > ids[1]
    noise = random.Random(28)
    n = len(leaves)
    if where == "end":
        pages = leaves[-3:] if running_last else leaves[:3]
    else:  # a quarter into the finished game's leaves, far from the running game's
        at = n // 4 if running_last else n - n // 4
        pages = leaves[at - 2:at + 3]
    for n in pages:
        data[(n - 1) * size:n * size] = noise.randbytes(size)
    path.write_bytes(bytes(data))
    assert data[:16] == b"SQLite format 3\0"
    return bytes(data)


def test_a_sound_store_opens_and_its_game_resumes(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    running = _played(path)
    assert problem(path) is None
    store, notice = open_table_store(path, WHEN)
    assert notice is None
    table = Table(store, notice=notice)
    assert table.info is not None and table.info.game_id == running
    assert table.hub.latest().public_json()["notice"] is None
    store.close()


def test_a_damaged_store_is_said_kept_aside_and_new_games_go_to_a_fresh_file(
        tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    _played(path)
    damaged = _damage(path)
    assert problem(path) is not None
    store, notice = open_table_store(path, WHEN)
    assert notice is not None
    aside = tmp_path / ASIDE
    assert aside.read_bytes() == damaged  # kept, unchanged, under a dated name
    table = Table(store, notice=notice)
    snap = table.hub.latest()
    assert snap.public_json()["notice"] == PUBLIC_TEXT  # the TV and phones
    host = snap.host_json()["host_notice"]
    assert host["title"] == "A game could not be resumed"
    assert host["text"].startswith("The file of saved games was damaged")
    assert ASIDE in host["text"] and host["command"] == f"companion export --store {aside}"
    assert "{" not in host["text"] and "Traceback" not in host["text"]
    # a new game goes to the fresh file, and the notice has done its work
    assert table.process(Command("start", {"game": "nasty7", "players": 3})).accepted
    assert table.hub.latest().public_json()["notice"] is None
    assert table.hub.latest().host_json()["host_notice"] is None
    assert table.info is not None
    assert [g.game_id for g in store.games()] == [table.info.game_id]
    store.close()
    assert aside.read_bytes() == damaged
    assert problem(path) is None


def test_a_running_game_that_still_reads_whole_goes_on_in_the_fresh_file(
        tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    running = _played(path)
    damaged = _damage(path, "middle")  # the finished game's pages
    store, notice = open_table_store(path, WHEN)
    table = Table(store, notice=notice)
    assert table.info is not None and table.info.game_id == running
    assert table.session is not None and len(table.store.events(running)) > 0
    snap = table.hub.latest()
    assert snap.public_json()["notice"] is None  # nothing for the players: the game goes on
    host = snap.host_json()["host_notice"]
    assert host["title"] == "The file of saved games was damaged"
    assert "The running game was read whole and goes on" in host["text"]
    assert ASIDE in host["text"] and ASIDE in host["command"]
    assert (tmp_path / ASIDE).read_bytes() == damaged
    assert [g.game_id for g in store.games()] == [running]
    store.close()


def test_a_store_in_use_by_another_companion_is_never_moved(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    _played(path)
    damaged = _damage(path)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(StoreError, match="another companion"):
            open_table_store(path, WHEN)
    finally:
        os.close(fd)
    assert path.read_bytes() == damaged and not (tmp_path / ASIDE).exists()


def test_a_game_that_cannot_be_folded_again_is_said_too(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SqliteStore(path)
    store.create_game("no_such_game", ["Ann", "Ben"], {}, 1)
    table = Table(store)
    snap = table.hub.latest()
    assert snap.public_json()["notice"] == ("The last game could not be resumed. The host "
                                            "can start a new game.")
    host = snap.host_json()["host_notice"]
    assert "(Ann, Ben) could not be resumed" in host["text"]
    assert host["command"] == "companion export"
    store.close()


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "export", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not _can_mount(), reason="a read-only mount needs root")
def test_export_works_on_a_read_only_state_folder(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with disk(state_dir, monkeypatch) as d:
        running = _played(state_dir / "events.sqlite3")
        d.read_only()
        listed = _export()
        assert listed.returncode == 0, listed.stderr
        assert running in listed.stdout and "nasty7" in listed.stdout
        record = _export(running)
        assert record.returncode == 0, record.stderr
        assert '"do": "play"' in record.stdout and '"twin_racketeer"' in record.stdout


def test_export_reads_a_damaged_store_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    running = _played(path)
    _damage(path, "middle")
    store, _ = open_table_store(path, WHEN)
    store.close()
    listed = _export("--store", str(tmp_path / ASIDE))
    assert listed.returncode == 0, listed.stderr  # the list of games survived the noise
    assert running in listed.stdout
    record = _export(running, "--store", str(tmp_path / ASIDE))
    assert record.returncode == 0, record.stderr
    assert '"do": "play"' in record.stdout
    missing = _export("--store", str(tmp_path / "nothing.sqlite3"))
    assert missing.returncode == 1 and "no event store at" in missing.stderr


def test_doctor_says_a_damaged_store_and_the_kept_one(tmp_path: Path) -> None:
    from companion import doctor
    from companion.doctor import Level

    path = tmp_path / "events.sqlite3"
    _played(path)
    _damage(path)
    rows = {r.item: r for r in doctor.check_storage(tmp_path)}
    assert rows["event store"].level is Level.FAIL
    assert "moves the damaged file aside" in rows["event store"].fix
    store, _ = open_table_store(path, WHEN)
    store.close()
    rows = {r.item: r for r in doctor.check_storage(tmp_path)}
    assert rows["event store"].level is Level.OK
    kept = rows["damaged stores kept"]
    assert kept.level is Level.WARN and kept.detail == ASIDE
    assert f"companion export --store {tmp_path / ASIDE}" in kept.fix


def test_doctor_on_a_state_path_that_is_a_file(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import doctor
    from companion.doctor import Level

    (tmp_path / "state-file").write_text("x", encoding="utf-8")
    monkeypatch.setenv("TABLE_COMPANION_STATE", str(tmp_path / "state-file"))
    (row,) = doctor.check_storage()
    assert row.level is Level.FAIL and "is a file, not a folder" in row.detail


def test_the_rescue_hint_works_as_written(tmp_path: Path) -> None:
    """Each hint is followed literally: the live store's says to start companion again
    (which moves the file aside by itself); the kept copy's never says to move it again."""
    path = tmp_path / "events.sqlite3"
    running = _played(path)
    _damage(path, "middle")
    with closing(SqliteStore.reader(path)) as live:
        finished = next(g.game_id for g in live.games() if g.game_id != running)
    first = _export(finished, "--store", str(path))
    assert first.returncode == 1
    assert "start companion again" in first.stderr, first.stderr
    # what the hint says: companion starts (as `./run` does) and moves the file aside
    store, notice = open_table_store(path, WHEN)
    store.close()
    assert notice is not None and (tmp_path / ASIDE).exists()
    again = _export(finished, "--store", str(tmp_path / ASIDE))
    assert again.returncode == 1
    assert "the damaged copy the table kept aside" in again.stderr, again.stderr
    assert "start companion again" not in again.stderr and "move" not in again.stderr
    kept = _export(running, "--store", str(tmp_path / ASIDE))
    assert kept.returncode == 0 and '"do": "play"' in kept.stdout, kept.stderr
