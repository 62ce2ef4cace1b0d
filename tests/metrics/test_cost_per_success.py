"""Cost per successful attempt and per dependable task: total spend over passes, or over dependable tasks."""

import pytest

from statebox.metrics import TaskCounts, cost_per_dependable_task, cost_per_successful_attempt

# A 2/2, B 1/2, C 0/2; spend (errored attempts included) A 4.0, B 4.0, C 4.0: 12.0 in all
RUN = [TaskCounts("A", 2, 2), TaskCounts("B", 2, 1), TaskCounts("C", 2, 0)]
SPEND: dict[str, float | None] = {"A": 4.0, "B": 4.0, "C": 4.0}


def test_cost_per_success_is_total_spend_over_passed_attempts() -> None:
    # 12.0 / 3 passed attempts
    result = cost_per_successful_attempt(RUN, SPEND, repeats=2)
    assert result is not None and result.estimate == pytest.approx(4.0)


def test_cost_per_success_counts_spend_of_a_task_whose_attempts_all_errored() -> None:
    # a task with no finished attempt still spent 6.0 before its errors
    errored = [*RUN, TaskCounts("E", 0, 0)]
    result = cost_per_successful_attempt(errored, {**SPEND, "E": 6.0}, repeats=2)
    assert result is not None and result.estimate == pytest.approx(18.0 / 3)


def test_cost_per_success_is_total_over_passes_even_with_uneven_attempts() -> None:
    # not the mean of per-task means: 2/4 and 1/1 with spends 8 and 1 -> 9 / 3
    uneven = [TaskCounts("A", 4, 2), TaskCounts("B", 1, 1)]
    result = cost_per_successful_attempt(uneven, {"A": 8.0, "B": 1.0}, repeats=4)
    assert result is not None and result.estimate == pytest.approx(3.0)


def test_cost_per_success_has_no_estimate_when_nothing_passed_but_a_lower_bound() -> None:
    result = cost_per_successful_attempt([TaskCounts("C", 2, 0), TaskCounts("D", 2, 0)], SPEND | {"D": 2.0}, repeats=2)
    assert result is not None and result.estimate is None
    assert result.interval is not None and result.interval.hi is None and result.interval.lo > 0


def test_cost_per_success_is_none_when_a_spend_is_unknown() -> None:
    assert cost_per_successful_attempt(RUN, {**SPEND, "B": None}) is None
    assert cost_per_successful_attempt(RUN, {"A": 4.0, "B": 4.0}) is None


def test_cost_per_dependable_task_divides_total_by_dependable_tasks() -> None:
    # 12.0 spent in all; only A passed 2/2
    result = cost_per_dependable_task(RUN, SPEND, 2)
    assert result is not None and result.estimate == pytest.approx(12.0)


def test_cost_per_dependable_task_never_counts_a_short_task() -> None:
    # the example: (5, 5), (1, 1), (5, 2) at k = 5, spend 11 in all -> 11 / 1, not 11 / 2
    counts = [TaskCounts("full", 5, 5), TaskCounts("short", 1, 1), TaskCounts("half", 5, 2)]
    result = cost_per_dependable_task(counts, {"full": 5.0, "short": 1.0, "half": 5.0}, 5)
    assert result is not None and result.estimate == pytest.approx(11.0)


def test_cost_per_dependable_task_without_dependable_tasks_has_only_a_lower_bound() -> None:
    result = cost_per_dependable_task(RUN[1:], SPEND, 2)
    assert result is not None and result.estimate is None
    assert result.interval is not None and result.interval.hi is None


def test_cost_intervals_contain_the_estimate_and_have_width() -> None:
    for result in (cost_per_successful_attempt(RUN, SPEND, repeats=2), cost_per_dependable_task(RUN, SPEND, 2)):
        assert result is not None and result.estimate is not None and result.interval is not None
        assert result.interval.contains(result.estimate), result
        assert result.interval.width is None or result.interval.width > 0, result


def test_all_passing_at_one_price_still_has_an_interval_of_width() -> None:
    # the log-delta interval collapses here; the denominator's doubt keeps it open
    counts = [TaskCounts(f"t{i}", 5, 5) for i in range(40)]
    result = cost_per_successful_attempt(counts, {t.task_id: 0.05 for t in counts}, repeats=5)
    assert result is not None and result.interval is not None and result.interval.hi is not None
    assert result.interval.lo == pytest.approx(0.01) and result.interval.hi > 0.0101, result


def test_cost_of_no_tasks_has_no_estimate_and_no_interval() -> None:
    for result in (cost_per_successful_attempt([], {}), cost_per_dependable_task([], {}, 2)):
        assert result is not None and (result.estimate, result.interval) == (None, None)
