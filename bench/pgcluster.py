"""A throwaway PostgreSQL cluster: ``initdb`` into a temporary folder, ``pg_ctl start`` on
a free port, stopped and deleted at the end. For the league's tests and benchmark.

As root, PostgreSQL refuses to run: the cluster then runs as the ``postgres`` user
(Debian's package makes it) through ``runuser``. Without PostgreSQL's programs, or as
root without a ``postgres`` user, ``unavailable()`` says why, so a test can skip with
that reason.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "league"


def bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (Debian's newest, or on PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def _runas() -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


def unavailable() -> str | None:
    """Why no cluster can be started here, or None when one can."""
    if bindir() is None:
        return ("PostgreSQL is not installed (initdb not found): as root, "
                "scripts/bootstrap.sh test installs Debian's postgresql")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root and 'runuser' is missing"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One running cluster; ``dsn(db)`` connects to database ``db`` as the superuser."""

    def __init__(self, fsync: bool = False) -> None:
        why = unavailable()
        if why:
            raise RuntimeError(why)
        bin_ = bindir()
        assert bin_ is not None
        self.bin = bin_
        self.root = Path(tempfile.mkdtemp(prefix="league-pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.port = free_port()
        for d in (self.data, self.sockets):
            d.mkdir(mode=0o700)
            if os.geteuid() == 0:
                pw = pwd.getpwnam("postgres")
                os.chown(d, pw.pw_uid, pw.pw_gid)
        self._run(["initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                   "--encoding=UTF8", "--locale=C"])
        opts = (f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 "
                f"-c max_connections=300 -c shared_buffers=128MB "
                f"-c fsync={'on' if fsync else 'off'}")
        self._run(["pg_ctl", "-D", str(self.data), "-o", opts, "-l",
                   str(self.sockets / "log"), "-w", "-t", "300", "start"])
        self.running = True

    def _run(self, argv: list[str]) -> None:
        cmd = [*_runas(), str(self.bin / argv[0]), *argv[1:]]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=self.root, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def dsn(self, db: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{db}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def stop(self) -> None:
        if self.running:
            self.running = False
            try:
                self._run(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])
            finally:
                shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["Cluster", "bindir", "free_port", "unavailable"]
