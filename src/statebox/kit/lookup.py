"""Lookups by id: one line a table declares what a tool's `*_row(db, some_id)` helper used to spell out."""

from __future__ import annotations

from dataclasses import dataclass

from statebox.kit.records import fetch, normalize_id
from statebox.world import Row, Session


@dataclass(frozen=True)
class Lookup:
    """Finds a row of `table` by the id a person types (normalized with `prefix`), or fails naming `what` with
    `hint`: how ids look and which tool finds one. Without a prefix an id is only trimmed and upper-cased
    (ids with no number-only short form)."""

    table: str
    prefix: str | None
    hint: str
    what: str

    def __call__(self, db: Session, value: str) -> Row:
        key = value.strip().upper() if self.prefix is None else normalize_id(value, self.prefix)
        return fetch(db, self.table, key, self.what, self.hint)


def lookup(table: str, prefix: str | None, hint: str, what: str | None = None) -> Lookup:
    """The lookup of `table`'s rows by id; `what` the error calls a row defaults to the table's name in the
    singular ("claim_lines" -> "claim line", "policies" -> "policy")."""
    return Lookup(table, prefix, hint, what or _singular(table.replace("_", " ")))


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") else name
