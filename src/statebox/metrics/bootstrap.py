"""Seeded task-level bootstrap: resample tasks with replacement, take percentile intervals.

Attempts of one task are correlated, so the task is the unit that is resampled.
Every function draws the same task indices for the same seed and number of tasks, so
`bootstrap_interval(counts, pass_at_1)` and `bootstrap_mean(per-task c/n)` agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor

from statebox.metrics.counts import TaskCounts

MIN_RESAMPLES = 2000

Statistic = Callable[[Sequence[TaskCounts]], float | None]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0 <= q <= 1) of sorted values, interpolating linearly between ranks."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    position = q * (len(sorted_values) - 1)
    low = floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def _check(resamples: int, confidence: float) -> None:
    if resamples < MIN_RESAMPLES:
        raise ValueError(f"use at least {MIN_RESAMPLES} resamples, got {resamples}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def _interval(estimates: list[float], confidence: float) -> tuple[float, float] | None:
    if not estimates:
        return None
    estimates.sort()
    tail = (1 - confidence) / 2
    return percentile(estimates, tail), percentile(estimates, 1 - tail)


def bootstrap_interval(
    counts: Sequence[TaskCounts],
    statistic: Statistic,
    *,
    seed: int = 0,
    resamples: int = MIN_RESAMPLES,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile interval of any statistic over task resamples; None for no tasks.

    Resamples where the statistic is None (e.g. a ratio over a zero) are left out.
    """
    _check(resamples, confidence)
    if not counts:
        return None
    rng = random.Random(seed)
    estimates = []
    for _ in range(resamples):
        value = statistic(rng.choices(counts, k=len(counts)))
        if value is not None:
            estimates.append(value)
    return _interval(estimates, confidence)


def bootstrap_mean(
    values: Sequence[float],
    *,
    seed: int = 0,
    resamples: int = MIN_RESAMPLES,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Fast path for per-task-additive statistics: interval of the mean of per-task values."""
    _check(resamples, confidence)
    if not values:
        return None
    rng = random.Random(seed)
    size = len(values)
    estimates = [sum(rng.choices(values, k=size)) / size for _ in range(resamples)]
    return _interval(estimates, confidence)


def bootstrap_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    *,
    seed: int = 0,
    resamples: int = MIN_RESAMPLES,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Interval of sum(numerators) / sum(denominators) over task resamples (e.g. retention).

    Each task contributes one numerator and one denominator; zero-denominator resamples are
    left out.
    """
    _check(resamples, confidence)
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators but {len(denominators)} denominators")
    if not numerators:
        return None
    rng = random.Random(seed)
    pairs = list(zip(numerators, denominators, strict=True))
    estimates = []
    for _ in range(resamples):
        sample = rng.choices(pairs, k=len(pairs))
        denominator = sum(d for _, d in sample)
        if denominator:
            estimates.append(sum(n for n, _ in sample) / denominator)
    return _interval(estimates, confidence)
