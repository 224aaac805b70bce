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


@pytest.mark.parametrize("real", KINDS)
def test_a_full_disk_is_said_and_leaves_the_old_file_and_no_temporary(
        folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    with disk(folder, monkeypatch, real=real) as d:
        target = folder / "seats.json"
        write_atomic(target, "old")
        d.fill()
        with pytest.raises(SaveError) as caught:
            write_atomic(target, "x" * 10_000, what="the seats")
        assert caught.value.kind == "full"
        assert str(caught.value).startswith("The disk is full, so the seats could not be saved")
        assert "Free some space" in caught.value.reason
        assert target.read_text(encoding="utf-8") == "old"
        assert d.leftovers() == []


@pytest.mark.parametrize("real", KINDS)
def test_a_read_only_card_is_said_as_such(
        folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    with disk(folder, monkeypatch, real=real) as d:
        target = folder / "zones.json"
        write_atomic(target, "old")
        d.read_only()
        with pytest.raises(SaveError) as caught:
            write_atomic(target, "new", what="the camera zones")
        assert caught.value.kind == "read_only"
        assert "read-only" in caught.value.reason and "export" in caught.value.reason
        with pytest.raises(SaveError, match="read-only"):
            atomic.remove(target, what="the board")
        assert target.read_text(encoding="utf-8") == "old"
        assert d.leftovers() == []


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
