"""Where Table Companion keeps its files.

The state directory holds the event store, decks (with their secret keys), the host
token and the seat-cookie secret. Under systemd it is ``$STATE_DIRECTORY`` (from
``StateDirectory=``); otherwise ``$XDG_STATE_HOME/table-companion`` or
``~/.local/state/table-companion``. ``TABLE_COMPANION_STATE`` overrides both (tests).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from companion.atomic import explain, write_atomic


class StateDirError(RuntimeError):
    """The state folder cannot be used; the message says why and what to do."""


def state_dir(create: bool = True) -> Path:
    """The state directory, created with mode 0700 when missing. ``StateDirError`` when
    its path is a file, or it cannot be made (read-only, not ours)."""
    explicit = os.environ.get("TABLE_COMPANION_STATE") or os.environ.get("STATE_DIRECTORY")
    if explicit:
        # systemd may pass several colon-separated directories; the first is ours.
        path = Path(explicit.split(":")[0])
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(base) / "table-companion"
    if path.exists() and not path.is_dir():
        raise StateDirError(
            f"the state folder {path} is a file, not a folder: move that file away, or set "
            "TABLE_COMPANION_STATE to a folder")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise StateDirError(f"cannot make the state folder {path}: {explain(exc)}") from None
    return path


def write_secret(path: Path, text: str, *, what: str = "the file") -> None:
    """Write ``text`` to ``path`` readable by its owner only (mode 0600), atomically and
    durably; :class:`companion.atomic.SaveError` says why not (full, read-only...)."""
    write_atomic(path, text, what=what, mode=0o600)


def default_config_path() -> Path:
    """``$TABLE_COMPANION_CONFIG``, else /etc/table-companion/config.toml if present,
    else ``config.toml`` in the state directory."""
    explicit = os.environ.get("TABLE_COMPANION_CONFIG")
    if explicit:
        return Path(explicit)
    etc = Path("/etc/table-companion/config.toml")
    if etc.exists():
        return etc
    return state_dir() / "config.toml"


def read_or_create_secret(path: Path) -> str:
    """The secret in ``path``; a fresh random one (mode 0600) when missing or empty."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = ""
    if not text:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        text = secrets.token_urlsafe(24)
        write_secret(path, text + "\n")
    return text
