"""statebox's own typed judge on a τ-bench attempt, beside τ-bench's hash rule.

τ-bench's state is a dict of collections (airline: users, flights, reservations; retail: users,
orders, products), each a dict from an id to an entry. The server reports the entries that differ
from the pristine data, after the attempt and after the replay of the task's actions; here they
become row changes, which `judge_state` compares as it does for the built-in domains: an entry is
a row keyed by its id, matched by key, field by field (a new entry by content), never by position.

An entry's field that is itself a dict of dicts (a user's `payment_methods`, a flight's `dates`, a
product's `variants`) is a table of its own, `collection.field`, keyed by (id, sub-id): a change to
one date of a flight reads as that date's fields, not as the whole calendar. Every other value (a
reservation's flights list, an order's items) is compared whole. Every field is judged exactly, as
the hash does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from statebox.judge import Discrepancy, JudgingRules, judge_state
from statebox.world import Effects, RowChange, TableSpec, WorldSpec
from statebox.world.effects import ChangeKind

KEY = "_id"  # the column holding an entry's id (entries do not all repeat it as a field)
PARENT = "_of"  # a child table's column holding its parent entry's id
_EPOCH = datetime(2024, 5, 15, 15, 0, tzinfo=UTC)  # τ-bench's "now" (this judge never reads it)

Entries = dict[str, list[dict[str, Any]]]  # collection -> [{key, before, after}] as the server reports them


@dataclass(frozen=True)
class TypedVerdict:
    """The typed judge's verdict on one attempt's state."""

    passed: bool
    discrepancies: list[Discrepancy]

    def to_json(self, hash_passed: bool) -> dict[str, Any]:
        """What the trial keeps: the typed verdict and whether it agrees with τ-bench's hash."""
        return {"passed": self.passed, "agrees_with_hash": self.passed == hash_passed}


def typed_verdict(changes: Entries, golden: Entries) -> TypedVerdict:
    """The agent's changes (pristine -> result) judged against the replay's (pristine -> golden)."""
    specs: dict[str, TableSpec] = {}
    actual, required = row_changes(changes, specs), row_changes(golden, specs)
    world = WorldSpec(name="tau-bench", ddl="", tables=specs, now=_EPOCH)
    found = judge_state(actual, required, JudgingRules(world)).discrepancies
    return TypedVerdict(passed=not found, discrepancies=found)


def row_changes(entries: Entries, specs: dict[str, TableSpec]) -> Effects:
    """The reported entries as row changes; the tables met are added to `specs`."""
    changes: list[RowChange] = []
    for collection, items in sorted(entries.items()):
        for item in items:
            before, after = (
                _rows(collection, item["key"], item.get("before")),
                _rows(collection, item["key"], item.get("after")),
            )
            for table in sorted(before.keys() | after.keys()):
                spec = specs.setdefault(table, TableSpec(table, primary_key=KEY if "." not in table else (PARENT, KEY)))
                changes += _table_changes(spec, before.get(table, {}), after.get(table, {}))
    return Effects(changes=changes)


def to_json(entries: Entries) -> dict[str, dict[str, list[Any]]]:
    """The changes in the trial's `effects` shape: inserted / updated (changed fields) / deleted, per table."""
    out: dict[str, dict[str, list[Any]]] = {"inserted": {}, "updated": {}, "deleted": {}}
    for change in row_changes(entries, {}).changes:
        if change.kind == "insert":
            out["inserted"].setdefault(change.table, []).append(change.after)
        elif change.kind == "delete":
            out["deleted"].setdefault(change.table, []).append(change.before)
        else:
            before, after = change.before or {}, change.after or {}
            fields = {f: {"before": before.get(f), "after": after.get(f)}
                      for f in sorted(before.keys() | after.keys()) if before.get(f) != after.get(f)}  # fmt: skip
            out["updated"].setdefault(change.table, []).append({"key": change.key, "fields": fields})
    return out


def _rows(collection: str, key: Any, entry: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """One entry as rows by table: its own row, and a row per item of each dict-of-dicts field."""
    if entry is None:
        return {}
    if not isinstance(entry, dict):
        return {collection: {str(key): {KEY: key, "value": entry}}}
    own: dict[str, Any] = {KEY: key}
    tables: dict[str, dict[str, dict[str, Any]]] = {}
    for field, value in entry.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            tables[f"{collection}.{field}"] = {str(k): {PARENT: key, KEY: k, **v} for k, v in value.items()}
        else:
            own[field] = value
    tables[collection] = {str(key): own}
    return tables


def _table_changes(
    spec: TableSpec, before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
) -> list[RowChange]:
    changes = []
    for text in sorted(before.keys() | after.keys()):
        was, now = before.get(text), after.get(text)
        if was == now:
            continue
        row = now if now is not None else was
        assert row is not None
        kind: ChangeKind = "insert" if was is None else "delete" if now is None else "update"
        changes.append(RowChange(table=spec.name, key=spec.key_of(row), kind=kind, before=was, after=now))
    return changes
