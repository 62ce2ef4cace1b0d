"""Paired comparison of two runs: the difference and its interval, changed tasks beyond chance, flips."""

import random

import pytest

from statebox.metrics import (
    FDR_LEVEL,
    ExactTest,
    TaskCounts,
    benjamini_hochberg,
    compare_runs,
    expected_flip,
    fisher_exact,
    majority_passes,
)

# shared t1: 0.25 -> 0.75, t2: 0.5 -> 0.25, t3: 1 -> 1; t4 only a, t5 only b
RUN_A = [TaskCounts("t1", 4, 1), TaskCounts("t2", 4, 2), TaskCounts("t3", 4, 4), TaskCounts("t4", 4, 0)]
RUN_B = [TaskCounts("t3", 4, 4), TaskCounts("t2", 4, 1), TaskCounts("t1", 4, 3), TaskCounts("t5", 2, 2)]


def test_diff_is_mean_paired_rate_change() -> None:
    # (0.5 - 0.25 + 0) / 3 = 1/12
    assert compare_runs(RUN_A, RUN_B).diff == pytest.approx(1 / 12)


def test_pass_at_1_of_each_run_is_over_shared_tasks() -> None:
    result = compare_runs(RUN_A, RUN_B)
    assert (result.pass_at_1_a, result.pass_at_1_b) == pytest.approx((7 / 12, 2 / 3))


def test_unshared_tasks_are_listed_by_run() -> None:
    result = compare_runs(RUN_A, RUN_B)
    assert (result.shared_tasks, result.only_in_a, result.only_in_b) == (3, ("t4",), ("t5",))


def test_a_task_whose_attempts_all_errored_is_errored_not_only_in_the_other_run() -> None:
    result = compare_runs([*RUN_A, TaskCounts("t5", 0, 0)], RUN_B)
    assert (result.only_in_b, result.errored_in_a, result.shared_tasks) == ((), ("t5",), 3)


def test_interval_contains_diff_and_has_width() -> None:
    result = compare_runs(RUN_A, RUN_B)
    assert result.interval is not None and result.diff is not None
    assert result.interval.contains(result.diff) and result.interval.width, result


def test_two_identical_runs_get_an_interval_of_about_two_over_t() -> None:
    same = [TaskCounts(f"t{i}", 5, 5) for i in range(40)]
    result = compare_runs(same, same)
    assert result.diff == 0 and result.interval is not None and result.interval.hi is not None
    assert result.interval.lo == pytest.approx(-result.interval.hi) and 0.04 < result.interval.hi < 0.06


def test_boschloo_is_the_largest_null_probability_of_a_table_at_least_as_extreme() -> None:
    test = ExactTest()
    # 0/5 against 5/5: only the two most extreme tables, 2 x 0.5^10 at the worst common rate 0.5
    assert test.p_value(0, 5, 5, 5) == pytest.approx(2 / 1024)
    assert test.p_value(0, 4, 4, 4) == pytest.approx(2 / 256)
    assert test.p_value(2, 5, 2, 5) == pytest.approx(1.0)


@pytest.mark.parametrize(("a", "b"), [((0, 5), (3, 5)), ((7, 12), (1, 8)), ((3, 4), (1, 4)), ((2, 20), (9, 20))])
def test_boschloo_is_never_above_fisher(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert ExactTest().p_value(a[0], a[1], b[0], b[1]) <= fisher_exact(a[0], a[1], b[0], b[1]) + 1e-12


def test_a_single_complete_flip_among_forty_tasks_at_five_repeats_is_listed() -> None:
    # p = 2/1024 is below Benjamini-Hochberg's first threshold 0.1 / 40; 0/5 -> 3/5 (p = 0.06) is not
    a = [TaskCounts("flip", 5, 0), TaskCounts("some", 5, 0)] + [TaskCounts(f"t{i}", 5, 3) for i in range(38)]
    b = [TaskCounts("flip", 5, 5), TaskCounts("some", 5, 3)] + [TaskCounts(f"t{i}", 5, 3) for i in range(38)]
    assert compare_runs(a, b).changed == ("flip",)


def test_fisher_exact_matches_hand_computed_values() -> None:
    assert fisher_exact(0, 5, 5, 5) == pytest.approx(2 / 252)  # the two most extreme tables of C(10, 5)
    assert fisher_exact(3, 4, 1, 4) == pytest.approx(34 / 70)  # the tea-tasting table
    assert fisher_exact(2, 5, 2, 5) == pytest.approx(1.0)


def test_benjamini_hochberg_steps_up() -> None:
    # m = 4, q = 0.1: thresholds 0.025, 0.05, 0.075, 0.1; the third p (0.07) passes, so the first three go
    assert benjamini_hochberg([0.07, 0.01, 0.5, 0.04], 0.1) == [True, True, False, True]
    assert benjamini_hochberg([0.03, 0.2], 0.05) == [False, False]


def test_changed_tasks_differ_beyond_chance_not_by_majority() -> None:
    # ten tasks from 0/5 to 5/5 are listed; a 2/5 -> 3/5 wobble flips its majority but is not listed
    a = [TaskCounts(f"big{i}", 5, 0) for i in range(10)] + [TaskCounts("wobble", 5, 2)]
    b = [TaskCounts(f"big{i}", 5, 5) for i in range(10)] + [TaskCounts("wobble", 5, 3)]
    result = compare_runs(a, b)
    assert result.changed == tuple(f"big{i}" for i in range(10))
    assert result.gained == result.changed and result.lost == ()
    assert all(p < 0.01 for p in result.p_values.values())
    assert result.flip_rate == pytest.approx(11 / 11)


def test_a_tie_is_not_a_majority_so_two_of_five_to_ten_of_twenty_is_no_flip() -> None:
    assert not majority_passes(TaskCounts("t", 20, 10)) and majority_passes(TaskCounts("t", 5, 3))
    result = compare_runs([TaskCounts("t", 5, 2)], [TaskCounts("t", 20, 10)])
    assert (result.flip_rate, result.changed) == (0.0, ())


def test_expected_flip_under_no_change_is_given_the_tasks_total_passes() -> None:
    # 5 passes in 10 attempts dealt 5 and 5: whichever run has 3 or more, the other has 2 or fewer
    assert expected_flip(TaskCounts("t", 5, 2), TaskCounts("t", 5, 3)) == pytest.approx(1.0)
    assert expected_flip(TaskCounts("t", 5, 5), TaskCounts("t", 5, 5)) == 0.0
    # 1 pass in 10: no run can have a majority
    assert expected_flip(TaskCounts("t", 5, 1), TaskCounts("t", 5, 0)) == 0.0


@pytest.mark.parametrize("rates", [(0.5, 0.5), (5.0, 2.0)])
def test_two_runs_of_one_agent_list_no_changed_task_in_at_least_90_percent_of_comparisons(
    rates: tuple[float, float],
) -> None:
    rng = random.Random(f"null/{rates}")
    quiet, comparisons = 0, 300
    test = ExactTest()  # one per-task test shared by every comparison, as `compare` over many runs would
    for _ in range(comparisons):
        p = [rng.betavariate(*rates) for _ in range(40)]
        a = [TaskCounts(f"t{i}", 5, sum(rng.random() < r for _ in range(5))) for i, r in enumerate(p)]
        b = [TaskCounts(f"t{i}", 5, sum(rng.random() < r for _ in range(5))) for i, r in enumerate(p)]
        result = compare_runs(a, b, test=test)
        quiet += not result.changed
        assert result.expected_flip_rate is not None
    assert quiet / comparisons >= 0.9, f"only {quiet} of {comparisons} null comparisons listed no task (q={FDR_LEVEL})"


def test_result_does_not_depend_on_task_order() -> None:
    assert compare_runs(RUN_A, RUN_B) == compare_runs(RUN_A[::-1], RUN_B[::-1])


def test_no_shared_tasks_gives_no_numbers() -> None:
    result = compare_runs(RUN_A[:1], RUN_B[3:])
    assert (result.diff, result.interval, result.flip_rate, result.expected_flip_rate) == (None, None, None, None)


def test_duplicate_task_in_a_run_is_rejected() -> None:
    with pytest.raises(ValueError, match="'t1' more than once"):
        compare_runs([*RUN_A, TaskCounts("t1", 4, 0)], RUN_B)
