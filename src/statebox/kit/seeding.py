"""Seed rows built in memory from one fixed random stream, then inserted table by table."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from typing import Any

Row = dict[str, Any]
Rows = dict[str, list[Row]]


class SeedRows:
    """Every seed row of a domain, by table, in the order it was added; a domain's seed builder extends it.

    `r` is the one random stream every choice comes from (a fixed `seed`, so the rows are the same every time);
    `next_id` numbers each prefix on its own.
    """

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.rows: Rows = {}
        self._next: dict[str, int] = {}

    def add(self, table: str, row: Row) -> Row:
        """Append `row` to `table` and return it (later changes to it are inserted too)."""
        self.rows.setdefault(table, []).append(row)
        return row

    def next_id(self, prefix: str, start: int) -> str:
        """The prefix's next id: f"{prefix}{start}" the first time, then start + 1, ..."""
        n = self._next.get(prefix, start)
        self._next[prefix] = n + 1
        return f"{prefix}{n}"

    def run(self, *steps: Callable[[], object]) -> Rows:
        """Every row, once the build steps have run in the order given (each adds its tables' rows)."""
        for step in steps:
            step()
        return self.rows


def insert_rows(conn: sqlite3.Connection, rows: Rows) -> None:
    """Insert every table's rows, tables in the order given, columns in the order of the table's first row."""
    for table, batch in rows.items():
        cols = list(batch[0])
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', [[r[c] for c in cols] for r in batch])
