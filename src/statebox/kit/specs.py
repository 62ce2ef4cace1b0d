"""Declaring a domain's tables in few lines: judging specs shared by several tables, id sequences from one start."""

from __future__ import annotations

from typing import Any

from statebox.world import Sequence, TableSpec


def table_specs(*names: str, **options: Any) -> list[TableSpec]:
    """One TableSpec per table, every one with the same options: table_specs("refunds", "charges", ledger=True)."""
    return [TableSpec(name, **options) for name in names]


def id_sequences(start: int, **prefixes: str | tuple[str, int]) -> dict[str, Sequence]:
    """One id sequence per table, in the order given, from `start` unless a table gives its own:
    id_sequences(50001, cards="CRD-", transactions=("TXN-", 500001)) ids CRD-50001... and TXN-500001..."""
    return {table: Sequence(*p) if isinstance(p, tuple) else Sequence(p, start) for table, p in prefixes.items()}
