"""Curves over k = 1..n_max report the value and how many tasks each point covers."""

import pytest

from statebox.metrics import TaskCounts, pass_at_1, pass_at_k_curve, pass_hat_k_curve

# Rates: A 4/4, B 2/4, C 0/4, D 1/2 (short).
RUN = [TaskCounts("A", 4, 4), TaskCounts("B", 4, 2), TaskCounts("C", 4, 0), TaskCounts("D", 2, 1)]


def test_curve_runs_from_one_to_max_n() -> None:
    assert [p.k for p in pass_at_k_curve(RUN)] == [1, 2, 3, 4]


def test_curve_points_count_only_tasks_with_enough_attempts() -> None:
    assert [p.tasks for p in pass_hat_k_curve(RUN)] == [4, 4, 3, 3]


def test_pass_at_k_curve_starts_at_pass_at_1() -> None:
    assert pass_at_k_curve(RUN)[0].value == pytest.approx(pass_at_1(RUN))


def test_pass_at_k_curve_last_point() -> None:
    # k=4 over A, B, C: A 1; B 1 (n-c = 2 < 4); C 0  -> 2/3
    assert pass_at_k_curve(RUN)[-1].value == pytest.approx(2 / 3)


def test_pass_hat_k_curve_last_point() -> None:
    # k=4 over A, B, C: only A = 1  -> 1/3
    assert pass_hat_k_curve(RUN)[-1].value == pytest.approx(1 / 3)


def test_curve_of_no_tasks_is_empty() -> None:
    assert pass_at_k_curve([]) == []
