"""Every save is all or nothing, durable, and says in words why it failed
(companion/atomic.py): a full disk, a read-only card; no temporary file left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import atomic
from companion.atomic import SaveError, write_atomic
from companion.decks import Deck
from tests.full_disk import _can_mount, disk

KINDS = [pytest.param(True, id="tmpfs",
                      marks=pytest.mark.skipif(not _can_mount(), reason="needs root")),
         pytest.param(False, id="patched")]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "disk"
    path.mkdir()
    return path


def test_a_save_replaces_the_file_whole_and_syncs_file_and_folder(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.path.isdir(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    target = folder / "board.json"
    target.write_text("old", encoding="utf-8")
    write_atomic(target, "new ✓", what="the board")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert synced == [False, True]  # the file's data, then the folder's rename
    assert oct(target.stat().st_mode & 0o777) == oct(0o600)
    assert sorted(p.name for p in folder.iterdir()) == ["board.json"]


def _refused_save(folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool, fault: str,
                  name: str, what: str) -> SaveError:
    """The error of a save onto a disk that ``fault`` (``fill``, ``read_only``) broke after
    an earlier save of the same file, once checked that the old file is whole and that no
    temporary file is left."""
    with disk(folder, monkeypatch, real=real) as d:
        target = folder / name
        write_atomic(target, "old")
        getattr(d, fault)()
        with pytest.raises(SaveError) as caught:
            write_atomic(target, "x" * 10_000, what=what)
        if fault == "read_only":  # removing a file is refused the same way
            with pytest.raises(SaveError, match="read-only"):
                atomic.remove(target, what="the board")
        assert target.read_text(encoding="utf-8") == "old"
        assert d.leftovers() == []
    return caught.value


@pytest.mark.parametrize("real", KINDS)
def test_a_full_disk_is_said_and_leaves_the_old_file_and_no_temporary(
        folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    error = _refused_save(folder, monkeypatch, real, "fill", "seats.json", "the seats")
    assert error.kind == "full"
    assert str(error).startswith("The disk is full, so the seats could not be saved")
    assert "Free some space" in error.reason


@pytest.mark.parametrize("real", KINDS)
def test_a_read_only_card_is_said_as_such(
        folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    error = _refused_save(folder, monkeypatch, real, "read_only", "zones.json",
                          "the camera zones")
    assert error.kind == "read_only"
    assert "read-only" in error.reason and "export" in error.reason


def test_other_errors_are_said_with_their_cause(folder: Path) -> None:
    with pytest.raises(SaveError) as caught:
        write_atomic(folder / "missing" / "board.json", "x", what="the board")
    assert caught.value.kind == "other"
    assert caught.value.reason.startswith("The board could not be saved (No such file")
    assert isinstance(caught.value, OSError)  # old handlers of OSError still catch it


@pytest.mark.parametrize("real", KINDS)
def test_a_deck_on_a_full_disk_is_not_half_written(
        folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    deck = Deck.new("nasty7", "home", folder)
    before = (folder / "decks" / "home.json").read_bytes()
    with disk(folder / "decks", monkeypatch, real=real) as d:
        (folder / "decks" / "home.json").write_bytes(before)  # the deck on the new disk
        d.fill()
        with pytest.raises(SaveError, match="disk is full, so the deck home"):
            deck.set_counts({"gun": 3})
        assert (folder / "decks" / "home.json").read_bytes() == before
        assert d.leftovers() == []
