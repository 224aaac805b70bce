"""PostgreSQL for the league: a psycopg 3 connection pool and numbered SQL migrations.

Migrations are plain SQL files ``league/migrations/NNN_name.sql``, applied in order,
each in its own transaction, under an advisory lock (two servers starting at once
apply each file once); ``schema_migrations`` lists those applied. Plain SQL rather than
alembic: the league has no ORM (alembic needs SQLAlchemy), the files are the schema a
reader checks and EXPLAINs (docs/league.md), and applying them is twenty lines.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

#: pg_advisory_lock key of the migrations ("TCLEAGUE")
MIGRATION_LOCK = 0x54434C45
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class DatabaseError(RuntimeError):
    """The league's database cannot be reached or used; the message says what to do."""


def migrations() -> list[tuple[int, str, str]]:
    """``(version, file name, SQL)`` of every migration shipped, in order."""
    out = []
    for entry in resources.files("league.migrations").iterdir():
        m = _NAME.match(entry.name)
        if m:
            out.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(out)


def migrate(conn: psycopg.Connection[Any]) -> list[str]:
    """Apply the migrations not yet applied; the names of those applied now."""
    done: list[str] = []
    conn.autocommit = True
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                     "version integer PRIMARY KEY, name text NOT NULL, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")
        have = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in migrations():
            if version in have:
                continue
            with conn.transaction():
                conn.execute(sql.encode())
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (version, name))
            done.append(name)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return done


def open_pool(dsn: str, size: int = 8, timeout: float = 30.0) -> ConnectionPool:
    """A pool of ``size`` connections to ``dsn``, the schema migrated to the newest."""
    try:
        with psycopg.connect(dsn, connect_timeout=10) as conn:
            migrate(conn)
    except psycopg.OperationalError as exc:
        raise DatabaseError(
            f"cannot reach the league's PostgreSQL ({str(exc).strip()}); check --db "
            "(postgresql://user@host/dbname) and that the server runs") from None
    except psycopg.ProgrammingError as exc:  # not an address at all ("nope")
        raise DatabaseError(
            f"--db is not a PostgreSQL address ({str(exc).strip()}): give one like "
            "postgresql://user@host/dbname") from None
    except psycopg.Error as exc:  # reached, but refused (permissions, a broken schema)
        raise DatabaseError(
            f"the league's PostgreSQL refused to set up its tables ({str(exc).strip()}); "
            "check that --db names a database this user may create tables in") from None
    pool = ConnectionPool(dsn, min_size=size, max_size=size, timeout=timeout,
                          open=False, kwargs={"autocommit": False})
    pool.open(wait=True, timeout=timeout)
    return pool


__all__ = ["DatabaseError", "migrate", "migrations", "open_pool"]
