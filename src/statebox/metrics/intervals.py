"""pass@1 with a task-clustered standard error and a normal-approximation interval.

Each task's pass rate p_t = c_t / n_t is the unit (its attempts are correlated, so they are
not independent draws). With T tasks and mean p:  SE = sqrt( sum_t (p_t - p)^2 / (T (T - 1)) ),
i.e. the sample standard deviation of the p_t over sqrt(T). Interval: p +/- z * SE, clamped
to [0, 1]. Retention, a ratio, gets a task-level bootstrap interval instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist, fmean

from statebox.metrics.aggregates import task_values
from statebox.metrics.bootstrap import MIN_RESAMPLES, bootstrap_ratio
from statebox.metrics.counts import TaskCounts
from statebox.metrics.estimators import pass_hat_k


@dataclass(frozen=True)
class ClusteredEstimate:
    """pass@1 over `tasks` tasks with its task-clustered standard error and interval."""

    estimate: float
    standard_error: float
    lo: float
    hi: float
    tasks: int


def _task_rates(counts: Sequence[TaskCounts]) -> list[float]:
    return [t.c / t.n for t in counts if t.n >= 1]


def clustered_standard_error(values: Sequence[float]) -> float | None:
    """Standard error of the mean of per-task values; None for fewer than two tasks."""
    size = len(values)
    if size < 2:
        return None
    mean = fmean(values)
    return sqrt(sum((v - mean) ** 2 for v in values) / (size * (size - 1)))


def pass_at_1_standard_error(counts: Sequence[TaskCounts]) -> float | None:
    """Task-clustered standard error of pass@1; None for fewer than two attempted tasks."""
    return clustered_standard_error(_task_rates(counts))


def pass_at_1_interval(
    counts: Sequence[TaskCounts], confidence: float = 0.95
) -> ClusteredEstimate | None:
    """pass@1 with a clustered-SE normal interval clamped to [0, 1]; None for < 2 tasks."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    rates = _task_rates(counts)
    se = clustered_standard_error(rates)
    if se is None:
        return None
    estimate = fmean(rates)
    half_width = NormalDist().inv_cdf((1 + confidence) / 2) * se
    return ClusteredEstimate(
        estimate=estimate,
        standard_error=se,
        lo=max(0.0, estimate - half_width),
        hi=min(1.0, estimate + half_width),
        tasks=len(rates),
    )


def retention_interval(
    counts: Sequence[TaskCounts],
    k: int,
    *,
    seed: int = 0,
    resamples: int = MIN_RESAMPLES,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Bootstrap interval of retention at k, resampling only the tasks with n >= k."""
    eligible = [t for t in counts if t.n >= k]
    return bootstrap_ratio(
        task_values(eligible, pass_hat_k, k),
        _task_rates(eligible),
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )
