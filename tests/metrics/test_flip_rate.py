"""The majority-flip rate's expectation and range with no change, given each task's total passes."""

import random
from math import comb, sqrt
from statistics import fmean, stdev

import pytest

from statebox.metrics import TaskCounts, expected_flip, majority_passes, no_change_flip_range


def _majority(n: int, p: float) -> float:
    return sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n // 2 + 1, n + 1))


def _flip_rate(a: list[TaskCounts], b: list[TaskCounts]) -> float:
    return fmean(majority_passes(x) != majority_passes(y) for x, y in zip(a, b, strict=True))


def test_the_expectation_is_hypergeometric_given_the_total() -> None:
    # 4 passes in 8 attempts, 4 each: a has j passes with P = C(4,j) C(4,4-j) / C(8,4); flip when j != 2
    expected = 1 - comb(4, 2) * comb(4, 2) / comb(8, 4)
    assert expected_flip(TaskCounts("t", 4, 1), TaskCounts("t", 4, 3)) == pytest.approx(expected)


def test_the_expectation_matches_the_exact_no_change_flip_rate_within_monte_carlo_error() -> None:
    # fixed task rates, two runs of the same agent: the exact flip rate is the mean of 2 m (1 - m)
    rng = random.Random("flip-exact")
    rates = [rng.betavariate(0.5, 0.5) for _ in range(40)]
    exact = fmean(2 * _majority(5, p) * (1 - _majority(5, p)) for p in rates)
    gaps, observed = [], []
    for _ in range(2000):
        a = [TaskCounts(f"t{i}", 5, sum(rng.random() < p for _ in range(5))) for i, p in enumerate(rates)]
        b = [TaskCounts(f"t{i}", 5, sum(rng.random() < p for _ in range(5))) for i, p in enumerate(rates)]
        gaps.append(fmean(expected_flip(x, y) for x, y in zip(a, b, strict=True)) - exact)
        observed.append(_flip_rate(a, b))
    error = 4 * stdev(gaps) / sqrt(len(gaps))
    assert abs(fmean(gaps)) < error, f"mean expectation {exact + fmean(gaps):.4f} vs exact {exact:.4f} (± {error:.4f})"
    assert abs(fmean(observed) - exact) < 4 * stdev(observed) / sqrt(len(observed)), (fmean(observed), exact)


def test_with_no_change_the_observed_rate_stays_in_the_range_at_least_95_percent_of_the_time() -> None:
    rng = random.Random("flip-range")
    inside, comparisons = 0, 1000
    for _ in range(comparisons):
        rates = [rng.betavariate(5, 2) for _ in range(40)]
        a = [TaskCounts(f"t{i}", 5, sum(rng.random() < p for _ in range(5))) for i, p in enumerate(rates)]
        b = [TaskCounts(f"t{i}", 5, sum(rng.random() < p for _ in range(5))) for i, p in enumerate(rates)]
        expected = no_change_flip_range(list(zip(a, b, strict=True)))
        assert expected is not None
        inside += expected.contains(_flip_rate(a, b))
    assert inside / comparisons >= 0.94, f"{inside} of {comparisons} no-change flip rates inside the range"


def test_the_range_of_tasks_that_cannot_flip_is_zero_and_of_no_tasks_none() -> None:
    pairs = [(TaskCounts("t", 5, 5), TaskCounts("t", 5, 5))] * 3
    result = no_change_flip_range(pairs)
    assert result is not None and (result.lo, result.hi) == (0.0, 0.0)
    assert no_change_flip_range([]) is None


def test_the_range_of_certain_flips_is_all_of_them() -> None:
    pairs = [(TaskCounts("t", 5, 2), TaskCounts("t", 5, 3))] * 4
    result = no_change_flip_range(pairs)
    assert result is not None and (result.lo, result.hi) == (1.0, 1.0)
