"""What a domain tells the world engine about its backend: tables, judged fields, id sequences."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class TableSpec:
    """Judging metadata for one table. Columns themselves come from the DDL."""

    name: str
    primary_key: str | tuple[str, ...] = "id"  # a tuple for a composite key
    free_text: frozenset[str] = frozenset()  # changed or not, never compared for equality
    dont_care: frozenset[str] = frozenset()  # never judged at all (audit timestamps, ...)
    ledger: bool = False  # side effects outside the database: emails, hand-offs, card refunds
    ignored: bool = False  # a table never judged (e.g. an access log)
    tolerance: Mapping[str, float] = field(default_factory=dict)  # numbers this close compare equal
    normalized: frozenset[str] = frozenset()  # dictated text (addresses, names): compared after normalisation
    shared: bool = False  # reference data no tool writes: one read-only copy per image, not one per attempt

    @property
    def key_columns(self) -> tuple[str, ...]:
        return (self.primary_key,) if isinstance(self.primary_key, str) else tuple(self.primary_key)

    @property
    def composite(self) -> bool:
        return not isinstance(self.primary_key, str)

    def key_of(self, row: Mapping[str, Any]) -> Any:
        """A row's key: the value of a single key column, or the list of a composite key's values."""
        if isinstance(self.primary_key, str):
            return row[self.primary_key]
        return [row[c] for c in self.primary_key]

    def key_where(self) -> str:
        """The WHERE clause that selects one row by key, with one parameter per key column."""
        return " AND ".join(f'"{c}" = ?' for c in self.key_columns)

    def key_params(self, key: Any) -> list[Any]:
        """Parameters for key_where from a key as key_of returns it (or its JSON text, as captured)."""
        if not self.composite:
            return [key]
        if isinstance(key, str):
            key = json.loads(key)
        return list(key)

    def key_expression(self, alias: str) -> str:
        """SQL for the key of NEW/OLD in a trigger: the column, or a JSON array of the columns."""
        if not self.composite:
            return f'{alias}."{self.primary_key}"'
        return "json_array(" + ", ".join(f'{alias}."{c}"' for c in self.key_columns) + ")"


@dataclass(frozen=True)
class Sequence:
    """A deterministic id sequence: ids are f"{prefix}{n}" for n = start, start + 1, ..."""

    prefix: str
    start: int = 1


@dataclass(frozen=True)
class WorldSpec:
    """Everything needed to build a domain's pristine database."""

    name: str
    ddl: str
    tables: dict[str, TableSpec]
    now: datetime  # the domain's frozen "now"; a task may override it
    seed: Callable[[sqlite3.Connection], None] | None = None
    sequences: dict[str, Sequence] = field(default_factory=dict)
    extra_sql: str = ""  # e.g. read-only search indexes, never change-captured

    @property
    def shared_tables(self) -> frozenset[str]:
        """Tables declared shared: read-only in every session, never change-captured."""
        return frozenset(n for n, t in self.tables.items() if t.shared)

    def table(self, name: str) -> TableSpec:
        """The table's spec; tables without explicit metadata get defaults."""
        return self.tables.get(name) or TableSpec(name)
