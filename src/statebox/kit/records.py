"""Helpers every domain's tools share: ids as people type them, lookups with hints, money, the clock."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from statebox.tools import NotFound
from statebox.tools.quoting import shorten as shorten  # re-exported: the kit's tools quote ids with it
from statebox.world import Row, Session


def normalize_id(value: str, prefix: str) -> str:
    """Accept what people type: 'ord-10234', ' ORD-10234 ' and '10234' all mean ORD-10234."""
    v = value.strip().upper().replace(" ", "")
    return f"{prefix}-{v}" if v.isdigit() else v


def fetch(db: Session, table: str, key: str, what: str, hint: str) -> Row:
    """The row with this id, or NotFound naming what was looked for (a long id is shown cut short)."""
    return found(db.one(f'SELECT * FROM "{table}" WHERE id = ?', key), f"no {what} with id {shorten(key)!r}.", hint)


def found(row: Row | None, missing: str, hint: str | None = None) -> Row:
    """The row a query found, or NotFound saying what is `missing` (and the `hint` to recover) when it found none."""
    if row is None:
        raise NotFound(missing, hint=hint)
    return row


def money(value: float | int | str | Decimal) -> float:
    """An amount rounded half-up to the cent (2.345 -> 2.35), as every policy in the kit states it."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) + 0.0


def now_iso(db: Session) -> str:
    """The attempt's frozen clock, as stored in every timestamp column."""
    return db.now.isoformat()


def today(db: Session) -> str:
    """The attempt's frozen date (YYYY-MM-DD)."""
    return db.now.date().isoformat()


def json_list(text: str | None) -> list[Any]:
    return json.loads(text) if text else []


def compact(row: Row, *drop: str) -> Row:
    """A row without empty fields and internal columns: what the agent needs to read."""
    return {k: v for k, v in row.items() if v is not None and k not in drop}
