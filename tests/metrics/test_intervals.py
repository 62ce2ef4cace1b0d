"""Intervals of means of per-task values: clustered by task, Wilson with effective tasks, never a point."""

from math import sqrt

import pytest

from statebox.metrics import (
    Interval,
    TaskCounts,
    bounded_mean_interval,
    clustered_standard_error,
    effective_tasks,
    estimator_interval,
    hull,
    normal_quantile,
    pass_at_1_interval,
    pass_at_1_standard_error,
    pass_at_k,
    retention,
    retention_interval,
    share_interval,
    t_quantile,
    wilson,
)

Z95 = normal_quantile(0.975)

# Rates 1, 0.5, 0, 0.5; mean 0.5; squared deviations 0.25 + 0 + 0.25 + 0 = 0.5
RUN = [TaskCounts("A", 4, 4), TaskCounts("B", 4, 2), TaskCounts("C", 4, 0), TaskCounts("D", 2, 1)]


def test_standard_error_treats_each_task_as_one_unit() -> None:
    # sqrt(0.5 / (4 * 3)) = sqrt(1/24)
    assert pass_at_1_standard_error(RUN) == pytest.approx(sqrt(1 / 24))


def test_standard_error_ignores_how_many_attempts_a_task_had() -> None:
    scaled = [TaskCounts(t.task_id, t.n * 10, t.c * 10) for t in RUN]
    assert pass_at_1_standard_error(scaled) == pytest.approx(sqrt(1 / 24))


def test_no_values_have_no_standard_error() -> None:
    assert clustered_standard_error([]) is None


@pytest.mark.parametrize(
    ("p", "n", "expected"),
    [(0 / 10, 10, (0.0, 0.3445)), (81 / 263, 263, (0.2535, 0.3682)), (15 / 148, 148, (0.0598, 0.1644))],
)
def test_wilson_with_continuity_correction_matches_published_values(
    p: float, n: int, expected: tuple[float, float]
) -> None:
    # Newcombe (1998), Table I, method 4
    assert wilson(p, n, Z95) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(("df", "expected"), [(1, 12.7062), (2, 4.3027), (10, 2.2281), (39, 2.0227), (499, 1.9647)])
def test_t_quantiles(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=2e-4)


def test_in_the_middle_the_interval_is_about_the_t_interval() -> None:
    rates = [0.2, 0.4, 0.6, 0.8, 0.5] * 8  # 40 tasks, mean 0.5
    interval = bounded_mean_interval(rates)
    se = clustered_standard_error(rates)
    assert interval is not None and se is not None and interval.hi is not None
    half = t_quantile(0.975, 39) * se
    assert (interval.lo, interval.hi) == pytest.approx((0.5 - half, 0.5 + half), abs=0.01)


def test_every_task_passing_gives_an_interval_below_one_not_a_point() -> None:
    # 40 tasks at 1: the binary worst case, 40 effective tasks (scaled for 39 degrees of freedom)
    interval = bounded_mean_interval([1.0] * 40)
    n_eff = 40 * (Z95 / t_quantile(0.975, 39)) ** 2
    assert interval is not None and interval.hi == 1.0
    assert interval.lo == pytest.approx(wilson(1.0, n_eff, Z95)[0])
    assert 0.85 < interval.lo < 0.95, interval


def test_no_task_passing_gives_an_interval_above_zero() -> None:
    interval = share_interval([False] * 40)
    assert interval is not None and interval.lo == 0.0 and interval.hi is not None and 0.05 < interval.hi < 0.15


def test_identical_tasks_do_not_give_a_zero_width_interval() -> None:
    result = pass_at_1_interval([TaskCounts("A", 4, 2), TaskCounts("B", 2, 1)])
    assert result is not None and result.lo < 0.5 < result.hi


def test_one_task_gives_a_wide_interval_and_no_standard_error() -> None:
    result = pass_at_1_interval([TaskCounts("A", 4, 2)])
    assert result is not None and result.standard_error is None
    assert result.lo < 0.1 and result.hi > 0.9


def test_no_attempts_give_no_interval() -> None:
    assert pass_at_1_interval([TaskCounts("A", 0, 0)]) is None
    assert bounded_mean_interval([]) is None


def test_effective_tasks_are_capped_at_the_attempts_behind_the_values() -> None:
    # nearly identical rates claim far more information than 40 tasks x 2 attempts hold
    rates = [0.5] * 39 + [0.51]
    assert effective_tasks(rates, information_cap=80) == 80
    assert effective_tasks(rates) > 80


def test_estimates_at_k_are_capped_at_disjoint_groups_of_k_attempts() -> None:
    # pass@5 over 40 tasks x 20 attempts: at most 40 x 4 = 160 independent looks
    counts = [TaskCounts(f"t{i}", 20, 15 if i % 2 else 20) for i in range(40)]  # 15/20 -> 1 - 1/15504
    interval = estimator_interval(counts, pass_at_k, 5)
    mean = 1 - 20 / 15504 / 40
    n_eff = 160 * (Z95 / t_quantile(0.975, 39)) ** 2
    assert interval is not None
    assert (interval.lo, interval.hi) == pytest.approx(wilson(mean, n_eff, Z95))


def test_values_outside_the_unit_range_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        bounded_mean_interval([0.5, 1.5])


def test_retention_interval_uses_only_tasks_with_n_at_least_k_and_is_not_a_point() -> None:
    # A and B pass 3/3, so retention at k=3 is 1; short D (0/1) is left out
    counts = [TaskCounts("A", 3, 3), TaskCounts("B", 3, 3), TaskCounts("D", 1, 0)]
    interval = retention_interval(counts, 3)
    assert interval is not None and interval == retention_interval(counts[:2], 3)
    assert interval.hi == 1.0 and interval.lo < 1.0


def test_retention_interval_contains_retention_and_never_exceeds_one() -> None:
    estimate = retention(RUN, 2)  # 7/12
    interval = retention_interval(RUN, 2)
    assert interval is not None and estimate is not None
    assert interval.contains(estimate) and interval.hi is not None and interval.hi <= 1.0, (interval, estimate)


def test_retention_of_nothing_passed_has_no_interval() -> None:
    assert retention_interval([TaskCounts("A", 3, 0), TaskCounts("B", 3, 0)], 2) is None


def test_the_hull_of_intervals_holds_each_and_is_unbounded_when_one_is() -> None:
    assert hull(Interval(0.2, 0.4), None, Interval(0.3, 0.6)) == Interval(0.2, 0.6)
    assert hull(Interval(0.2, 0.4), Interval(0.1, None)) == Interval(0.1, None)
    assert hull(None, None) is None
