"""A trial's stored `effects` (Effects.to_json()) read back as `world.Effects`, for judging again."""

from __future__ import annotations

from typing import Any

from statebox.world import Effects, RowChange
from statebox.world.spec import WorldSpec


class StoredEffectsError(ValueError):
    """A trial's `effects` that do not have the shape Effects.to_json() writes."""


def effects_from_json(data: dict[str, Any], world: WorldSpec) -> Effects:
    """The row changes as the judge saw them. Updated rows carry only their changed fields (before and
    after), which is all the judge compares; inserted and deleted rows are whole."""
    try:
        changes = [
            *(RowChange(table=t, key=_key(world, t, row), kind="insert", after=row) for t, rows in
              _tables(data, "inserted") for row in rows),
            *(_update(t, u) for t, rows in _tables(data, "updated") for u in rows),
            *(RowChange(table=t, key=_key(world, t, row), kind="delete", before=row) for t, rows in
              _tables(data, "deleted") for row in rows),
        ]  # fmt: skip
    except (TypeError, AttributeError, KeyError) as e:
        raise StoredEffectsError(f"effects are not in the stored shape ({type(e).__name__}: {e})") from None
    return Effects(changes=changes)


def _tables(data: dict[str, Any], kind: str) -> list[tuple[str, list[Any]]]:
    return sorted((data.get(kind) or {}).items())


def _update(table: str, stored: dict[str, Any]) -> RowChange:
    fields = stored["fields"]
    before = {f: v["before"] for f, v in fields.items()}
    after = {f: v["after"] for f, v in fields.items()}
    return RowChange(table=table, key=stored["key"], kind="update", before=before, after=after)


def _key(world: WorldSpec, table: str, row: dict[str, Any]) -> Any:
    return world.table(table).key_of(row)
