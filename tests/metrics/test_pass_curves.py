"""Curves over k = 1..K: every point over one task set (n >= K), so pass@k rises and pass^k falls."""

import pytest

from statebox.metrics import TaskCounts, pass_at_k_curve, pass_hat_k_curve
from statebox.metrics.curves import curve_tasks

# Rates: A 4/4, B 2/4, C 0/4, D 1/2 (short).
RUN = [TaskCounts("A", 4, 4), TaskCounts("B", 4, 2), TaskCounts("C", 4, 0), TaskCounts("D", 2, 1)]


def test_curve_runs_from_one_to_max_n() -> None:
    assert [p.k for p in pass_at_k_curve(RUN)] == [1, 2, 3, 4]


def test_every_point_is_over_the_tasks_with_all_k_attempts() -> None:
    assert [p.tasks for p in pass_hat_k_curve(RUN)] == [3, 3, 3, 3]
    assert [t.task_id for t in curve_tasks(RUN, 4)] == ["A", "B", "C"]


def test_pass_at_k_curve_starts_at_pass_at_1_of_its_tasks() -> None:
    # A 1, B 0.5, C 0 -> 0.5 (D, short of 4 attempts, is not in the set)
    assert pass_at_k_curve(RUN)[0].value == pytest.approx(0.5)


def test_pass_at_k_curve_last_point() -> None:
    # k=4 over A, B, C: A 1; B 1 (n-c = 2 < 4); C 0  -> 2/3
    assert pass_at_k_curve(RUN)[-1].value == pytest.approx(2 / 3)


def test_pass_hat_k_curve_last_point() -> None:
    # k=4 over A, B, C: only A = 1  -> 1/3
    assert pass_hat_k_curve(RUN)[-1].value == pytest.approx(1 / 3)


def test_curves_are_monotone_when_the_short_tasks_are_the_failing_ones() -> None:
    # the audit's shape: failing tasks lose attempts to errors, so per-k sets would let pass@k fall
    counts = [TaskCounts(f"p{i}", 5, 5) for i in range(8)] + [TaskCounts(f"f{i}", n, 0) for i, n in enumerate((3, 4))]
    counts += [TaskCounts("half", 5, 2)]
    at = [p.value for p in pass_at_k_curve(counts)]
    hat = [p.value for p in pass_hat_k_curve(counts)]
    assert at == sorted(at) and hat == sorted(hat, reverse=True), (at, hat)


def test_curve_of_no_tasks_is_empty() -> None:
    assert pass_at_k_curve([]) == []
