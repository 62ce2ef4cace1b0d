"""Database images: a domain's pristine state, and per-task baselines derived from it.

An attempt's session is restored from an image in a fraction of a millisecond; the same image,
opened once read-only, is where effects read each changed row's state before the attempt. Where the
copy-on-write VFS works (world/cow.py), a session reads the image in place and holds only the pages
it writes; elsewhere it gets a private copy of the whole image.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from statebox.world import cow
from statebox.world.shared import SCHEMA, SharedImage, split_off
from statebox.world.spec import TableSpec, WorldSpec
from statebox.world.upsert import apply_rows

if TYPE_CHECKING:
    from statebox.world._cowvfs import Image

INTERNAL_PREFIX = "_sb_"
# A session's page cache only duplicates its in-memory image (a miss is a memcpy), so it is kept
# small: SQLite's default (2 MB per database) let an attempt's cache outgrow its own image.
CACHE_KIB = 64

_INTERNAL_DDL = """
CREATE TABLE _sb_changes (tbl TEXT NOT NULL, pk);
CREATE TABLE _sb_sequences (name TEXT PRIMARY KEY, prefix TEXT NOT NULL, next INTEGER NOT NULL);
"""


def user_tables(conn: sqlite3.Connection) -> list[str]:
    """Names of the domain's own tables (no SQLite or statebox internals, no FTS shadows)."""
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    names = [r[0] for r in rows if not r[0].startswith(("sqlite_", INTERNAL_PREFIX))]
    virtual = {r[0] for r in rows if (r[1] or "").upper().startswith("CREATE VIRTUAL")}
    shadows = {n for n in names for v in virtual if n.startswith(v + "_")}
    return [n for n in names if n not in virtual and n not in shadows]


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    """Column names of a table, in declaration order."""
    return [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]


def _capture_triggers(table: str, spec: TableSpec) -> str:
    """Triggers that remember which rows were touched; their old state stays in the baseline image.

    Plain inserts into a table without constraints, repeats allowed (effects reads them distinct):
    the smallest trigger programs SQLite parses into every session's schema, and no conflict
    clause of an outer statement can change what they do.
    """
    t, new, old = f'"{table}"', spec.key_expression("NEW"), spec.key_expression("OLD")
    mark = f"INSERT INTO _sb_changes VALUES ('{table}', {{}});"
    return f"""
CREATE TRIGGER "_sb_i_{table}" AFTER INSERT ON {t} BEGIN {mark.format(new)} END;
CREATE TRIGGER "_sb_u_{table}" AFTER UPDATE ON {t} BEGIN {mark.format(old)} {mark.format(new)} END;
CREATE TRIGGER "_sb_d_{table}" AFTER DELETE ON {t} BEGIN {mark.format(old)} END;
"""


@dataclass(frozen=True)
class Snapshot:
    """A serialized database image with change capture installed and no changes recorded."""

    spec: WorldSpec
    image: bytes
    tables: tuple[str, ...]
    table_columns: dict[str, tuple[str, ...]]
    shared: SharedImage | None = None  # the shared tables, attached read-only to every session
    _reader: dict[str, sqlite3.Connection] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    # The image registered with the copy-on-write VFS (no copy: it reads these bytes), while this lives.
    _pages: Image | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_pages", cow.register(self.image))

    @classmethod
    def build(cls, spec: WorldSpec) -> Snapshot:
        """Create the schema, seed it, install change capture, and serialize."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.executescript(spec.ddl)
            conn.executescript(_INTERNAL_DDL)
            if spec.seed is not None:
                conn.execute("BEGIN")
                spec.seed(conn)
                conn.execute("COMMIT")
            if spec.extra_sql:
                conn.executescript(spec.extra_sql)
            tables = user_tables(conn)
            cols = {t: tuple(columns(conn, t)) for t in tables}
            for t in tables:
                table_spec = spec.table(t)
                missing = [c for c in table_spec.key_columns if c not in cols[t]]
                if missing:
                    raise ValueError(f"world {spec.name!r}: table {t!r} has no primary key column(s) {missing}")
            unknown = sorted(spec.shared_tables - set(tables))
            if unknown:
                raise ValueError(f"world {spec.name!r}: shared table(s) {unknown} are not in the schema")
            shared = split_off(conn, [t for t in tables if t in spec.shared_tables], spec.name)
            for t in tables:
                if t not in spec.shared_tables:
                    conn.executescript(_capture_triggers(t, spec.table(t)))
            conn.executemany(
                "INSERT INTO _sb_sequences VALUES (?, ?, ?)",
                [(n, s.prefix, s.start) for n, s in spec.sequences.items()],
            )
            conn.execute("VACUUM")
            logging.getLogger(__name__).debug("world %s: %s", spec.name, cow.status())
            return cls(spec, conn.serialize(), tuple(tables), cols, shared)
        finally:
            conn.close()

    def derive(self, rows: dict[str, list[dict[str, Any]]]) -> Snapshot:
        """A new image: this one with rows upserted (a task's initial rows), changes cleared."""
        if not rows:
            return self
        touches_shared = self.shared is not None and not self.shared.tables.isdisjoint(rows)
        conn = self.open(writable_shared=touches_shared)
        try:
            apply_rows(conn, self, rows)
            conn.execute("DELETE FROM _sb_changes")
            shared = self.shared
            if touches_shared and shared is not None:  # this image gets its own copy of the shared tables
                shared = SharedImage(conn.serialize(name=SCHEMA), shared.tables)
            return Snapshot(self.spec, conn.serialize(), self.tables, self.table_columns, shared)
        finally:
            conn.close()

    def open(self, writable_shared: bool = False) -> sqlite3.Connection:
        """A private, writable database over the image, with the shared tables attached read-only.

        Copy-on-write over the image where world/cow.py can, else a deserialized copy of it.
        `writable_shared` attaches a private writable copy of the shared tables instead (to derive an image).
        """
        if self._pages is not None and cow.enabled():
            conn = cow.connect(self._pages)
        else:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False, uri=True)
            conn.deserialize(self.image)
        conn.execute(f"PRAGMA main.cache_size = -{CACHE_KIB}")
        if self.shared is not None:
            if writable_shared:
                self.shared.attach_copy(conn)
            else:
                self.shared.attach(conn)
        conn.execute("PRAGMA shrink_memory")  # drop the pages read to load the schema: ~160 KiB on retail
        return conn

    def row(self, table: str, key: Any) -> dict[str, Any] | None:
        """A row as it is in this image (read through one shared read-only copy)."""
        with self._lock:
            reader = self._reader.get("conn")
            if reader is None:
                reader = self._reader["conn"] = self.open()
                reader.row_factory = sqlite3.Row
            table_spec = self.spec.table(table)
            found = reader.execute(
                f'SELECT * FROM "{table}" WHERE {table_spec.key_where()}', table_spec.key_params(key)
            ).fetchone()
        return dict(found) if found is not None else None
