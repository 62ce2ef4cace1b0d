"""Ratios of per-task sums (spend / successes, retention) with intervals covering both sources of doubt.

R = sum(y) / sum(x) over tasks, where x counts something per task in [0, scale] (passed
attempts with scale = the repeats, or 1 for a dependable task). The interval is the hull of:

1. the delta-method interval on the log scale, R exp(+/- t se), with se the task-clustered
   standard error of the linearised log ratio z_t = y_t / mean(y) - x_t / mean(x), corrected
   for the skewness and heavy tails of z (skewed.py): spend per task is often log-normal-like,
   and the plain interval then misses above its upper bound (0.91 at T = 40, sigma = 1);
2. the denominator interval, mean(y) / (scale [q_lo, q_hi]), where [q_lo, q_hi] is the bounded
   interval (intervals.py) of the share mean(x) / scale.

(1) is right when both sums vary; (2) keeps the interval honest when the successes are few or
all-or-nothing, where (1) collapses (every task passing every attempt at the same cost gives
se = 0). When q_lo is 0 the ratio has no upper bound; with no success at all the estimate
itself is None and only the lower bound is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import exp
from statistics import fmean

from statebox.metrics.aggregates import task_values
from statebox.metrics.counts import TaskCounts
from statebox.metrics.estimators import pass_hat_k
from statebox.metrics.intervals import Interval, bounded_mean_interval, check_confidence
from statebox.metrics.skewed import skewed_mean_interval


@dataclass(frozen=True)
class RatioEstimate:
    """sum(y) / sum(x) (None when sum(x) is 0) with its interval (None for no tasks)."""

    estimate: float | None
    interval: Interval | None


def _log_delta(numerators: Sequence[float], denominators: Sequence[float], confidence: float) -> Interval | None:
    mean_y, mean_x = fmean(numerators), fmean(denominators)
    if len(numerators) < 2 or mean_y <= 0 or mean_x <= 0:
        return None
    z = [y / mean_y - x / mean_x for y, x in zip(numerators, denominators, strict=True)]
    spread = skewed_mean_interval(z, confidence)
    if spread is None:
        return None
    ratio = mean_y / mean_x
    return Interval(ratio * exp(-spread.below), ratio * exp(spread.above))


def _denominator_only(
    numerators: Sequence[float], denominators: Sequence[float], scale: float, confidence: float
) -> Interval | None:
    share = bounded_mean_interval([x / scale for x in denominators], confidence=confidence)
    if share is None or share.hi is None:
        return None
    mean_y = fmean(numerators)
    lo = mean_y / (scale * share.hi)
    hi = None if share.lo == 0 else mean_y / (scale * share.lo)
    return Interval(lo, hi)


def _numerator_only(
    numerators: Sequence[float], denominators: Sequence[float], scale: float, confidence: float
) -> Interval | None:
    share = bounded_mean_interval([y / scale for y in numerators], confidence=confidence)
    mean_x = fmean(denominators)
    if share is None or share.hi is None or mean_x <= 0:
        return None
    return Interval(scale * share.lo / mean_x, scale * share.hi / mean_x)


def ratio_interval(
    numerators: Sequence[float],
    denominators: Sequence[float],
    *,
    scale: float,
    numerator_scale: float | None = None,
    upper_limit: float | None = None,
    confidence: float = 0.95,
) -> RatioEstimate:
    """sum(numerators) / sum(denominators) per task, with the hull interval described above.

    With `numerator_scale` (numerators in [0, numerator_scale]) the hull also takes the numerator's
    own bounded interval over mean(x); `upper_limit` clips the interval (a ratio known not to exceed it).
    """
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators but {len(denominators)} denominators")
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    if any(not 0 <= x <= scale for x in denominators):
        raise ValueError(f"every denominator must lie in [0, {scale}]")
    if not numerators:
        return RatioEstimate(None, None)
    total_x = sum(denominators)
    estimate = sum(numerators) / total_x if total_x else None
    check_confidence(confidence)
    candidates = [
        _log_delta(numerators, denominators, confidence),
        _denominator_only(numerators, denominators, scale, confidence),
    ]
    if numerator_scale is not None:
        if any(not 0 <= y <= numerator_scale for y in numerators):
            raise ValueError(f"every numerator must lie in [0, {numerator_scale}]")
        candidates.append(_numerator_only(numerators, denominators, numerator_scale, confidence))
    parts = [p for p in candidates if p is not None]
    if not parts:
        return RatioEstimate(estimate, None)
    lo = min(p.lo for p in parts)
    highs = [p.hi for p in parts]
    hi = None if any(h is None for h in highs) else max(h for h in highs if h is not None)
    if upper_limit is not None:
        lo, hi = min(lo, upper_limit), upper_limit if hi is None else min(hi, upper_limit)
    return RatioEstimate(estimate, Interval(lo, hi))


def retention_interval(counts: Sequence[TaskCounts], k: int, *, confidence: float = 0.95) -> Interval | None:
    """Interval of retention (pass^k / pass@1) at k over the tasks with n >= k; it never exceeds 1.

    Both are means of per-task values in [0, 1], so the hull also takes the numerator's own
    bounded interval: when every task passes every attempt, retention 1 gets [lo, 1], not a point.
    """
    eligible = [t for t in counts if t.n >= k]
    result = ratio_interval(
        task_values(eligible, pass_hat_k, k),
        [t.c / t.n for t in eligible],
        scale=1.0,
        numerator_scale=1.0,
        upper_limit=1.0,
        confidence=confidence,
    )
    return None if result.estimate is None else result.interval
