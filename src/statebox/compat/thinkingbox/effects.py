"""Grading a ThinkingBox-Bench attempt from the servers' effects reports.

`passed` is the benchmark's own rule, so scores stay comparable: every server's result hash equals
its golden hash. The discrepancies are statebox's typed judge on the same states (rows matched by
key or content, see `typed_verdict`), never the servers' positional diff; the typed verdict and
whether it agrees with the hash are kept in the trial's effects beside the row changes and hashes,
never the 100+ KB states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statebox.compat.thinkingbox.models import TbEffects
from statebox.compat.thinkingbox.typed_verdict import ServerChanges, TypedVerdict, judge_changes, server_changes
from statebox.judge import Discrepancy, Verdict

DIFF_SAMPLE = 3  # the servers' diff items kept with the trial, to show where a hash differs


@dataclass(frozen=True)
class TbJudgement:
    """The verdict on an attempt's end state, with what the trial keeps of the effects."""

    verdict: Verdict  # passed: the hash rule; discrepancies: the typed judge's
    typed: TypedVerdict
    summary: dict[str, Any]  # the trial's effects
    requires_changes: bool  # the golden state differs from the initial one
    changed: bool  # the result state differs from the initial one


def judge_effects(reports: dict[str, TbEffects]) -> TbJudgement:
    """Judge the effects of every server of one attempt (server name -> its report)."""
    several = len(reports) > 1
    changes = {server: server_changes(effects) for server, effects in reports.items()}
    found: list[Discrepancy] = []
    for server, read in changes.items():
        prefix = f"{server}." if several else ""
        found += [d.model_copy(update={"table": prefix + d.table}) for d in judge_changes(read)]
    unreadable = [server for server, read in changes.items() if read is None]
    typed = TypedVerdict(passed=None if unreadable else not found, discrepancies=found, unreadable=unreadable)
    hash_passed = all(effects.hash_matches for effects in reports.values())
    verdict = Verdict(
        passed=hash_passed,
        discrepancies=found,
        state_hash=",".join(effects.result_db_hash for effects in reports.values()),
        expected_hash=",".join(effects.golden_db_hash for effects in reports.values()),
    )
    summary = summarize(reports, changes)
    summary["typed"] = typed.to_json(hash_passed)
    return TbJudgement(
        verdict=verdict,
        typed=typed,
        summary=summary,
        requires_changes=any(e.golden_db_state != e.initial_db_state for e in reports.values()),
        changed=any(e.result_db_state != e.initial_db_state for e in reports.values()),
    )


def summarize(reports: dict[str, TbEffects], changes: dict[str, ServerChanges | None]) -> dict[str, Any]:
    """The trial's `effects`: what the attempt changed, in the shape built-in suites use
    (inserted / updated / deleted per table), plus each server's hashes and the golden run's changes."""
    several = len(reports) > 1
    changed: dict[str, dict[str, list[Any]]] = {"inserted": {}, "updated": {}, "deleted": {}}
    servers: dict[str, Any] = {}
    for server, effects in reports.items():
        prefix = f"{server}." if several else ""
        read = changes[server]
        mine = _prefixed(read.actual.to_json(), prefix) if read is not None else None
        for kind in changed:
            changed[kind].update((mine or {}).get(kind, {}))
        servers[server] = {
            "result_db_hash": effects.result_db_hash,
            "golden_db_hash": effects.golden_db_hash,
            "golden_changes": _prefixed(read.required.to_json(), prefix) if read is not None else None,
            "readable": read is not None,  # False: the states are not tables of keyed rows
            "diff_items": len(effects.diff),  # the servers' own positional diff, counted
            "diff_sample": [f"{item.path} ({item.type})" for item in effects.diff[:DIFF_SAMPLE]],  # and its start
        }
    return {**changed, "servers": servers}


def _prefixed(changes: dict[str, dict[str, list[Any]]], prefix: str) -> dict[str, dict[str, list[Any]]]:
    return {kind: {prefix + table: rows for table, rows in tables.items()} for kind, tables in changes.items()}
