"""pass@1 task-clustered standard error and interval."""

from math import sqrt

import pytest

from statebox.metrics import (
    TaskCounts,
    clustered_standard_error,
    pass_at_1_interval,
    pass_at_1_standard_error,
    retention,
    retention_interval,
)

Z95 = 1.959963984540054

# Rates 1, 0.5, 0, 0.5; mean 0.5; squared deviations 0.25 + 0 + 0.25 + 0 = 0.5
RUN = [TaskCounts("A", 4, 4), TaskCounts("B", 4, 2), TaskCounts("C", 4, 0), TaskCounts("D", 2, 1)]


def test_standard_error_treats_each_task_as_one_unit() -> None:
    # sqrt(0.5 / (4 * 3)) = sqrt(1/24)
    assert pass_at_1_standard_error(RUN) == pytest.approx(sqrt(1 / 24))


def test_standard_error_ignores_how_many_attempts_a_task_had() -> None:
    # same rates with ten times the attempts: the unit is the task, so the SE is unchanged
    scaled = [TaskCounts(t.task_id, t.n * 10, t.c * 10) for t in RUN]
    assert pass_at_1_standard_error(scaled) == pytest.approx(sqrt(1 / 24))


def test_interval_is_estimate_plus_minus_z_standard_errors() -> None:
    result = pass_at_1_interval(RUN)
    assert result is not None
    half = Z95 * sqrt(1 / 24)  # 0.40008...
    assert (result.estimate, result.lo, result.hi, result.tasks) == pytest.approx(
        (0.5, 0.5 - half, 0.5 + half, 4)
    )


def test_interval_is_clamped_to_unit_range() -> None:
    # rates 1, 1, 1, 0.5: mean 0.875, SE sqrt(0.1875 / 12) = 0.125, 0.875 + 0.245 > 1
    counts = [TaskCounts(name, 2, 2) for name in "ABC"] + [TaskCounts("D", 2, 1)]
    result = pass_at_1_interval(counts)
    assert result is not None
    assert result.standard_error == pytest.approx(0.125)
    assert result.hi == 1.0


def test_identical_tasks_have_zero_width_interval() -> None:
    result = pass_at_1_interval([TaskCounts("A", 4, 2), TaskCounts("B", 2, 1)])
    assert result is not None
    assert (result.lo, result.hi) == (0.5, 0.5)


def test_one_task_has_no_standard_error() -> None:
    assert pass_at_1_interval([TaskCounts("A", 4, 2)]) is None


def test_no_values_have_no_standard_error() -> None:
    assert clustered_standard_error([]) is None


def test_retention_interval_resamples_only_tasks_with_n_at_least_k() -> None:
    # A and B pass 3/3, so retention at k=3 is 1 on every resample; short D (0/1) is left out
    counts = [TaskCounts("A", 3, 3), TaskCounts("B", 3, 3), TaskCounts("D", 1, 0)]
    assert retention_interval(counts, 3) == (1.0, 1.0)


def test_retention_interval_contains_retention() -> None:
    estimate = retention(RUN, 2)  # 7/12
    interval = retention_interval(RUN, 2, seed=9)
    assert interval is not None and estimate is not None
    assert interval[0] <= estimate <= interval[1], (interval, estimate)
