"""The numbers of one group of attempts (a model overall, or one of its domains), as report JSON.

Every definition is in the design note metrics.md; this module only counts attempts and calls
`statebox.metrics`. Attempts must come sorted (the caller sorts), so float sums are
reproducible whatever order the run files were in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from statebox.metrics import (
    Estimator,
    TaskCounts,
    bootstrap_mean,
    cost_per_dependable_task,
    cost_per_successful_attempt,
    dependable_tasks,
    mean_pass_at_k,
    mean_pass_hat_k,
    mean_pass_hat_k_plugin,
    pass_at_1,
    pass_at_1_interval,
    pass_at_k,
    pass_hat_k,
    retention,
    retention_interval,
    task_values,
)

ROLES = ("agent", "user", "judge")
HEADLINE_KS = (1, 5, 10, 20)
BOOTSTRAP_SEED = 0
ERRORS_EXCLUDED, ERRORS_AS_FAILURES = "errors-excluded", "errors-as-failures"


@dataclass(frozen=True)
class Attempt:
    """One attempt as the metrics see it: a finished trial, or an infrastructure error."""

    task_id: str
    domain: str
    passed: bool
    cost: Mapping[str, float | None]  # role -> USD; None when no price is known
    signature: str | None = None
    kinds: frozenset[str] = frozenset()
    error_kind: str | None = None  # set only for an infrastructure error

    @property
    def infra_error(self) -> bool:
        return self.error_kind is not None


def headline_ks(repeats: int) -> list[int]:
    """The k of the tables: 1, 5, 10, 20 where <= n, and n itself."""
    return sorted({k for k in HEADLINE_KS if k <= repeats} | ({repeats} if repeats >= 1 else set()))


def counted(attempts: Sequence[Attempt], errors_as_failures: bool) -> list[Attempt]:
    """The attempts the estimators see under the chosen convention."""
    return [a for a in attempts if errors_as_failures or not a.infra_error]


def task_counts(attempts: Sequence[Attempt], errors_as_failures: bool) -> list[TaskCounts]:
    """n and c per task, sorted by task id; a task with only excluded errors has n = 0."""
    n: Counter[str] = Counter()
    c: Counter[str] = Counter()
    for a in counted(attempts, errors_as_failures):
        n[a.task_id] += 1
        c[a.task_id] += a.passed
    return [TaskCounts(t, n[t], c[t]) for t in sorted({a.task_id for a in attempts})]


def summarize(attempts: Sequence[Attempt], repeats: int, *, errors_as_failures: bool) -> dict[str, Any]:
    """Every report key except identity and by_domain, in the documented order."""
    counts = task_counts(attempts, errors_as_failures)
    used = counted(attempts, errors_as_failures)
    ks = range(1, repeats + 1)
    shortfall = [{"task_id": t.task_id, "attempts": t.n, "missing": repeats - t.n} for t in counts if t.n < repeats]
    interval = pass_at_1_interval(counts)
    errors = [a for a in attempts if a.infra_error]
    return {
        "tasks": len(counts),
        "repeats": repeats,
        "attempts": len(used),
        "infra_errors": len(errors),
        "infra_error_kinds": _tally(a.error_kind for a in errors),
        "canonical": bool(counts) and not shortfall,
        "convention": ERRORS_AS_FAILURES if errors_as_failures else ERRORS_EXCLUDED,
        "shortfall": shortfall,
        "pass_at_1": pass_at_1(counts),
        "pass_at_1_ci": None if interval is None else [interval.lo, interval.hi],
        "pass_at_k": {str(k): mean_pass_at_k(counts, k) for k in ks},
        "pass_hat_k": {str(k): mean_pass_hat_k(counts, k) for k in ks},
        "pass_hat_k_plugin": {str(k): mean_pass_hat_k_plugin(counts, k) for k in ks},
        "pass_at_k_ci": _intervals(counts, pass_at_k, repeats),
        "pass_hat_k_ci": _intervals(counts, pass_hat_k, repeats),
        "all_k_tasks": dependable_tasks(counts),
        "all_k_share": _share(dependable_tasks(counts), sum(1 for t in counts if t.n >= 1)),
        "retention": retention(counts, repeats) if repeats >= 1 else None,
        "retention_k": repeats,
        "retention_ci": _pair(retention_interval(counts, repeats, seed=BOOTSTRAP_SEED)) if repeats >= 1 else None,
        "cost": cost_summary(used, counts),
        "signatures": _tally(a.signature for a in used if not a.passed and not a.infra_error),
        "discrepancy_kinds": _tally(k for a in used if not a.passed for k in a.kinds),
    }


def cost_summary(attempts: Sequence[Attempt], counts: Sequence[TaskCounts]) -> dict[str, float | None]:
    """Totals per role over the attempts; per-success figures use the agent's cost (the headline).

    An infrastructure error counted as a failure recorded no cost, so it counts as 0.
    """
    roles = {role: _role_total(attempts, role) for role in ROLES}
    known = [v for v in roles.values() if v is not None]
    per_task: dict[str, list[float | None]] = {}
    for a in attempts:
        per_task.setdefault(a.task_id, []).append(0.0 if a.infra_error else a.cost.get("agent"))
    return {
        "total_usd": sum(known) if len(known) == len(ROLES) else None,
        "agent_usd": roles["agent"],
        "user_usd": roles["user"],
        "judge_usd": roles["judge"],
        "per_success_usd": cost_per_successful_attempt(counts, per_task),
        "per_dependable_task_usd": cost_per_dependable_task(counts, per_task),
    }


def _role_total(attempts: Sequence[Attempt], role: str) -> float | None:
    total = 0.0
    for a in attempts:
        if a.infra_error:
            continue
        value = a.cost.get(role)
        if value is None:
            return None
        total += value
    return total


def _intervals(counts: Sequence[TaskCounts], estimator: Estimator, repeats: int) -> dict[str, list[float] | None]:
    """Task-level bootstrap intervals at the headline k (the estimators are per-task additive)."""
    return {
        str(k): _pair(bootstrap_mean(task_values(counts, estimator, k), seed=BOOTSTRAP_SEED))
        for k in headline_ks(repeats)
    }


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [interval[0], interval[1]]


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _tally(values: Any) -> dict[str, int]:
    counter = Counter(v for v in values if v is not None)
    return {name: counter[name] for name in sorted(counter)}
