"""The pristine database of a domain, built once and restored per attempt."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from statebox.world.spec import WorldSpec

INTERNAL_PREFIX = "_sb_"

_INTERNAL_DDL = """
CREATE TABLE _sb_changes (tbl TEXT NOT NULL, pk, existed INTEGER NOT NULL, old TEXT,
                          PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
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


def _mark(table: str, key: str, existed: int, old: str) -> str:
    # Not INSERT OR IGNORE: an outer UPSERT's conflict clause would override it inside a trigger.
    return (
        f"INSERT INTO _sb_changes SELECT '{table}', {key}, {existed}, {old} WHERE NOT EXISTS "
        f"(SELECT 1 FROM _sb_changes WHERE tbl = '{table}' AND pk = {key});"
    )


def _capture_triggers(table: str, pk: str, cols: list[str]) -> str:
    """Triggers that remember, once per row, whether it existed and what it held before."""
    old = "json_object(" + ", ".join(f"'{c}', OLD.\"{c}\"" for c in cols) + ")"
    t = f'"{table}"'
    new_key, old_key = f'NEW."{pk}"', f'OLD."{pk}"'
    return f"""
CREATE TRIGGER "_sb_ins_{table}" AFTER INSERT ON {t} BEGIN
  {_mark(table, new_key, 0, "NULL")}
END;
CREATE TRIGGER "_sb_upd_{table}" AFTER UPDATE ON {t} BEGIN
  {_mark(table, old_key, 1, old)}
  {_mark(table, new_key, 0, "NULL")}
END;
CREATE TRIGGER "_sb_del_{table}" AFTER DELETE ON {t} BEGIN
  {_mark(table, old_key, 1, old)}
END;
"""


@dataclass(frozen=True)
class Snapshot:
    """A serialized pristine database: schema, seed rows, capture triggers, sequences."""

    spec: WorldSpec
    image: bytes
    tables: tuple[str, ...]
    table_columns: dict[str, tuple[str, ...]]

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
                pk = spec.table(t).primary_key
                if pk not in cols[t]:
                    raise ValueError(f"world {spec.name!r}: table {t!r} has no primary key column {pk!r}")
                conn.executescript(_capture_triggers(t, pk, list(cols[t])))
            conn.executemany(
                "INSERT INTO _sb_sequences VALUES (?, ?, ?)",
                [(n, s.prefix, s.start) for n, s in spec.sequences.items()],
            )
            conn.execute("DELETE FROM _sb_changes")
            conn.execute("VACUUM")
            return cls(spec, conn.serialize(), tuple(tables), cols)
        finally:
            conn.close()
