"""The studentised mean corrected for skewness and heavy tails, used by the cost and retention ratios."""

import random
from math import exp, sqrt

import pytest

from statebox.metrics import TaskCounts, cost_per_successful_attempt, t_quantile
from statebox.metrics.skewed import skewed_mean_interval, tail_degrees_of_freedom


def test_symmetric_values_without_heavy_tails_get_the_plain_t_interval() -> None:
    values = [-1.0, 1.0] * 20  # skewness 0, excess kurtosis -2
    result = skewed_mean_interval(values)
    assert result is not None
    plain = t_quantile(0.975, 39) * result.standard_error
    assert (result.below, result.above) == pytest.approx((plain, plain)), result


def test_right_skewed_values_reach_further_above_than_below() -> None:
    values = [1.0] * 36 + [10.0] * 4
    result = skewed_mean_interval(values)
    assert result is not None and result.above > 1.2 * result.below, result


def test_heavy_tails_lower_the_degrees_of_freedom() -> None:
    light = [float(i % 2) for i in range(40)]
    heavy = [0.0] * 39 + [1.0]
    assert tail_degrees_of_freedom(light) == pytest.approx(39)
    assert tail_degrees_of_freedom(heavy) < 3, tail_degrees_of_freedom(heavy)


def test_constant_values_have_a_zero_spread_and_fewer_than_two_none() -> None:
    result = skewed_mean_interval([2.0, 2.0, 2.0])
    assert result is not None and (result.below, result.above) == (0.0, 0.0)
    assert skewed_mean_interval([1.0]) is None


def test_lognormal_task_prices_get_an_upper_bound_above_the_plain_one() -> None:
    # every task passes every attempt, so only spend varies: the plain log interval is R exp(t se)
    rng = random.Random(3)
    spend = {f"t{i}": 5 * rng.lognormvariate(-0.5, 1.0) for i in range(40)}
    counts = [TaskCounts(t, 5, 5) for t in spend]
    result = cost_per_successful_attempt(counts, spend, repeats=5)
    assert result is not None and result.estimate is not None and result.interval is not None
    values = list(spend.values())
    mean = sum(values) / 40
    se = sqrt(sum((v / mean - 1) ** 2 for v in values) / (40 * 39))
    plain_hi = result.estimate * exp(t_quantile(0.975, 39) * se)
    assert result.interval.hi is not None and result.interval.hi > plain_hi, (result.interval, plain_hi)
