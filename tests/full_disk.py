"""A state folder whose disk fills up or turns read-only, for the save tests.

As root (CI, the developers' machines) the folder is a real, tiny tmpfs: ``fill()``
writes a file until the kernel answers ENOSPC, ``read_only()`` remounts it read-only, so
the saves meet the very errors a full or failing SD card gives. Where mounting is not
possible the same errors are raised by the OS-level calls the saves make (the fsync
that reports a full disk on ext4's delayed allocation, the creation of the temporary
file on a read-only card).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SIZE = "4m"


def _can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


class Disk:
    """The disk under ``folder``: ``real`` when it is a tmpfs of its own."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
        self.folder = folder
        self.real = real
        self._mp = monkeypatch

    def fill(self) -> None:
        """No byte more fits."""
        if not self.real:
            self._refuse("fsync", errno.ENOSPC)
            return
        chunk = b"\0" * 65536
        with open(self.folder / ".filler", "wb", buffering=0) as f:
            for size in (65536, 4096, 1):
                try:
                    while True:
                        f.write(chunk[:size])
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc

    def read_only(self) -> None:
        """The card went read-only (what the kernel does to a failing SD card)."""
        if not self.real:
            self._refuse("mkstemp", errno.EROFS)
            self._refuse("unlink", errno.EROFS)
            return
        subprocess.run(["mount", "-o", "remount,ro", str(self.folder)], check=True)

    def leftovers(self) -> list[str]:
        """Temporary files a save left behind."""
        return sorted(p.name for p in self.folder.rglob("*.tmp"))

    def _refuse(self, call: str, code: int) -> None:
        def refuse(*args: object, **kwargs: object) -> None:
            raise OSError(code, os.strerror(code))

        if call == "mkstemp":
            self._mp.setattr("companion.atomic.tempfile.mkstemp", refuse)
        elif call == "unlink":
            self._mp.setattr(Path, "unlink", refuse)
        else:
            self._mp.setattr("companion.atomic.os.fsync", refuse)


@contextmanager
def disk(folder: Path, monkeypatch: pytest.MonkeyPatch, *, real: bool | None = None
         ) -> Iterator[Disk]:
    """``folder`` on a disk of its own (tmpfs when root, else patched OS calls)."""
    real = _can_mount() if real is None else real
    if real:
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0700", "tmpfs",
                        str(folder)], check=True)
    try:
        yield Disk(folder, monkeypatch, real)
    finally:
        if real:
            subprocess.run(["umount", "-l", str(folder)], check=False)


__all__ = ["Disk", "disk"]
