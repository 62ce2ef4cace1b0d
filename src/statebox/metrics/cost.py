"""Cost per successful attempt and cost per dependable task, each with its interval.

`spend` maps a task id to what all of that task's attempts cost, *including* attempts that ended
in an infrastructure error (their usage is money spent); None means some part is unknown, and
then the result is None. Definitions (docs/metrics.md):

- cost per successful attempt = total spend / number of passed attempts;
- cost per dependable task = total spend / number of dependable tasks (aggregates.py).

Both are ratios of per-task sums, so their intervals come from `ratio.py` with the task as unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from statebox.metrics.aggregates import is_dependable
from statebox.metrics.counts import TaskCounts, max_attempts
from statebox.metrics.ratio import RatioEstimate, ratio_interval

Spend = Mapping[str, float | None]


def _task_spend(counts: Sequence[TaskCounts], spend: Spend) -> list[float] | None:
    values = [spend.get(t.task_id) for t in counts]
    if any(v is None for v in values):
        return None
    return [v for v in values if v is not None]


def cost_per_successful_attempt(
    counts: Sequence[TaskCounts], spend: Spend, *, repeats: int | None = None, confidence: float = 0.95
) -> RatioEstimate | None:
    """Total spend / passed attempts; None when a cost is unknown. `repeats` bounds c per task."""
    values = _task_spend(counts, spend)
    if values is None:
        return None
    scale = max(repeats or 0, max_attempts(counts), 1)
    return ratio_interval(values, [float(t.c) for t in counts], scale=scale, confidence=confidence)


def cost_per_dependable_task(
    counts: Sequence[TaskCounts], spend: Spend, k: int, *, confidence: float = 0.95
) -> RatioEstimate | None:
    """Total spend / dependable tasks at k; None when a cost is unknown."""
    values = _task_spend(counts, spend)
    if values is None:
        return None
    flags = [1.0 if is_dependable(t, k) else 0.0 for t in counts]
    return ratio_interval(values, flags, scale=1.0, confidence=confidence)
