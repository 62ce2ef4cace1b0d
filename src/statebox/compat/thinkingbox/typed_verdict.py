"""statebox's own typed judge on a ThinkingBox-Bench attempt, beside the benchmark's hash rule.

The three states `__reserved__geteffects` returns (initial, result, golden) become two sets of
row changes, the agent's (initial -> result) and the reference's (initial -> golden), which
`judge_state` compares as it does for the built-in domains: existing rows matched by primary key
with field-level before/after, inserted rows matched by content, generated ids never compared as
such. Never by position.

The states carry no schema, so each table's key is read from its rows: `id` when every row has a
distinct one, else the first column that is present and distinct in every row of all three
states, else the whole row (any change is then a delete and an insert). Lists of plain values are
compared as sets of values, as the servers' hash does. Audit timestamps are not judged and prose
fields are judged only for whether they changed: the servers keep such fields out of their hash.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from statebox.compat.thinkingbox.models import TbEffects
from statebox.judge import Discrepancy, JudgingRules, judge_state
from statebox.world import Effects, RowChange, TableSpec, WorldSpec
from statebox.world.effects import ChangeKind

DONT_CARE = frozenset({"created_at", "updated_at"})  # audit timestamps: never judged
FREE_TEXT = frozenset(  # prose the agent words itself: judged only for whether it changed
    {"subject", "description", "body", "details", "reason", "special_notes", "special_requests",
     "business_justification", "preferences"}
)  # fmt: skip
_EPOCH = datetime(2025, 10, 1, 13, 0, tzinfo=UTC)  # the benchmark's "now" (this judge never reads it)
_PLAIN = frozenset({str, int, float, bool, type(None)})  # field types a row is kept as it is with
_TEXT = object()  # tags a key identity that is the key's JSON text
_Tables = dict[str, list[dict[str, Any]]]  # a state read as tables of canonical rows


@dataclass(frozen=True)
class TypedVerdict:
    """The typed judge's verdict on one attempt; `passed` is None when a state could not be read."""

    passed: bool | None
    discrepancies: list[Discrepancy]
    unreadable: list[str]  # servers whose states are not tables of rows

    def to_json(self, hash_passed: bool) -> dict[str, Any]:
        """What the trial's effects keep: the typed verdict and whether it agrees with the hash."""
        agrees = None if self.passed is None else self.passed == hash_passed
        return {"passed": self.passed, "agrees_with_hash": agrees, "unreadable": self.unreadable}


@dataclass(frozen=True)
class ServerChanges:
    """One server's states read as row changes: the agent's and the reference's, and the table specs."""

    specs: dict[str, TableSpec]
    actual: Effects  # initial -> result
    required: Effects  # initial -> golden


def server_changes(effects: TbEffects) -> ServerChanges | None:
    """The agent's and the reference's changes on one server; None when its states are not
    `{table: [row, ...]}` with a usable key per table."""
    initial = _tables(effects.initial_db_state)
    base = (effects.initial_db_state, initial) if initial is not None else None
    result = _tables(effects.result_db_state, base)
    golden = _tables(effects.golden_db_state, base)
    if initial is None or result is None or golden is None:
        return None
    specs: dict[str, TableSpec] = {}
    for table in sorted(set(initial) | set(result) | set(golden)):
        key = table_key([initial.get(table, []), result.get(table, []), golden.get(table, [])])
        if key is None:
            return None
        specs[table] = TableSpec(table, primary_key=key, free_text=FREE_TEXT, dont_care=DONT_CARE)
    return ServerChanges(specs, state_effects(initial, result, specs), state_effects(initial, golden, specs))


def judge_changes(changes: ServerChanges | None) -> list[Discrepancy]:
    """statebox's judge on one server's changes: the agent's against the reference's."""
    if changes is None:
        return []
    world = WorldSpec(name="thinkingbox", ddl="", tables=changes.specs, now=_EPOCH)
    return judge_state(changes.actual, changes.required, JudgingRules(world)).discrepancies


def table_key(states: list[list[dict[str, Any]]]) -> str | tuple[str, ...] | None:
    """The key column of one table, read from its rows in every state (see the module's doc)."""
    states = list({id(state): state for state in states}.values())  # a table unchanged is one list: read once
    rows = [row for state in states for row in state]
    if not rows:
        return "id"
    common = set(rows[0]).intersection(*rows)
    shared = [c for c in rows[0] if c in common]
    candidates = (["id"] if "id" in shared else []) + [c for c in shared if c != "id"]
    for column in candidates:
        if all(_distinct(state, (column,)) for state in states):
            return column
    return tuple(shared) if shared and all(_distinct(state, tuple(shared)) for state in states) else None


def state_effects(before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]],
                  specs: dict[str, TableSpec]) -> Effects:  # fmt: skip
    """The row changes from `before` to `after`, matched by each table's key."""
    changes: list[RowChange] = []
    for table, spec in sorted(specs.items()):
        if before.get(table) is after.get(table):  # the very list (see `_tables`): nothing changed
            continue
        old = {_key_id(spec.key_of(row)): row for row in before.get(table, [])}
        new = {_key_id(spec.key_of(row)): row for row in after.get(table, [])}
        changed = [k for k in old.keys() | new.keys() if old.get(k) != new.get(k)]
        for ident in sorted(changed, key=lambda k: _key_text(_rows_key(old, new, k, spec))):  # in key text order
            was, now = old.get(ident), new.get(ident)
            key = spec.key_of(now if now is not None else was)  # type: ignore[arg-type]
            kind: ChangeKind = "insert" if was is None else "delete" if now is None else "update"
            changes.append(RowChange(table=table, key=key, kind=kind, before=was, after=now))
    return Effects(changes=changes)


def _tables(state: Any, base: tuple[dict[str, Any], _Tables] | None = None) -> _Tables | None:
    """`state` as tables of canonical rows. With `base` (a state as read, and as this read it), a
    table whose rows equal the base's as read is the base's very list: most tables of an attempt's
    result and golden states equal the initial one's, and the key search and the change extraction
    then see them once and pass over them."""
    if not isinstance(state, dict):
        return None
    out: dict[str, list[dict[str, Any]]] = {}
    for table, rows in state.items():
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            return None
        if base is not None and str(table) in base[1] and rows == base[0].get(table):
            out[str(table)] = base[1][str(table)]
            continue
        # Most fields are plain values: only rows holding a list or a dict are rebuilt.
        out[str(table)] = [
            row if _PLAIN.issuperset(map(type, row.values())) else {k: _canonical(v) for k, v in row.items()}
            for row in rows
        ]
    return out


def _canonical(value: Any) -> Any:
    """Lists of plain values in a stable order (their order is not part of the state)."""
    if isinstance(value, list):
        if _PLAIN.issuperset(map(type, value)):  # the common case, sorted without a copy of each item
            return sorted(value, key=_plain_order) if len(value) > 1 else list(value)
        items = [_canonical(v) for v in value]
        if len(items) > 1 and all(not isinstance(v, dict | list) for v in items):
            return sorted(items, key=_plain_order)
        return items
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    return value


def _plain_order(value: Any) -> tuple[str, str]:
    """A total order on plain JSON values (strings, numbers, booleans, null), by type, then text."""
    return type(value).__name__, str(value)


def _distinct(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> bool:
    keys = {_key_id([row.get(c) for c in columns]) for row in rows}
    return len(keys) == len(rows)


def _key_text(key: Any) -> str:
    return json.dumps(key, sort_keys=True, default=str)


def _key_id(key: Any) -> Hashable:
    """A key's identity: equal exactly when `_key_text` is. A string or integer (or a list of them),
    the most common keys, stands for itself (as a tuple for a list); anything else is its text,
    tagged so that it never equals a string that happens to read like it."""
    if type(key) is str or type(key) is int:
        return key
    if type(key) is list and all(type(v) is str or type(v) is int for v in key):
        return tuple(key)
    return (_TEXT, _key_text(key))


def _rows_key(old: dict[Hashable, dict[str, Any]], new: dict[Hashable, dict[str, Any]], ident: Hashable,
              spec: TableSpec) -> Any:  # fmt: skip
    row = new.get(ident)
    return spec.key_of(row if row is not None else old[ident])
