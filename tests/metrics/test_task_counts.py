"""TaskCounts validation, canonical runs and shortfall."""

import pytest

from statebox.metrics import Shortfall, TaskCounts, is_canonical, max_attempts, shortfall


def test_task_counts_reject_more_passes_than_attempts() -> None:
    with pytest.raises(ValueError, match="'t1'"):
        TaskCounts("t1", n=2, c=3)


def test_task_counts_reject_negative_counts() -> None:
    with pytest.raises(ValueError):
        TaskCounts("t1", n=-1, c=0)


def test_equal_n_is_canonical() -> None:
    assert is_canonical([TaskCounts("a", 4, 1), TaskCounts("b", 4, 4)])


def test_unequal_n_is_not_canonical() -> None:
    assert not is_canonical([TaskCounts("a", 4, 1), TaskCounts("b", 3, 3)])


def test_no_tasks_is_vacuously_canonical() -> None:
    assert is_canonical([])


def test_shortfall_lists_tasks_below_max_n_with_missing_attempts() -> None:
    counts = [TaskCounts("a", 5, 1), TaskCounts("b", 3, 3), TaskCounts("c", 5, 0)]
    assert shortfall(counts) == [Shortfall("b", n=3, missing=2)]


def test_shortfall_is_empty_for_canonical_run() -> None:
    assert shortfall([TaskCounts("a", 2, 1), TaskCounts("b", 2, 0)]) == []


def test_max_attempts_of_no_tasks_is_zero() -> None:
    assert max_attempts([]) == 0
