"""`statebox verify`: is a run what it says it is? One verdict per check, each naming what failed.

- canonical: every task has its k attempts, no infrastructure error and no simulator fault is left;
- suite: the suite as it would run today hashes as the manifest pinned it;
- digest: no trial line was altered since it was appended (the chained trials.digest);
- headline: the report's pass@1 and pass^k recompute from the trial records;
- source (imported runs only): the imported file is still the one whose SHA-256 the manifest pinned.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Literal

from statebox.importing.engine import source_problem
from statebox.offline.digest_check import digest_problem
from statebox.offline.run_suite import open_run_suite
from statebox.report.aggregate import report_document
from statebox.report.models import RunEntry
from statebox.report.runs import ReportInputError, load_runs
from statebox.runner.manifest import Manifest
from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir, RunDirError
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import SuiteError

CheckName = Literal["canonical", "suite", "digest", "headline", "source"]
SuiteOpener = Callable[[RunDir], tuple[TaskSet, list[str]]]
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Check:
    name: CheckName
    ok: bool
    detail: str


@dataclass
class Verification:
    run: Path
    pins: list[str] = field(default_factory=list)  # what the manifest pins, for the reader
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def verify_run(path: Path, open_suite: SuiteOpener | None = None) -> Verification:
    """Every check on one run directory (a directory that cannot be read at all fails every check)."""
    run, result = RunDir(path), Verification(path)
    opener = open_suite or (lambda r: open_run_suite(r, {}))
    try:
        manifest, trials = run.manifest(), run.trials()
        entries = report_document(load_runs([path])).runs
    except (RunDirError, ReportInputError) as e:
        result.checks = [Check(name, False, str(e)) for name in ("canonical", "suite", "digest", "headline")]
        return result
    result.pins = _pins(manifest)
    result.checks = [
        _canonical(manifest, trials, entries, len(run.errors())),
        _suite(run, manifest, opener),
        Check("digest", (p := digest_problem(path)) is None, p or f"{len(trials)} trial lines match their digests"),
        _headline(trials, entries),
    ]
    if manifest.imported is not None:
        problem = source_problem(manifest)
        imported = f"{manifest.imported.source} is the file imported (SHA-256 as pinned)"
        result.checks.append(Check("source", problem is None, problem or imported))
    return result


def _pins(manifest: Manifest) -> list[str]:
    keys = ("statebox_version", "suite", "task_set_hash", "tasks", "agent", "models", "repeat")
    pinned = manifest.as_json()
    chosen = {k: v for k, v in pinned["sampling"].items() if v is not None}
    return [*(f"{k}: {pinned[k]}" for k in keys), f"sampling: {chosen or 'provider defaults'}"]


def _canonical(manifest: Manifest, trials: list[TrialRecord], entries: list[RunEntry], errors: int) -> Check:
    problems: list[str] = []
    declared = manifest.tasks
    seen = len({t.task_id for t in trials})
    if declared is not None and seen < declared:
        problems.append(f"{declared - seen} of the manifest's {declared} tasks have no finished attempt")
    for e in entries:
        if not e.canonical:
            short = ", ".join(f"{s.task_id} ({s.attempts}/{e.repeats})" for s in e.shortfall[:3])
            who = f"{e.agent} {e.model or '-'}"
            problems.append(f"{who}: {e.short_tasks} task(s) short of {e.repeats} attempts: {short}")
    if errors:
        problems.append(f"{errors} infrastructure error(s) left in errors.jsonl (run --resume retries them)")
    if faulted := [t.trial_id for t in trials if t.simulator_faults]:
        problems.append(f"{len(faulted)} attempt(s) with simulator faults (first: {faulted[0]})")
    detail = "; ".join(problems) or f"every task has its attempts ({len(trials)} in all), nothing left over"
    return Check("canonical", not problems, detail)


def _suite(run: RunDir, manifest: Manifest, opener: SuiteOpener) -> Check:
    try:
        suite, missing = opener(run)
    except (SuiteError, RunDirError, LookupError) as e:
        return Check("suite", False, f"cannot open the run's suite today: {e}")
    if missing:
        return Check("suite", False, f"task(s) no longer in the suite: {', '.join(missing)}")
    pinned, today = manifest.task_set_hash, suite.content_hash()
    if pinned != today:
        return Check("suite", False, f"the suite hashes {today} today, the run pinned {pinned}: {_changed(run, suite)}")
    return Check("suite", True, f"{suite.name}: {len(suite.tasks)} tasks hash {today}, as pinned")


def _changed(run: RunDir, suite: TaskSet) -> str:
    recorded = {t.task_id: t.task_hash for t in run.trials()}
    changed = sorted(t.id for t in suite.tasks if recorded.get(t.id) not in (None, "", t.content_hash()))
    return f"changed task(s): {', '.join(changed)}" if changed else "the selection of tasks differs"


def _headline(trials: list[TrialRecord], entries: list[RunEntry]) -> Check:
    by_group: dict[tuple[str, str, str | None], dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for t in trials:
        if not t.simulator_faults:  # the simulator's failures are not the agent's: reports leave them out
            by_group[(t.suite, t.agent, t.model)][t.task_id].append(t.passed)
    problems, shown = [], []
    for e in entries:
        tasks = by_group.get((e.suite, e.agent, e.model), {})
        p1 = _mean([sum(v) / len(v) for v in tasks.values()])
        pk = _mean([comb(sum(v), e.repeats) / comb(len(v), e.repeats) for v in tasks.values() if len(v) >= e.repeats])
        label = f"{e.agent} {e.model or '-'}"
        for name, reported, recomputed in (("pass@1", e.pass_at_1, p1), (f"pass^{e.repeats}", e.pass_hat_k.get(
                str(e.repeats)), pk)):  # fmt: skip
            if not _same(reported, recomputed):
                problems.append(f"{label}: {name} reported {reported}, recomputed {recomputed}")
        shown.append(f"{label}: pass@1 {_pct(p1)}, pass^{e.repeats} {_pct(pk)}")
    return Check("headline", not problems, "; ".join(problems or shown))


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _same(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= TOLERANCE)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
