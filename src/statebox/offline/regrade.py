"""`statebox regrade`: every stored attempt of a run judged again, into a new run directory.

Nothing is asked of a model or a tool server: the stored effects and transcript are judged with
today's judge, trace checks and task definitions (required effects from today's reference). The
original directory is only read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from statebox.judge import ReferenceFailed
from statebox.offline.headline import Headline, headlines
from statebox.offline.rejudge import Judge, rejudge
from statebox.offline.stored_effects import StoredEffectsError
from statebox.runner.manifest import Manifest, Regraded
from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.world import Effects


class RegradeError(ValueError):
    """A regrade that cannot be done as asked (one line: the directory, task or trial)."""


@dataclass(frozen=True)
class Flip:
    """An attempt whose verdict changed, and why."""

    trial_id: str
    before: bool
    after: bool
    reason: str


@dataclass
class RegradeResult:
    out: Path
    trials: int
    flips: list[Flip] = field(default_factory=list)
    changed_tasks: list[str] = field(default_factory=list)  # definition changed since the run (content hash)
    missing_tasks: list[str] = field(default_factory=list)  # no longer in the suite: kept as recorded
    notes: list[str] = field(default_factory=list)  # what could not be redone
    before: list[Headline] = field(default_factory=list)
    after: list[Headline] = field(default_factory=list)


def regrade_run(source: Path, out: Path, suite: TaskSet, missing_tasks: list[str]) -> RegradeResult:
    """Judge every trial of `source` again with `suite` (today's tasks of the run) and write them to `out`."""
    src, dst = RunDir(source), RunDir(out)
    if out.resolve() == source.resolve():
        raise RegradeError(f"{out}: regrade never writes into the run it reads; choose another --out")
    if dst.exists():
        raise RegradeError(f"{out} already holds a run; choose another --out")
    manifest, trials, errors = src.manifest(), src.trials(), src.errors()
    judge = Judge(suite, _required(suite))
    tasks = {t.id: t for t in suite.tasks}
    result = RegradeResult(out=out, trials=len(trials), missing_tasks=missing_tasks)
    result.changed_tasks = sorted({t.task_id for t in trials if t.task_id in tasks and t.task_hash
                                   and t.task_hash != tasks[t.task_id].content_hash()})  # fmt: skip
    if not judge.redoes_state:
        result.notes.append(
            f"suite {suite.name!r}: the state verdict is its tool servers' result hash against the golden hash, "
            "which needs the servers; it is kept as recorded. Trace checks, simulator faults and signatures "
            "were judged again."
        )
    regraded = [_one(t, tasks, judge) for t in trials]
    result.flips = [_flip(old, new) for old, new in zip(trials, regraded, strict=True) if old.passed != new.passed]
    dst.write_manifest(_manifest(manifest, source, suite, result))
    for record in regraded:
        dst.append_trial(record)
    for error in errors:
        dst.append_error(error)
    result.before, result.after = headlines(source), headlines(out)
    return result


def _required(suite: TaskSet) -> dict[str, list[Effects]]:
    try:
        return {t.id: required for t in suite.tasks if (required := suite.required_effects(t)) is not None}
    except ReferenceFailed as e:
        raise RegradeError(f"{e} — this is a task bug; run `statebox validate`") from None


def _one(record: TrialRecord, tasks: dict[str, Task], judge: Judge) -> TrialRecord:
    task = tasks.get(record.task_id)
    if task is None:
        return record
    try:
        return rejudge(record, task, judge)
    except StoredEffectsError as e:
        raise RegradeError(f"trial {record.trial_id}: {e}") from None


def _flip(old: TrialRecord, new: TrialRecord) -> Flip:
    if new.passed:
        was = old.discrepancies[0].describe() if old.discrepancies else f"signature {old.signature}"
        return Flip(old.trial_id, old.passed, True, f"now passes (was: {was})")
    found = [d.describe() for d in new.discrepancies if d not in old.discrepancies] or [
        d.describe() for d in new.discrepancies
    ]
    return Flip(old.trial_id, old.passed, False, f"{new.signature}: " + "; ".join(found[:3]))


def _manifest(manifest: Manifest, source: Path, suite: TaskSet, result: RegradeResult) -> Manifest:
    regraded = Regraded(
        from_=str(source.resolve()),
        at=datetime.now(UTC).isoformat(timespec="seconds"),
        tasks_changed=result.changed_tasks,
        tasks_missing=result.missing_tasks,
        state_rejudged=not result.notes,
    )
    task_set_hash = suite.content_hash() if not result.missing_tasks else manifest.task_set_hash
    return manifest.model_copy(update={"task_set_hash": task_set_hash, "regraded": regraded})
