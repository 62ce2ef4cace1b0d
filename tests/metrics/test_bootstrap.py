"""Seeded task-level bootstrap: determinism, coverage sanity and speed."""

import random

import pytest

from statebox.metrics import (
    TaskCounts,
    bootstrap_interval,
    bootstrap_mean,
    bootstrap_ratio,
    mean_pass_hat_k,
    pass_at_1,
    percentile,
    retention,
)


def _run(tasks: int, n: int = 4, seed: int = 7) -> list[TaskCounts]:
    rng = random.Random(seed)
    return [TaskCounts(f"t{i}", n, rng.randint(0, n)) for i in range(tasks)]


RUN = _run(40)
RATES = [t.c / t.n for t in RUN]


def test_percentile_interpolates_between_ranks() -> None:
    # position 0.5 * 3 = 1.5, halfway between 10 and 20
    assert percentile([0.0, 10.0, 20.0, 30.0], 0.5) == 15.0


def test_percentile_ends_are_min_and_max() -> None:
    assert (percentile([1.0, 2.0, 9.0], 0.0), percentile([1.0, 2.0, 9.0], 1.0)) == (1.0, 9.0)


def test_same_seed_gives_same_interval() -> None:
    assert bootstrap_interval(RUN, pass_at_1, seed=3) == bootstrap_interval(RUN, pass_at_1, seed=3)


def test_different_seeds_give_different_intervals() -> None:
    assert bootstrap_mean(RATES, seed=1) != bootstrap_mean(RATES, seed=2)


def test_interval_contains_point_estimate() -> None:
    estimate = mean_pass_hat_k(RUN, 2)
    interval = bootstrap_interval(RUN, lambda c: mean_pass_hat_k(c, 2), seed=0)
    assert interval is not None and estimate is not None
    assert interval[0] <= estimate <= interval[1], (interval, estimate)


def test_mean_fast_path_matches_generic_bootstrap_for_same_seed() -> None:
    assert bootstrap_mean(RATES, seed=5) == bootstrap_interval(RUN, pass_at_1, seed=5)


def test_constant_values_give_a_point_interval() -> None:
    assert bootstrap_mean([0.25, 0.25, 0.25]) == (0.25, 0.25)


def test_no_tasks_give_no_interval() -> None:
    assert bootstrap_interval([], pass_at_1) is None
    assert bootstrap_mean([]) is None


def test_fewer_than_2000_resamples_are_rejected() -> None:
    with pytest.raises(ValueError, match="at least 2000"):
        bootstrap_mean(RATES, resamples=500)


def test_resamples_where_statistic_is_none_are_left_out() -> None:
    # every task fails, so retention is None on every resample
    failing = [TaskCounts("a", 3, 0), TaskCounts("b", 3, 0)]
    assert bootstrap_interval(failing, lambda c: retention(c, 2)) is None


def test_ratio_of_proportional_values_is_constant() -> None:
    # every task has numerator / denominator = 0.5, so every resample's ratio is 0.5
    assert bootstrap_ratio([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]) == (0.5, 0.5)


def test_ratio_with_zero_denominators_gives_no_interval() -> None:
    assert bootstrap_ratio([0.0, 0.0], [0.0, 0.0]) is None


def test_ratio_needs_one_denominator_per_numerator() -> None:
    with pytest.raises(ValueError, match="2 numerators but 1 denominators"):
        bootstrap_ratio([1.0, 2.0], [1.0])
