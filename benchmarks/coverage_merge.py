"""The "merged shards" setting of bench_interval_coverage.py: a campaign written as two run directories and
read back the way `statebox report A B` reads it (load_runs, report_document), so the numbers checked are
the report's own JSON.

Repeats 0 .. n/2 - 1 go to shard A, the rest to shard B; a tenth of A's records are also copied into B
unchanged (identical duplicates, which a merge keeps once).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any, Protocol

from statebox.metrics import Interval
from statebox.report.aggregate import report_document
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord, trial_id

SUITE, AGENT, MODEL = "builtin", "llm", "fake:coverage"
FAIL_COST = 1.5
ATTEMPT_SIGMA = 0.5
DUPLICATED = 0.1


class Setting(Protocol):
    @property
    def tasks(self) -> int: ...

    @property
    def repeats(self) -> int: ...


def _record(task: int, repeat: int, passed: bool, cost: float) -> TrialRecord:
    task_id = f"t{task}"
    return TrialRecord(
        trial_id=trial_id(SUITE, task_id, AGENT, MODEL, repeat),
        suite=SUITE,
        task_id=task_id,
        domain="retail",
        agent=AGENT,
        model=MODEL,
        user="scripted",
        repeat=repeat,
        seed=repeat,
        passed=passed,
        state_passed=passed,
        finish_reason="customer_ended",
        signature=None if passed else "wrong_state_update",
        cost_usd={"agent": cost, "user": 0.0, "judge": 0.0},
    )


def _write(path: Path, records: list[TrialRecord], setting: Setting) -> None:
    path.mkdir(parents=True)
    manifest = {"suite": SUITE, "agent": AGENT, "models": [MODEL], "repeat": setting.repeats, "tasks": setting.tasks}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (path / "trials.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")


def _bounds(values: Any) -> Interval | None:
    return None if values is None or values[0] is None else Interval(values[0], values[1])


def merged_campaign(
    rng: random.Random, rates: list[float], prices: list[float], setting: Setting, workdir: Path
) -> dict[str, Interval | None]:
    """Write the two shards, report on both, and return the report's intervals by metric name."""
    n, half = setting.repeats, setting.repeats // 2
    shard_a: list[TrialRecord] = []
    shard_b: list[TrialRecord] = []
    for task, (p, u) in enumerate(zip(rates, prices, strict=True)):
        for repeat in range(n):
            passed = rng.random() < p
            cost = u * rng.lognormvariate(-(ATTEMPT_SIGMA**2) / 2, ATTEMPT_SIGMA) * (1 if passed else FAIL_COST)
            (shard_a if repeat < half else shard_b).append(_record(task, repeat, passed, cost))
    shard_b += [r for r in shard_a if rng.random() < DUPLICATED]
    shutil.rmtree(workdir / "a", ignore_errors=True)
    shutil.rmtree(workdir / "b", ignore_errors=True)
    _write(workdir / "a", shard_a, setting)
    _write(workdir / "b", shard_b, setting)
    entry = report_document(load_runs([workdir / "a", workdir / "b"])).runs[0]
    return {
        "pass@1": _bounds(entry.pass_at_1_ci),
        f"pass^{n}": _bounds(entry.pass_hat_k_ci.get(str(n))),
        f"observed {n}/{n} share": _bounds(entry.all_k_ci),
        "cost per success": _bounds(entry.cost.per_success_ci),
        "cost per dependable task": _bounds(entry.cost.per_dependable_task_ci),
    }
