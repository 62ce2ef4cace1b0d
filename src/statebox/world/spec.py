"""What a domain tells the world engine about its backend: tables, judged fields, id sequences."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class TableSpec:
    """Judging metadata for one table. Columns themselves come from the DDL."""

    name: str
    primary_key: str = "id"
    free_text: frozenset[str] = frozenset()  # changed or not, never compared for equality
    dont_care: frozenset[str] = frozenset()  # never judged at all (audit timestamps, ...)
    ledger: bool = False  # side effects outside the database: emails, hand-offs, card refunds
    ignored: bool = False  # a table never judged (e.g. an access log)


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

    def table(self, name: str) -> TableSpec:
        """The table's spec; tables without explicit metadata get defaults."""
        return self.tables.get(name) or TableSpec(name)
