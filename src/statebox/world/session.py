"""One attempt's private copy of a domain backend: restored from the snapshot in about a millisecond."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from statebox.world.effects import Effects, Row, RowChange
from statebox.world.shared import READ_ONLY_ERROR
from statebox.world.snapshot import Snapshot
from statebox.world.upsert import WorldError, apply_rows, to_sql

__all__ = ["Session", "WorldError"]


class Session:
    """A fresh, isolated database with a frozen clock and deterministic id sequences."""

    def __init__(self, snapshot: Snapshot, now: datetime | None = None) -> None:
        self.baseline = snapshot  # the attempt's start: effects are measured against it
        self.spec = snapshot.spec
        self.now: datetime = now or snapshot.spec.now
        self.db = snapshot.open()
        self.db.row_factory = sqlite3.Row
        self._savepoints = 0

    # -- state -----------------------------------------------------------------
    def apply_rows(self, rows: dict[str, list[Row]]) -> None:
        """Upsert rows by primary key (given columns only), then make this the attempt's start.

        Re-baselines by serializing; campaigns instead restore a per-task image (Snapshot.derive).
        """
        base = self.baseline
        mine = {t: r for t, r in rows.items() if t not in self.spec.shared_tables}
        shared = base.shared
        if shared is not None and len(mine) < len(rows):  # a new shared copy for this session's start
            shared = shared.with_rows(base, {t: r for t, r in rows.items() if t in shared.tables})
        apply_rows(self.db, base, mine)
        self.db.execute("DELETE FROM _sb_changes")
        if shared is not base.shared and shared is not None:
            shared.reattach(self.db)
        self.baseline = Snapshot(self.spec, self.db.serialize(), base.tables, base.table_columns, shared)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing: a failed tool call leaves no partial writes."""
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.db.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException as e:
            self.db.execute(f"ROLLBACK TO {name}")
            self.db.execute(f"RELEASE {name}")
            if isinstance(e, sqlite3.OperationalError) and READ_ONLY_ERROR in str(e):
                raise WorldError(
                    f"world {self.spec.name!r}: a write to a shared table (one of "
                    f"{sorted(self.spec.shared_tables)}): shared tables are read-only in every session; "
                    "a table a tool writes must not be declared TableSpec(shared=True)"
                ) from e
            raise
        else:
            self.db.execute(f"RELEASE {name}")
        finally:
            self._savepoints -= 1

    def next_id(self, sequence: str) -> str:
        """The next id of a named sequence; the same calls always give the same ids."""
        row = self.db.execute(
            "UPDATE _sb_sequences SET next = next + 1 WHERE name = ? RETURNING prefix, next - 1",
            (sequence,),
        ).fetchone()
        if row is None:
            raise WorldError(f"unknown id sequence {sequence!r}; declare it in the domain's WorldSpec")
        return f"{row[0]}{row[1]}"

    # -- reading helpers for tools ---------------------------------------------
    def one(self, sql: str, *params: Any) -> Row | None:
        r = self.db.execute(sql, params).fetchone()
        return dict(r) if r is not None else None

    def all(self, sql: str, *params: Any) -> list[Row]:
        return [dict(r) for r in self.db.execute(sql, params).fetchall()]

    def execute(self, sql: str, *params: Any) -> sqlite3.Cursor:
        return self.db.execute(sql, params)

    def insert(self, table: str, row: Row) -> Row:
        """Insert a row and return it as stored."""
        names = list(row)
        quoted = ", ".join(f'"{n}"' for n in names)
        marks = ", ".join("?" for _ in names)
        self.db.execute(f'INSERT INTO "{table}" ({quoted}) VALUES ({marks})', [to_sql(row[n]) for n in names])
        return row

    def update(self, table: str, key: Any, **fields: Any) -> None:
        """Update fields of one row by primary key."""
        spec = self.spec.table(table)
        sets = ", ".join(f'"{n}" = ?' for n in fields)
        params = [*map(to_sql, fields.values()), *spec.key_params(key)]
        self.db.execute(f'UPDATE "{table}" SET {sets} WHERE {spec.key_where()}', params)

    # -- effects ---------------------------------------------------------------
    def effects(self) -> Effects:
        """Net changes since the attempt started; cost proportional to what changed."""
        changes: list[RowChange] = []
        for table, captured in self.db.execute("SELECT DISTINCT tbl, pk FROM _sb_changes ORDER BY tbl, pk").fetchall():
            spec = self.spec.table(table)
            params = spec.key_params(captured)
            cur = self.db.execute(f'SELECT * FROM "{table}" WHERE {spec.key_where()}', params).fetchone()
            now = dict(cur) if cur is not None else None
            before = self.baseline.row(table, params if spec.composite else captured)
            key = params if spec.composite else captured
            if before is None and now is not None:
                changes.append(RowChange(table=table, key=key, kind="insert", after=now))
            elif before is not None and now is None:
                changes.append(RowChange(table=table, key=key, kind="delete", before=before))
            elif before is not None and now is not None and before != now:
                changes.append(RowChange(table=table, key=key, kind="update", before=before, after=now))
        return Effects(changes=changes)

    def close(self) -> None:
        self.db.close()
