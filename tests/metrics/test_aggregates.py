"""Run-level means, observed k/k and retention, on a small non-canonical run."""

from collections.abc import Callable, Sequence

import pytest

from statebox.metrics import (
    TaskCounts,
    dependable_tasks,
    is_dependable,
    mean_pass_at_k,
    mean_pass_hat_k,
    mean_pass_hat_k_plugin,
    observed_k_of_k,
    pass_at_1,
    retention,
)

# Rates: A 4/4 = 1, B 2/4 = 0.5, C 0/4 = 0, D 1/2 = 0.5. D is short (n = 2).
RUN = [TaskCounts("A", 4, 4), TaskCounts("B", 4, 2), TaskCounts("C", 4, 0), TaskCounts("D", 2, 1)]
CANONICAL = RUN[:3]


def test_pass_at_1_is_mean_of_task_rates() -> None:
    # (1 + 0.5 + 0 + 0.5) / 4 = 0.5
    assert pass_at_1(RUN) == pytest.approx(0.5)


def test_pass_at_1_skips_tasks_without_attempts() -> None:
    assert pass_at_1([*RUN, TaskCounts("E", 0, 0)]) == pytest.approx(0.5)


def test_pass_at_k_averages_over_all_tasks_with_enough_attempts() -> None:
    # k=2: A 1; B 1 - C(2,2)/C(4,2) = 5/6; C 0; D 1 - C(1,2)/C(2,2) = 1  -> (17/6)/4 = 17/24
    assert mean_pass_at_k(RUN, 2) == pytest.approx(17 / 24)


def test_pass_at_k_skips_tasks_with_fewer_than_k_attempts() -> None:
    # k=3, D skipped: A 1; B 1 (n-c = 2 < 3); C 0  -> 2/3
    assert mean_pass_at_k(RUN, 3) == pytest.approx(2 / 3)


def test_pass_hat_k_averages_unbiased_task_values() -> None:
    # k=2: A 1; B C(2,2)/C(4,2) = 1/6; C 0; D C(1,2)/C(2,2) = 0  -> (7/6)/4 = 7/24
    assert mean_pass_hat_k(RUN, 2) == pytest.approx(7 / 24)


def test_pass_hat_k_skips_tasks_with_fewer_than_k_attempts() -> None:
    # k=3, D skipped: A 1; B 0 (c = 2 < 3); C 0  -> 1/3
    assert mean_pass_hat_k(RUN, 3) == pytest.approx(1 / 3)


def test_plugin_averages_rate_to_the_k() -> None:
    # k=2: 1 + 0.25 + 0 + 0.25 = 1.5 -> 1.5/4 = 0.375
    assert mean_pass_hat_k_plugin(RUN, 2) == pytest.approx(0.375)


def test_k_above_every_n_gives_none() -> None:
    assert mean_pass_at_k(RUN, 5) is None


@pytest.mark.parametrize(
    "aggregate",
    [
        pass_at_1,
        lambda c: mean_pass_at_k(c, 1),
        lambda c: mean_pass_hat_k(c, 1),
        lambda c: mean_pass_hat_k_plugin(c, 1),
        lambda c: retention(c, 1),
    ],
    ids=["pass@1", "pass@k", "pass^k", "plug-in", "retention"],
)
def test_no_tasks_gives_none(aggregate: Callable[[Sequence[TaskCounts]], float | None]) -> None:
    assert aggregate([]) is None


def test_retention_is_pass_hat_k_over_pass_at_1() -> None:
    # k=2 covers all tasks: (7/24) / 0.5 = 7/12
    assert retention(RUN, 2) == pytest.approx(7 / 12)


def test_retention_uses_the_same_tasks_for_both_numbers() -> None:
    # k=3 covers A, B, C: pass^3 = 1/3, pass@1 = (1 + 0.5 + 0)/3 = 0.5  -> 2/3
    assert retention(RUN, 3) == pytest.approx(2 / 3)


def test_retention_is_none_when_pass_at_1_is_zero() -> None:
    assert retention([TaskCounts("A", 3, 0), TaskCounts("B", 3, 0)], 2) is None


def test_observed_k_of_k_counts_all_pass_tasks_in_canonical_run() -> None:
    # only A passed 4/4, out of 3 tasks
    observed = observed_k_of_k(CANONICAL, 4)
    assert (observed.tasks, observed.total, observed.share, observed.short) == (1, 3, 1 / 3, ())
    assert observed.canonical


def test_a_short_task_whose_every_attempt_passed_is_not_dependable() -> None:
    # the example at k = 5: (5, 5), (1, 1), (5, 2) -> one dependable task, one short task
    counts = [TaskCounts("full", 5, 5), TaskCounts("short", 1, 1), TaskCounts("half", 5, 2)]
    observed = observed_k_of_k(counts, 5)
    assert (observed.tasks, observed.short, observed.total) == (1, ("short",), 3)
    assert observed.share == pytest.approx(1 / 3), "short tasks stay in the share's denominator"
    assert not observed.canonical
    assert [is_dependable(t, 5) for t in counts] == [True, False, False]


def test_a_task_with_no_finished_attempt_is_short_not_dependable() -> None:
    observed = observed_k_of_k([TaskCounts("A", 3, 3), TaskCounts("errored", 0, 0)], 3)
    assert (observed.tasks, observed.short, observed.share) == (1, ("errored",), 0.5)


def test_observed_k_of_k_names_short_tasks_in_input_order() -> None:
    observed = observed_k_of_k(RUN, 4)
    assert (observed.tasks, observed.share, observed.short) == (1, 0.25, ("D",))
    assert dependable_tasks(RUN, 4) == 1


def test_observed_k_of_k_of_no_tasks_has_no_share() -> None:
    observed = observed_k_of_k([], 4)
    assert (observed.tasks, observed.share, observed.short) == (0, None, ())
