"""One record per trial id when the same id is in more than one input directory.

Identical records (timings aside) are one attempt read twice and are kept once. Records that differ
are two different attempts under one id: keeping either silently decides the numbers (the earlier
rule kept the one whose JSON sorted first, in practice the cheaper), so they are refused, naming
the ids and files, unless the user chooses `--prefer newest`: the record of the input whose trials
file was written last (its modification time; trial records carry no timestamp of their own).
Within one directory the last record of an id already won (a rerun supersedes), before this.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Literal

from statebox.report.trial_summary import TrialSummary
from statebox.runner.record import TrialRecord

Prefer = Literal["newest"]
LISTED = 3


class MergeConflict(ValueError):
    """Trial ids recorded differently in more than one input; the message is one line naming them."""


def canonical_json(record: TrialRecord) -> str:
    return json.dumps(record.model_dump(mode="json", exclude={"timings"}), sort_keys=True)


def _written_at(record: TrialSummary) -> float:
    return record.at.path.stat().st_mtime


def _conflict_message(conflicts: dict[str, list[TrialSummary]], why: str, advice: str) -> str:
    ids = sorted(conflicts)
    files = sorted({str(r.at.path) for records in conflicts.values() for r in records})
    more = f" and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
    return f"{len(ids)} trial id(s) {why} ({', '.join(ids[:LISTED])}{more}) in {', '.join(files)}; {advice}"


def _newest(records: list[TrialSummary]) -> TrialSummary | None:
    """The record of the most recently written input; None when two inputs were written at the same time."""
    by_file = {str(r.at.path): r for r in records}  # a directory given twice is one input
    stamped = sorted(((_written_at(r), path), r) for path, r in by_file.items())
    if len(stamped) > 1 and stamped[-1][0][0] == stamped[-2][0][0]:
        return None
    return stamped[-1][1]


def resolve_duplicates(
    trials: Sequence[TrialSummary], read: Callable[[TrialSummary], TrialRecord], prefer: Prefer | None
) -> tuple[list[TrialSummary], list[str]]:
    """One record per trial id, and the warnings to show; MergeConflict when differing records cannot be chosen."""
    by_id: dict[str, list[TrialSummary]] = defaultdict(list)
    for t in trials:
        by_id[t.trial_id].append(t)
    chosen, differing = [], {}
    for trial_id, records in by_id.items():
        dumps = {canonical_json(read(r)) for r in records} if len(records) > 1 else set()
        if len(dumps) > 1:
            differing[trial_id] = records
        else:
            chosen.append(min(records, key=lambda r: str(r.at.path)))
    if not differing:
        return chosen, []
    if prefer is None:
        advice = "give --prefer newest to keep each one's record from the input written last, or report them apart"
        raise MergeConflict(_conflict_message(differing, "are recorded differently in more than one input", advice))
    newest = {trial_id: _newest(records) for trial_id, records in differing.items()}
    tied = {t: differing[t] for t, r in newest.items() if r is None}
    if tied:
        raise MergeConflict(_conflict_message(tied, "differ in inputs written at the same time", "report them apart"))
    chosen += [r for r in newest.values() if r is not None]
    kept = f"kept the record of the input written last for {len(differing)} trial id(s) recorded differently"
    return chosen, [f"{kept} (--prefer newest): {', '.join(sorted(differing)[:LISTED])}"]
