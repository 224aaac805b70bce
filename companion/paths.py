"""Where Table Companion keeps its files.

The state directory holds the event store, decks (with their secret keys), the host
token and the seat-cookie secret. Under systemd it is ``$STATE_DIRECTORY`` (from
``StateDirectory=``); otherwise ``$XDG_STATE_HOME/table-companion`` or
``~/.local/state/table-companion``. ``TABLE_COMPANION_STATE`` overrides both (tests).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def state_dir(create: bool = True) -> Path:
    """The state directory, created with mode 0700 when missing."""
    explicit = os.environ.get("TABLE_COMPANION_STATE") or os.environ.get("STATE_DIRECTORY")
    if explicit:
        # systemd may pass several colon-separated directories; the first is ours.
        path = Path(explicit.split(":")[0])
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(base) / "table-companion"
    if create:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def write_secret(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (mode 0600), atomically."""
    # a unique temporary name: two first writers at once must not share one file
    fd, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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
