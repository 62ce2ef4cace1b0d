"""Which fields are judged, and how: from the domain's table specs and the task's overrides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statebox.judge.normalize import same_dictated, within_tolerance
from statebox.world import Row, WorldSpec


@dataclass(frozen=True)
class JudgingRules:
    """Per table: fields never judged, free-text fields, primary key, ignored tables."""

    world: WorldSpec
    extra_ignored: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def for_task(cls, world: WorldSpec, ignore_fields: list[str]) -> JudgingRules:
        pairs = frozenset((t, f) for t, f in (x.split(".", 1) for x in ignore_fields))
        return cls(world, pairs)

    def table_ignored(self, table: str) -> bool:
        return self.world.table(table).ignored

    def key_columns(self, table: str) -> tuple[str, ...]:
        return self.world.table(table).key_columns

    def key_of(self, table: str, row: Row) -> Any:
        """The row's key as effects report it: a value, or a list for a composite key."""
        return self.world.table(table).key_of(row)

    def equivalent(self, table: str, field: str, a: Any, b: Any) -> bool:
        """Values that differ but count as the same: within the field's tolerance, or dictated text alike."""
        spec = self.world.table(table)
        if field in spec.tolerance and within_tolerance(a, b, spec.tolerance[field]):
            return True
        return field in spec.normalized and same_dictated(a, b)

    def judged(self, table: str, field: str) -> bool:
        spec = self.world.table(table)
        return field not in spec.dont_care and (table, field) not in self.extra_ignored

    def free_text(self, table: str, field: str) -> bool:
        return field in self.world.table(table).free_text

    def hash_ignored(self) -> dict[str, frozenset[str]]:
        """Fields left out of the canonical state hash: not judged, or free text."""
        out: dict[str, set[str]] = {}
        for name, spec in self.world.tables.items():
            out.setdefault(name, set()).update(spec.dont_care | spec.free_text)
        for t, f in self.extra_ignored:
            out.setdefault(t, set()).add(f)
        return {k: frozenset(v) for k, v in out.items()}
