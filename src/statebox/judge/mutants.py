"""Mutants of a required end state: each must be caught by the judge, or the task cannot tell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statebox.judge.rules import JudgingRules
from statebox.world import Effects, RowChange


@dataclass(frozen=True)
class Mutant:
    name: str
    effects: Effects


def mutants(required: Effects, rules: JudgingRules) -> list[Mutant]:
    """One per judged field the reference changes, one per required change dropped, one extra row."""
    changes = [c for c in required.changes if not rules.table_ignored(c.table)]
    out: list[Mutant] = []
    for i, c in enumerate(changes):
        for f in _mutable_fields(c, rules):
            assert c.after is not None
            changed = c.model_copy(update={"after": {**c.after, f: _other(c.after[f])}})
            out.append(Mutant(f"wrong {c.table}[{c.key}].{f}", _replace(changes, i, changed)))
        out.append(Mutant(f"drop {c.kind} {c.table}[{c.key}]", Effects(changes=changes[:i] + changes[i + 1 :])))
    if changes:
        source = next((c for c in changes if c.after is not None), changes[0])
        row = dict(source.after or source.before or {})
        for column in rules.key_columns(source.table):
            row[column] = "__mutant_extra__"
        extra = RowChange(table=source.table, key=rules.key_of(source.table, row), kind="insert", after=row)
        out.append(Mutant(f"extra insert into {source.table}", Effects(changes=[*changes, extra])))
    return out


def _mutable_fields(c: RowChange, rules: JudgingRules) -> list[str]:
    if c.kind == "delete" or c.after is None:
        return []
    key = rules.key_columns(c.table)
    judged = [f for f in c.changed_fields if f not in key and rules.judged(c.table, f)]
    return [f for f in judged if not rules.free_text(c.table, f)]


def _other(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if value is None:
        return "mutant"
    return f"{value}-mutant"


def _replace(changes: list[RowChange], i: int, new: RowChange) -> Effects:
    return Effects(changes=[*changes[:i], new, *changes[i + 1 :]])
