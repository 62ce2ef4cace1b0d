"""pass@k and pass^k as curves over k = 1..n_max, each point saying how many tasks it covers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from statebox.metrics.aggregates import task_values
from statebox.metrics.counts import TaskCounts, max_attempts
from statebox.metrics.estimators import Estimator, pass_at_k, pass_hat_k, pass_hat_k_plugin


@dataclass(frozen=True)
class CurvePoint:
    """The mean estimate at `k` over the `tasks` tasks that have n >= k."""

    k: int
    value: float
    tasks: int


def curve(counts: Sequence[TaskCounts], estimator: Estimator) -> list[CurvePoint]:
    """The estimator's run-level mean at every k from 1 to the largest n."""
    points = []
    for k in range(1, max_attempts(counts) + 1):
        values = task_values(counts, estimator, k)
        points.append(CurvePoint(k=k, value=fmean(values), tasks=len(values)))
    return points


def pass_at_k_curve(counts: Sequence[TaskCounts]) -> list[CurvePoint]:
    """pass@k for k = 1..n_max."""
    return curve(counts, pass_at_k)


def pass_hat_k_curve(counts: Sequence[TaskCounts]) -> list[CurvePoint]:
    """pass^k for k = 1..n_max."""
    return curve(counts, pass_hat_k)


def pass_hat_k_plugin_curve(counts: Sequence[TaskCounts]) -> list[CurvePoint]:
    """Plug-in pass^k for k = 1..n_max (biased upward; for comparison only)."""
    return curve(counts, pass_hat_k_plugin)
