"""Cost per successful attempt and per dependable task."""

import pytest

from statebox.metrics import TaskCounts, cost_per_dependable_task, cost_per_successful_attempt

# Rates A 2/2, B 1/2, C 0/2; each task's mean attempt cost is 2.0, all attempts total 12.0
RUN = [TaskCounts("A", 2, 2), TaskCounts("B", 2, 1), TaskCounts("C", 2, 0)]
COSTS: dict[str, list[float | None]] = {"A": [1.0, 3.0], "B": [2.0, 2.0], "C": [4.0, 0.0]}


def test_cost_per_success_divides_summed_task_means_by_expected_successes() -> None:
    # (2 + 2 + 2) / (T x pass@1) = 6 / (3 x 0.5) = 4.0
    assert cost_per_successful_attempt(RUN, COSTS) == pytest.approx(4.0)


def test_cost_per_success_is_none_when_nothing_passed() -> None:
    failing = [TaskCounts("C", 2, 0)]
    assert cost_per_successful_attempt(failing, COSTS) is None


def test_cost_per_success_is_none_when_an_attempt_cost_is_unknown() -> None:
    assert cost_per_successful_attempt(RUN, {**COSTS, "B": [2.0, None]}) is None


def test_cost_per_success_is_none_when_a_task_has_no_costs() -> None:
    assert cost_per_successful_attempt(RUN, {"A": [1.0, 3.0], "B": [2.0, 2.0]}) is None


def test_cost_per_dependable_task_divides_total_by_all_pass_tasks() -> None:
    # 12.0 spent in all; only A passed 2/2  -> 12.0
    assert cost_per_dependable_task(RUN, COSTS) == pytest.approx(12.0)


def test_cost_per_dependable_task_is_none_without_dependable_tasks() -> None:
    assert cost_per_dependable_task(RUN[1:], COSTS) is None


def test_cost_of_no_tasks_is_none() -> None:
    assert cost_per_successful_attempt([], {}) is None
    assert cost_per_dependable_task([], {}) is None
