"""Upserting rows into a database by primary key, with errors that name the table, row and column."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from statebox.world.snapshot import Snapshot
    from statebox.world.spec import TableSpec


class WorldError(ValueError):
    """Bad data handed to the world (unknown table or column, a row without its key, a broken constraint)."""


def apply_rows(conn: sqlite3.Connection, snapshot: Snapshot, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Upsert rows: an existing row gets the given columns; a new row is inserted. All or nothing."""
    conn.execute("SAVEPOINT apply_rows")
    try:
        for table, items in rows.items():
            cols = snapshot.table_columns.get(table)
            if cols is None:
                raise WorldError(f"unknown table {table!r}; tables are {list(snapshot.tables)}")
            spec = snapshot.spec.table(table)
            for i, row in enumerate(items):
                _check(table, i, row, cols, spec.key_columns)
                _upsert(conn, table, spec, i, row)
    except BaseException:
        conn.execute("ROLLBACK TO apply_rows")
        conn.execute("RELEASE apply_rows")
        raise
    conn.execute("RELEASE apply_rows")


def _check(table: str, i: int, row: dict[str, Any], cols: tuple[str, ...], key: tuple[str, ...]) -> None:
    if not isinstance(row, dict):
        raise WorldError(f"table {table!r} row {i}: expected a mapping of column -> value")
    unknown = sorted(set(row) - set(cols))
    if unknown:
        raise WorldError(f"table {table!r} row {i}: unknown column(s) {unknown}; columns are {list(cols)}")
    missing = [c for c in key if c not in row]
    if missing:
        raise WorldError(f"table {table!r} row {i}: missing primary key {', '.join(map(repr, missing))}")


def _upsert(conn: sqlite3.Connection, table: str, spec: TableSpec, i: int, row: dict[str, Any]) -> None:
    names = list(row)
    values = [to_sql(row[n]) for n in names]
    key = [row[c] for c in spec.key_columns]
    try:
        exists = conn.execute(f'SELECT 1 FROM "{table}" WHERE {spec.key_where()}', key).fetchone()
        if exists:
            sets = ", ".join(f'"{n}" = ?' for n in names)
            conn.execute(f'UPDATE "{table}" SET {sets} WHERE {spec.key_where()}', [*values, *key])
        else:
            quoted = ", ".join(f'"{n}"' for n in names)
            conn.execute(f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(names))})', values)
    except sqlite3.IntegrityError as e:
        shown = ", ".join(f"{c}={row[c]!r}" for c in spec.key_columns)
        raise WorldError(f"table {table!r} row {i} ({shown}): {e}") from None


def to_sql(value: Any) -> Any:
    """Store structured values as JSON text; everything else as SQLite stores it."""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value
