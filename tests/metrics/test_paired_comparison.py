"""Paired comparison of two runs on their shared tasks."""

import pytest

from statebox.metrics import TaskCounts, compare_runs

# shared t1: 0.25 -> 0.75 (gained), t2: 0.5 -> 0.25 (lost), t3: 1 -> 1; t4 only a, t5 only b
RUN_A = [
    TaskCounts("t1", 4, 1),
    TaskCounts("t2", 4, 2),
    TaskCounts("t3", 4, 4),
    TaskCounts("t4", 4, 0),
]
RUN_B = [
    TaskCounts("t3", 4, 4),
    TaskCounts("t2", 4, 1),
    TaskCounts("t1", 4, 3),
    TaskCounts("t5", 2, 2),
]


def test_diff_is_mean_paired_rate_change() -> None:
    # (0.5 - 0.25 + 0) / 3 = 1/12
    assert compare_runs(RUN_A, RUN_B).diff == pytest.approx(1 / 12)


def test_pass_at_1_of_each_run_is_over_shared_tasks() -> None:
    # a: (0.25 + 0.5 + 1)/3 = 7/12; b: (0.75 + 0.25 + 1)/3 = 2/3
    result = compare_runs(RUN_A, RUN_B)
    assert (result.pass_at_1_a, result.pass_at_1_b) == pytest.approx((7 / 12, 2 / 3))


def test_half_pass_rate_counts_as_passing() -> None:
    # t2 at 0.5 passes in a and 0.25 fails in b, so it is lost
    result = compare_runs(RUN_A, RUN_B)
    assert (result.gained, result.lost) == (("t1",), ("t2",))


def test_flip_rate_is_share_of_shared_tasks_that_changed() -> None:
    # 2 of 3 shared tasks flipped
    result = compare_runs(RUN_A, RUN_B)
    assert result.flip_rate == pytest.approx(2 / 3)
    assert result.changed == ("t1", "t2")


def test_unshared_tasks_are_listed_by_run() -> None:
    result = compare_runs(RUN_A, RUN_B)
    assert (result.shared_tasks, result.only_in_a, result.only_in_b) == (3, ("t4",), ("t5",))


def test_interval_contains_diff() -> None:
    result = compare_runs(RUN_A, RUN_B, seed=11)
    assert result.interval is not None and result.diff is not None
    assert result.interval[0] <= result.diff <= result.interval[1], result


def test_same_seed_gives_same_comparison() -> None:
    assert compare_runs(RUN_A, RUN_B, seed=4) == compare_runs(RUN_A, RUN_B, seed=4)


def test_result_does_not_depend_on_task_order() -> None:
    assert compare_runs(RUN_A, RUN_B) == compare_runs(RUN_A[::-1], RUN_B[::-1])


def test_no_shared_tasks_gives_no_numbers() -> None:
    result = compare_runs(RUN_A[:1], RUN_B[3:])
    assert (result.diff, result.interval, result.flip_rate) == (None, None, None)


def test_duplicate_task_in_a_run_is_rejected() -> None:
    with pytest.raises(ValueError, match="'t1' more than once"):
        compare_runs([*RUN_A, TaskCounts("t1", 4, 0)], RUN_B)
