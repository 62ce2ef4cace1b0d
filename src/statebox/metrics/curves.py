"""pass@k and pass^k as curves over k = 1..K, every point over one task set: the tasks with n >= K.

Over one set, each task's pass@k grows with k and its pass^k shrinks, so the curves are monotone
as the definitions require. Letting each k keep its own tasks (n >= k) is not: when errors or
faults are more likely on failing attempts, the tasks that drop out at large k are the hard ones,
and pass@4 could read below pass@3. `curve_tasks` is that set; every point says how many it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from statebox.metrics.aggregates import task_values
from statebox.metrics.counts import TaskCounts, max_attempts
from statebox.metrics.estimators import Estimator, pass_at_k, pass_hat_k, pass_hat_k_plugin


@dataclass(frozen=True)
class CurvePoint:
    """The mean estimate at `k` over the `tasks` tasks of the curve's set."""

    k: int
    value: float
    tasks: int


def curve_tasks(counts: Sequence[TaskCounts], up_to: int) -> list[TaskCounts]:
    """The one task set of every point up to k = `up_to`: the tasks with at least `up_to` attempts."""
    return [t for t in counts if t.n >= max(up_to, 1)]


def curve(counts: Sequence[TaskCounts], estimator: Estimator, up_to: int | None = None) -> list[CurvePoint]:
    """The estimator's run-level mean at every k from 1 to `up_to` (default the largest n)."""
    top = max_attempts(counts) if up_to is None else up_to
    tasks = curve_tasks(counts, top)
    if not tasks:
        return []
    return [CurvePoint(k=k, value=fmean(task_values(tasks, estimator, k)), tasks=len(tasks)) for k in range(1, top + 1)]


def pass_at_k_curve(counts: Sequence[TaskCounts], up_to: int | None = None) -> list[CurvePoint]:
    """pass@k for k = 1..up_to."""
    return curve(counts, pass_at_k, up_to)


def pass_hat_k_curve(counts: Sequence[TaskCounts], up_to: int | None = None) -> list[CurvePoint]:
    """pass^k for k = 1..up_to."""
    return curve(counts, pass_hat_k, up_to)


def pass_hat_k_plugin_curve(counts: Sequence[TaskCounts], up_to: int | None = None) -> list[CurvePoint]:
    """Plug-in pass^k for k = 1..up_to (biased upward; for comparison only)."""
    return curve(counts, pass_hat_k_plugin, up_to)
