"""Intervals for means of per-task values in [0, 1] that stay honest at 0 and 1.

Each task is one unit (its attempts are correlated). With T tasks, mean p and task-clustered
variance of the mean v = s^2 / T, the interval is the Wilson score interval for p with the
*effective number of tasks* n_eff = p (1 - p) / v (Korn and Graubard's effective sample size),
scaled by (z / t_{T-1})^2 for the few degrees of freedom:

- a [0, 1] variable has variance at most p (1 - p), so n_eff is at least about T; when the
  tasks carry no spread to estimate (p is 0 or 1, or every task has the same value) n_eff is
  T, the binary worst case, so the interval never has zero width;
- n_eff is capped at the number of independent looks behind the values: the attempts for pass@1,
  the disjoint groups of k attempts (sum of n_t / k) for an estimate at k.

The interval is Wilson's with continuity correction, which keeps its coverage next to 0 and 1:
there it is asymmetric and stays inside [0, 1], where a normal interval is clamped to a point;
in the middle it is the usual t interval. Ratios (costs, retention) are in ratio.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import fmean

from statebox.metrics.aggregates import task_values
from statebox.metrics.counts import TaskCounts
from statebox.metrics.estimators import Estimator
from statebox.metrics.quantiles import normal_quantile, t_quantile


@dataclass(frozen=True)
class Interval:
    """A confidence interval; `hi` is None when there is no upper bound (a ratio over maybe 0)."""

    lo: float
    hi: float | None

    @property
    def width(self) -> float | None:
        return None if self.hi is None else self.hi - self.lo

    def contains(self, value: float) -> bool:
        return self.lo <= value and (self.hi is None or value <= self.hi)


def hull(*intervals: Interval | None) -> Interval | None:
    """The smallest interval holding every given one (None when none is given); unbounded if one is."""
    known = [i for i in intervals if i is not None]
    if not known:
        return None
    highs = [i.hi for i in known]
    return Interval(min(i.lo for i in known), None if None in highs else max(h for h in highs if h is not None))


@dataclass(frozen=True)
class ClusteredEstimate:
    """pass@1 over `tasks` tasks: its clustered standard error (None for one task) and interval."""

    estimate: float
    standard_error: float | None
    lo: float
    hi: float
    tasks: int
    effective_tasks: float


def check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def critical_values(tasks: int, confidence: float) -> tuple[float, float]:
    """(z, t): the two-sided normal and Student (tasks - 1 degrees of freedom) critical values."""
    check_confidence(confidence)
    q = (1 + confidence) / 2
    z = normal_quantile(q)
    return z, (t_quantile(q, tasks - 1) if tasks >= 2 else z)


def clustered_standard_error(values: Sequence[float]) -> float | None:
    """Standard error of the mean of per-task values; None for fewer than two tasks."""
    size = len(values)
    if size < 2:
        return None
    mean = fmean(values)
    return sqrt(sum((v - mean) ** 2 for v in values) / (size * (size - 1)))


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson score interval with continuity correction for a proportion p over n units.

    n may be fractional (an effective number). The correction keeps coverage at the nominal
    level next to 0 and 1, where the plain score interval dips (p = 0.987 over 40 tasks: 0.91).
    """
    if n <= 0:
        raise ValueError(f"need a positive number of units, got {n}")
    x, q, z2, denominator = n * p, 1 - p, z * z, 2 * (n + z * z)
    lo = 0.0
    if p > 0:
        lo = (2 * x + z2 - 1 - z * sqrt(max(0.0, z2 - 2 - 1 / n + 4 * p * (n * q + 1)))) / denominator
    hi = 1.0
    if p < 1:
        hi = (2 * x + z2 + 1 + z * sqrt(max(0.0, z2 + 2 - 1 / n + 4 * p * (n * q - 1)))) / denominator
    return max(0.0, min(lo, p)), min(1.0, max(hi, p))


def effective_tasks(values: Sequence[float], information_cap: float | None = None) -> float:
    """Korn-Graubard effective number of tasks, before the degrees-of-freedom correction."""
    size = len(values)
    p = fmean(values)
    se = clustered_standard_error(values)
    spread_known = se is not None and se > 0 and 0 < p < 1
    n_eff = p * (1 - p) / se**2 if spread_known and se is not None else float(size)
    return n_eff if information_cap is None else max(1.0, min(n_eff, information_cap))


def bounded_mean_interval(
    values: Sequence[float], *, information_cap: float | None = None, confidence: float = 0.95
) -> Interval | None:
    """Interval for the mean of per-task values in [0, 1]; None for no tasks. Never zero width."""
    if not values:
        return None
    if any(not 0 <= v <= 1 for v in values):
        raise ValueError("per-task values must lie in [0, 1]")
    z, t = critical_values(len(values), confidence)
    n_eff = effective_tasks(values, information_cap) * (z / t) ** 2
    lo, hi = wilson(fmean(values), n_eff, z)
    return Interval(lo, hi)


def pass_at_1_standard_error(counts: Sequence[TaskCounts]) -> float | None:
    """Task-clustered standard error of pass@1; None for fewer than two attempted tasks."""
    return clustered_standard_error([t.c / t.n for t in counts if t.n >= 1])


def pass_at_1_interval(counts: Sequence[TaskCounts], confidence: float = 0.95) -> ClusteredEstimate | None:
    """pass@1 with its clustered standard error and bounded interval; None without attempts."""
    attempted = [t for t in counts if t.n >= 1]
    rates = [t.c / t.n for t in attempted]
    cap = sum(t.n for t in attempted)
    interval = bounded_mean_interval(rates, information_cap=cap, confidence=confidence)
    if interval is None or interval.hi is None:
        return None
    return ClusteredEstimate(
        estimate=fmean(rates),
        standard_error=clustered_standard_error(rates),
        lo=interval.lo,
        hi=interval.hi,
        tasks=len(rates),
        effective_tasks=effective_tasks(rates, cap),
    )


def estimator_interval(
    counts: Sequence[TaskCounts], estimator: Estimator, k: int, *, confidence: float = 0.95
) -> Interval | None:
    """Interval of the run-level mean of a per-task estimator at k, over the tasks with n >= k."""
    eligible = [t for t in counts if t.n >= k]
    values = task_values(eligible, estimator, k)
    # n attempts hold n / k disjoint groups of k: no more independent looks at a k-attempt event.
    cap = sum(t.n for t in eligible) / k
    return bounded_mean_interval(values, information_cap=cap, confidence=confidence)


def share_interval(flags: Sequence[bool], *, confidence: float = 0.95) -> Interval | None:
    """Interval for the share of tasks with a property (e.g. dependable): a binary mean."""
    return bounded_mean_interval([1.0 if f else 0.0 for f in flags], confidence=confidence)
