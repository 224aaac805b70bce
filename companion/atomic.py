"""Saving a file so that it is either wholly new or wholly old, and saying why not.

Every save under the state folder (camera zones, the board, seats, decks, the host
token) goes through :func:`write_atomic`: the text is written to a temporary file in the
same folder, flushed and fsynced, moved over the old file with ``os.replace`` and the
folder is fsynced, so a power cut leaves the old file or the new one, never half of
either. When the save fails nothing is left behind (no ``.tmp`` file), the old file is
untouched, and :class:`SaveError` says in words what went wrong — a full disk, a
read-only card, a folder Table Companion may not write to — and what to do.
"""

from __future__ import annotations

import errno
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

#: errno -> what the person is told (``{what}``: what was being saved, ``{folder}``)
_REASONS = {
    errno.ENOSPC: ("full", "The disk is full, so {what} could not be saved (nothing was "
                   "changed). Free some space on the SD card (old clips or records), "
                   "then save again."),
    errno.EDQUOT: ("full", "The disk quota is used up, so {what} could not be saved "
                   "(nothing was changed). Free some space, then save again."),
    errno.EROFS: ("read_only", "The storage is read-only, so {what} could not be saved "
                  "(nothing was changed). The SD card may be failing: export your games "
                  "(companion export), then check or replace the card."),
    errno.EACCES: ("denied", "Table Companion may not write to {folder}, so {what} could "
                   "not be saved (nothing was changed). Give the service's user write "
                   "access to that folder, then save again."),
    errno.EPERM: ("denied", "Table Companion may not write to {folder}, so {what} could "
                  "not be saved (nothing was changed). Give the service's user write "
                  "access to that folder, then save again."),
}


class SaveError(OSError):
    """A file could not be saved. ``reason`` is a sentence for the person; ``kind`` is
    ``full``, ``read_only``, ``denied`` or ``other``. The old file is unchanged."""

    def __init__(self, path: Path, what: str, cause: OSError) -> None:
        kind, template = _REASONS.get(cause.errno or 0, (
            "other", "{what} could not be saved ({error}); nothing was changed. "
                     "Check the storage, then save again."))
        reason = template.format(what=what, folder=path.parent,
                                 error=cause.strerror or cause)
        super().__init__(cause.errno, reason, str(path))
        self.path = path
        self.kind = kind
        self.reason = reason[0].upper() + reason[1:]

    def __str__(self) -> str:
        return self.reason


def explain(exc: OSError) -> str:
    """An OS error in words for the command line: what is wrong and what to do."""
    where = f" ({exc.filename})" if exc.filename else ""
    code = exc.errno or 0
    if code in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full{where}: free some space, then try again"
    if code == errno.EROFS:
        return (f"the storage is read-only{where}: the SD card may be failing; export your "
                "games (companion export works on a read-only card), then check or replace "
                "the card")
    if code in (errno.EACCES, errno.EPERM):
        return (f"this user may not write there{where}: run as the service's user, or give "
                "this user access to the state folder")
    if code == errno.ENOTDIR:
        return f"a part of the path is a file, not a folder{where}: move that file away"
    return f"{exc.strerror or exc}{where}: check the storage (companion doctor), then try again"


def write_atomic(path: Path, data: str | bytes, *, what: str = "the file",
                 mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` (text as UTF-8), all or nothing, durably.

    ``what`` names the file for the person ("the board", "the camera zones"). Raises
    :class:`SaveError` (an ``OSError``) when the folder is full, read-only or not ours.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp: Path | None = None
    try:
        # a unique temporary name in the same folder: two writers never share one, and
        # os.replace stays a rename on one filesystem
        fd, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        tmp = Path(name)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise SaveError(path, what, exc) from exc
    finally:
        if tmp is not None:
            _discard(tmp)
    try:
        sync_folder(path.parent)
    except OSError as exc:  # saved; only its survival of a power cut is less sure
        log.warning("saved %s but could not sync its folder: %s", path, exc)


def remove(path: Path, *, what: str = "the file") -> None:
    """Delete ``path`` if it exists, durably; :class:`SaveError` when the folder refuses."""
    try:
        path.unlink(missing_ok=True)
        sync_folder(path.parent)
    except OSError as exc:
        raise SaveError(path, what, exc) from exc


def sync_folder(folder: Path) -> None:
    """fsync a folder, so a rename or a new file in it survives a power cut."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _discard(tmp: Path) -> None:
    try:
        tmp.unlink(missing_ok=True)
    except OSError:
        pass  # the save already failed and says why; a stray file is the lesser fault


__all__ = ["SaveError", "explain", "remove", "sync_folder", "write_atomic"]
