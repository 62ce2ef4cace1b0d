"""The headline rates with their intervals, under one convention or both (the error band).

pass@k and pass^k are over one task set for every k, the tasks with `repeats` attempts counted
(metrics/curves.py). When an attempt errored, `error_band` gives pass@1 and pass^k under both
conventions and the hull of their intervals: errors more likely on failing attempts push the
errors-excluded numbers up and the errors-as-failures numbers down, and the truth lies between.
"""

from __future__ import annotations

from collections.abc import Sequence

from statebox.metrics import (
    Estimator,
    Interval,
    TaskCounts,
    curve_tasks,
    estimator_interval,
    hull,
    mean_pass_hat_k,
    pass_at_1,
    pass_at_1_interval,
    pass_hat_k,
)
from statebox.report.models import Bounds, Convention, ConventionRates, ErrorBand

HEADLINE_KS = (1, 5, 10, 20)


def headline_ks(repeats: int) -> list[int]:
    """The k of the tables: 1, 5, 10, 20 where <= n, and n itself."""
    return sorted({k for k in HEADLINE_KS if k <= repeats} | ({repeats} if repeats >= 1 else set()))


def bounds(interval: Interval | None) -> Bounds | None:
    return None if interval is None else [interval.lo, interval.hi]


def intervals_at_k(counts: Sequence[TaskCounts], estimator: Estimator, repeats: int) -> dict[str, Bounds | None]:
    """Bounded intervals at the headline k (the caller gives the one task set, n >= repeats)."""
    return {str(k): bounds(estimator_interval(counts, estimator, k)) for k in headline_ks(repeats)}


def _pass_at_1_interval(counts: Sequence[TaskCounts]) -> Interval | None:
    estimate = pass_at_1_interval(counts)
    return None if estimate is None else Interval(estimate.lo, estimate.hi)


def convention_rates(counts: Sequence[TaskCounts], repeats: int, convention: Convention) -> ConventionRates:
    """pass@1 (tasks with an attempt) and pass^k at the headline k (the curve's tasks) under one convention."""
    curve = curve_tasks(counts, repeats)
    return ConventionRates(
        convention=convention,
        pass_at_1=pass_at_1(counts),
        pass_at_1_ci=bounds(_pass_at_1_interval(counts)),
        curve_tasks=len(curve),
        pass_hat_k={str(k): mean_pass_hat_k(curve, k) for k in headline_ks(repeats)},
        pass_hat_k_ci=intervals_at_k(curve, pass_hat_k, repeats),
    )


def _interval(b: Bounds | None) -> Interval | None:
    return None if b is None or b[0] is None else Interval(b[0], b[1])


def error_band(excluded: Sequence[TaskCounts], as_failures: Sequence[TaskCounts], repeats: int) -> ErrorBand:
    """Both conventions' rates and, per rate, the hull of the two intervals."""
    low = convention_rates(excluded, repeats, "errors-excluded")
    high = convention_rates(as_failures, repeats, "errors-as-failures")
    return ErrorBand(
        errors_excluded=low,
        errors_as_failures=high,
        pass_at_1=bounds(hull(_interval(low.pass_at_1_ci), _interval(high.pass_at_1_ci))),
        pass_hat_k={
            k: bounds(hull(_interval(low.pass_hat_k_ci.get(k)), _interval(high.pass_hat_k_ci.get(k))))
            for k in high.pass_hat_k_ci
        },
    )
