"""Upserting rows into a database by primary key, with errors that name the table, row and column."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from statebox.world.snapshot import Snapshot


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
            pk = snapshot.spec.table(table).primary_key
            for i, row in enumerate(items):
                _check(table, i, row, cols, pk)
                _upsert(conn, table, pk, i, row)
    except BaseException:
        conn.execute("ROLLBACK TO apply_rows")
        conn.execute("RELEASE apply_rows")
        raise
    conn.execute("RELEASE apply_rows")


def _check(table: str, i: int, row: dict[str, Any], cols: tuple[str, ...], pk: str) -> None:
    if not isinstance(row, dict):
        raise WorldError(f"table {table!r} row {i}: expected a mapping of column -> value")
    unknown = sorted(set(row) - set(cols))
    if unknown:
        raise WorldError(f"table {table!r} row {i}: unknown column(s) {unknown}; columns are {list(cols)}")
    if pk not in row:
        raise WorldError(f"table {table!r} row {i}: missing primary key {pk!r}")


def _upsert(conn: sqlite3.Connection, table: str, pk: str, i: int, row: dict[str, Any]) -> None:
    names = list(row)
    values = [to_sql(row[n]) for n in names]
    try:
        exists = conn.execute(f'SELECT 1 FROM "{table}" WHERE "{pk}" = ?', (row[pk],)).fetchone()
        if exists:
            sets = ", ".join(f'"{n}" = ?' for n in names)
            conn.execute(f'UPDATE "{table}" SET {sets} WHERE "{pk}" = ?', [*values, row[pk]])
        else:
            quoted = ", ".join(f'"{n}"' for n in names)
            conn.execute(f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(names))})', values)
    except sqlite3.IntegrityError as e:
        raise WorldError(f"table {table!r} row {i} ({pk}={row[pk]!r}): {e}") from None


def to_sql(value: Any) -> Any:
    """Store structured values as JSON text; everything else as SQLite stores it."""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value
