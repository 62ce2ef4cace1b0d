"""Cost per successful attempt and cost per dependable task (definitions in metrics.md).

`attempt_costs` maps a task id to the cost of each of its finished attempts; a missing task,
an empty list or a None entry means the cost is unknown, and the result is then None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean

from statebox.metrics.aggregates import dependable_tasks
from statebox.metrics.counts import TaskCounts

AttemptCosts = Mapping[str, Sequence[float | None]]


def _known_costs(counts: Sequence[TaskCounts], attempt_costs: AttemptCosts) -> list[list[float]]:
    """Per attempted task, its attempt costs; empty when any of them is unknown."""
    known = []
    for task in counts:
        if task.n < 1:
            continue
        costs = attempt_costs.get(task.task_id)
        if not costs or any(cost is None for cost in costs):
            return []
        known.append([cost for cost in costs if cost is not None])
    return known


def cost_per_successful_attempt(
    counts: Sequence[TaskCounts], attempt_costs: AttemptCosts
) -> float | None:
    """(sum over tasks of mean attempt cost) / (T x pass@1); None if pass@1 is 0 or cost unknown.

    T x pass@1 equals the sum over tasks of c/n, so that sum is the denominator.
    """
    per_task = _known_costs(counts, attempt_costs)
    expected_successes = sum(t.c / t.n for t in counts if t.n >= 1)
    if not per_task or expected_successes == 0:
        return None
    return sum(fmean(costs) for costs in per_task) / expected_successes


def cost_per_dependable_task(
    counts: Sequence[TaskCounts], attempt_costs: AttemptCosts
) -> float | None:
    """Cost of all attempts / number of tasks with c == n; None if none, or cost unknown."""
    per_task = _known_costs(counts, attempt_costs)
    dependable = dependable_tasks(counts)
    if not per_task or dependable == 0:
        return None
    return sum(sum(costs) for costs in per_task) / dependable
