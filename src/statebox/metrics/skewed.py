"""A studentised interval for the mean of per-task values that may be skewed and heavy-tailed.

Spend varies a lot between tasks (a few tasks can cost ten times the median), so the mean of 40
tasks is skewed and its estimated standard error is too small exactly when the sample missed the
expensive tasks: the plain t interval then misses above its upper bound. Two corrections, both
computed from the values and both vanishing as the number of tasks T grows:

- skewness: Hall's (1992) cubic transformation of the studentised mean,
  g(u) = u + a u^2 + a^2 u^3 / 3 + g1 / (6 sqrt(T)) with a = g1 / (3 sqrt(T)), g1 the sample
  skewness; g is monotone and inverted in closed form, so the interval is
  [mean - se g^-1(t), mean - se g^-1(-t)], asymmetric towards the long tail;
- heavy tails: the degrees of freedom of t are those of a chi-square with the variance of the
  sample variance, df = 2 / (2 / (T - 1) + max(0, excess kurtosis) / T), never more than T - 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import copysign, sqrt
from statistics import fmean

from statebox.metrics.quantiles import t_quantile


@dataclass(frozen=True)
class SkewedMean:
    """The mean, its standard error, and how far below and above it the interval reaches."""

    mean: float
    standard_error: float
    below: float  # mean - lo
    above: float  # hi - mean


def tail_degrees_of_freedom(values: Sequence[float]) -> float:
    """The t degrees of freedom for the studentised mean of `values`, reduced for heavy tails."""
    size = len(values)
    mean = fmean(values)
    m2 = sum((v - mean) ** 2 for v in values) / size
    if size < 2 or m2 == 0:
        return float(max(size - 1, 1))
    excess = sum((v - mean) ** 4 for v in values) / size / m2**2 - 3
    return max(1.0, 2 / (2 / (size - 1) + max(0.0, excess) / size))


def _skewness(values: Sequence[float], mean: float, sd: float) -> float:
    return sum((v - mean) ** 3 for v in values) / len(values) / sd**3


def _inverse_hall(v: float, skew: float, size: int) -> float:
    """g^-1(v) for Hall's transformation with sample skewness `skew` over `size` tasks."""
    a = skew / (3 * sqrt(size))
    shifted = v - skew / (6 * sqrt(size))
    if abs(a) < 1e-12:
        return shifted
    w = 1 + 3 * a * shifted
    return (copysign(abs(w) ** (1 / 3), w) - 1) / a


def skewed_mean_interval(values: Sequence[float], confidence: float = 0.95) -> SkewedMean | None:
    """The corrected interval of the mean of `values`; None for fewer than two values."""
    size = len(values)
    if size < 2:
        return None
    mean = fmean(values)
    sd = sqrt(sum((v - mean) ** 2 for v in values) / (size - 1))
    se = sd / sqrt(size)
    if se == 0:
        return SkewedMean(mean, 0.0, 0.0, 0.0)
    t = t_quantile((1 + confidence) / 2, tail_degrees_of_freedom(values))
    skew = _skewness(values, mean, sd)
    return SkewedMean(mean, se, below=se * _inverse_hall(t, skew, size), above=-se * _inverse_hall(-t, skew, size))
