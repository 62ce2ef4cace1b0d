"""Grading a ThinkingBox-Bench attempt from the servers' effects reports.

Passed iff every server's result hash equals its golden hash. The server's diff is kept as
statebox discrepancies; the trial keeps the row changes and hashes, never the 100+ KB states.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from statebox.compat.thinkingbox.models import TbDiffItem, TbEffects
from statebox.compat.thinkingbox.protocol import discrepancy_kind
from statebox.judge import Discrepancy, Verdict

MAX_VALUE_CHARS = 2000  # a diff value longer than this as JSON is kept as a shortened text
_PATH = re.compile(r"^(?P<table>[^.\[\]]+)(?:\[(?P<index>\d+)\])?(?:\.(?P<field>.+))?$")


@dataclass(frozen=True)
class TbJudgement:
    """The verdict on an attempt's end state, with what the trial keeps of the effects."""

    verdict: Verdict
    summary: dict[str, Any]  # the trial's effects
    requires_changes: bool  # the golden state differs from the initial one
    changed: bool  # the result state differs from the initial one


def judge_effects(reports: dict[str, TbEffects]) -> TbJudgement:
    """Judge the effects of every server of one attempt (server name -> its report)."""
    several = len(reports) > 1
    found: list[Discrepancy] = []
    for server, effects in reports.items():
        found += discrepancies(effects, f"{server}." if several else "")
    verdict = Verdict(
        passed=all(effects.hash_matches for effects in reports.values()),
        discrepancies=found,
        state_hash=",".join(effects.result_db_hash for effects in reports.values()),
        expected_hash=",".join(effects.golden_db_hash for effects in reports.values()),
    )
    return TbJudgement(
        verdict=verdict,
        summary=summarize(reports),
        requires_changes=any(e.golden_db_state != e.initial_db_state for e in reports.values()),
        changed=any(e.result_db_state != e.initial_db_state for e in reports.values()),
    )


def discrepancies(effects: TbEffects, table_prefix: str = "") -> list[Discrepancy]:
    """The server's diff in statebox's words; rows are named by their id where the states allow."""
    return [_discrepancy(item, effects, table_prefix) for item in effects.diff]


def summarize(reports: dict[str, TbEffects]) -> dict[str, Any]:
    """The trial's `effects`: what the attempt changed, in the shape built-in suites use
    (inserted / updated / deleted per table), plus each server's hashes and the golden run's changes."""
    several = len(reports) > 1
    changed = _empty_changes()
    servers: dict[str, Any] = {}
    for server, effects in reports.items():
        prefix = f"{server}." if several else ""
        mine = row_changes(effects.initial_db_state, effects.result_db_state, prefix)
        golden = row_changes(effects.initial_db_state, effects.golden_db_state, prefix)
        for kind in changed:
            changed[kind].update((mine or _empty_changes())[kind])
        servers[server] = {
            "result_db_hash": effects.result_db_hash,
            "golden_db_hash": effects.golden_db_hash,
            "golden_changes": golden,
            "readable": mine is not None,  # False: the states are not tables of rows with ids
        }
    return {**changed, "servers": servers}


def row_changes(before: Any, after: Any, prefix: str = "") -> dict[str, dict[str, list[Any]]] | None:
    """Row changes between two `{table: [row with id, ...]}` states; None for any other shape."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return None
    out = _empty_changes()
    for table in sorted(set(before) | set(after), key=str):
        old, new = _rows_by_id(before.get(table) or []), _rows_by_id(after.get(table) or [])
        if old is None or new is None:
            if before.get(table) != after.get(table):
                return None
            continue
        name = f"{prefix}{table}"
        inserted = [row for key, row in new.items() if key not in old]
        deleted = [row for key, row in old.items() if key not in new]
        updated = [
            {"key": key, "fields": _field_changes(old[key], row)}
            for key, row in new.items()
            if key in old and old[key] != row
        ]
        for kind, rows in (("inserted", inserted), ("updated", updated), ("deleted", deleted)):
            if rows:
                out[kind][name] = rows
    return out


def _empty_changes() -> dict[str, dict[str, list[Any]]]:
    return {"inserted": {}, "updated": {}, "deleted": {}}


def _rows_by_id(rows: Any) -> dict[str, dict[str, Any]] | None:
    if not isinstance(rows, list) or not all(isinstance(row, dict) and "id" in row for row in rows):
        return None
    return {str(row["id"]): row for row in rows}


def _field_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, dict[str, Any]]:
    fields = sorted(set(old) | set(new))
    return {f: {"before": old.get(f), "after": new.get(f)} for f in fields if old.get(f) != new.get(f)}


def _discrepancy(item: TbDiffItem, effects: TbEffects, table_prefix: str) -> Discrepancy:
    match = _PATH.match(item.path)
    if match is None:
        table, index, field = item.path, None, None
    else:
        table, field = match["table"], match["field"]
        index = int(match["index"]) if match["index"] is not None else None
    key: Any = index
    if index is not None:
        key = _row_id(effects.golden_db_state, table, index) or _row_id(effects.result_db_state, table, index) or index
    expected, actual = item.golden, item.result
    if item.type == "length mismatch" and isinstance(expected, list) and isinstance(actual, list):
        expected, actual = len(expected), len(actual)  # the rows themselves follow as their own items
    return Discrepancy(
        kind=discrepancy_kind(item),
        table=table_prefix + table,
        key=key,
        field=field,
        expected=_small(expected),
        actual=_small(actual),
    )


def _row_id(state: Any, table: str, index: int) -> Any:
    rows = state.get(table) if isinstance(state, dict) else None
    if isinstance(rows, list) and index < len(rows) and isinstance(rows[index], dict):
        return rows[index].get("id")
    return None


def _small(value: Any) -> Any:
    text = json.dumps(value, default=str)
    return value if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 3] + "..."
