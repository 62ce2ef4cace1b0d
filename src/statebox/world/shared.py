"""Shared tables: reference data no tool writes, held once per image instead of once per attempt.

A domain declares them with `TableSpec(shared=True)`. When the image is built they move out of the
attempt's private database into a second one, kept in SQLite's in-process memory VFS under a unique
name; every session attaches it read-only as schema `shared`, so a query naming a shared table finds
it there (SQLite looks names up in main, then in attached databases) and a write to it fails.
Isolation is untouched: nothing can change the shared copy while it is attached.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from statebox.world.upsert import apply_rows

if TYPE_CHECKING:
    from statebox.world.snapshot import Snapshot

SCHEMA = "shared"
READ_ONLY_ERROR = "attempt to write a readonly database"
CACHE_KIB = 64  # each session's page cache for the shared database; a copy of pages it read


@dataclass(frozen=True, eq=False)
class SharedImage:
    """One read-only database of shared tables, alive while this object (or a session) holds it."""

    image: bytes
    tables: frozenset[str]
    uri: str = field(default_factory=lambda: f"file:/statebox-shared-{secrets.token_hex(8)}?vfs=memdb")

    def __post_init__(self) -> None:
        # The named in-memory database lives as long as a connection holds it. Filled by a backup:
        # deserializing into it would give the keeper a private database instead of the named one.
        keeper = sqlite3.connect(self.uri, uri=True, isolation_level=None, check_same_thread=False)
        source = sqlite3.connect(":memory:")
        try:
            source.deserialize(self.image)
            source.backup(keeper)
        finally:
            source.close()
        weakref.finalize(self, keeper.close)

    def attach(self, conn: sqlite3.Connection) -> None:
        """Attach this database read-only to a session's connection (opened with uri=True)."""
        conn.execute(f"ATTACH '{self.uri}&mode=ro' AS {SCHEMA}")
        conn.execute(f"PRAGMA {SCHEMA}.cache_size = -{CACHE_KIB}")

    def reattach(self, conn: sqlite3.Connection) -> None:
        """Put this database in place of the one a session has attached."""
        conn.execute(f"DETACH {SCHEMA}")
        self.attach(conn)

    def with_rows(self, snapshot: Snapshot, rows: dict[str, list[dict[str, Any]]]) -> SharedImage:
        """A new shared database: this one with rows upserted into its tables (all or nothing)."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.deserialize(self.image)
            apply_rows(conn, snapshot, rows)
            return SharedImage(conn.serialize(), self.tables)
        finally:
            conn.close()

    def attach_copy(self, conn: sqlite3.Connection) -> None:
        """Attach a private writable copy (to build a derived image from it)."""
        conn.execute(f"ATTACH ':memory:' AS {SCHEMA}")
        conn.deserialize(self.image, name=SCHEMA)


def split_off(conn: sqlite3.Connection, tables: list[str], world: str) -> SharedImage | None:
    """Move `tables` (with their indexes) from conn's main database into a new SharedImage."""
    if not tables:
        return None
    conn.execute(f"ATTACH ':memory:' AS {SCHEMA}")
    try:
        for t in tables:
            _move(conn, t, world)
        image = conn.serialize(name=SCHEMA)
    finally:
        conn.execute(f"DETACH {SCHEMA}")
    return SharedImage(image, frozenset(tables))


def _move(conn: sqlite3.Connection, table: str, world: str) -> None:
    objects = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'",
        (table,),
    ).fetchall()
    for kind, name, sql in objects:
        if kind not in ("table", "index") or sql.upper().startswith("CREATE VIRTUAL"):
            raise ValueError(f"world {world!r}: shared table {table!r} has a {kind} {name!r}; "
                             "a shared table can have indexes only (no triggers, not virtual)")
        conn.execute(_qualified(sql, kind, name))
        if kind == "table":
            conn.execute(f'INSERT INTO {SCHEMA}."{table}" SELECT * FROM main."{table}"')
    conn.execute(f'DROP TABLE main."{table}"')


def _qualified(sql: str, kind: str, name: str) -> str:
    """The CREATE statement with its object's name moved into the shared schema."""
    pattern = rf'^(CREATE\s+(?:UNIQUE\s+)?{kind}\s+(?:IF\s+NOT\s+EXISTS\s+)?)(["`\[]?){re.escape(name)}["`\]]?'
    out, n = re.subn(pattern, rf'\1{SCHEMA}."{name}"', sql, count=1, flags=re.IGNORECASE)
    if n != 1:
        raise ValueError(f"cannot move {kind} {name!r} into the shared database: unexpected SQL {sql[:80]!r}")
    return out
