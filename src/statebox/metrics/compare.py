"""Paired comparison of two runs (a = baseline, b = candidate) on the tasks both finished.

- diff = mean over paired tasks of (c_b / n_b - c_a / n_a), with a t interval whose per-task
  variance is at least 1 / T, the variance if one task in T had gone from always failing to
  always passing: T tasks cannot rule out that much change among the tasks not sampled, so
  two identical runs get about +/- 2 / T rather than a point. Realistic spreads at T = 40 and
  5 repeats are above the floor; it never binds at T = 500;
- changed tasks: Boschloo's exact test per task, Benjamini-Hochberg at q = FDR_LEVEL over the
  paired tasks (exact.py); `gained` / `lost` split them by direction;
- the majority-flip rate: the share of paired tasks passed by a strict majority of attempts in
  one run and not in the other, beside its expectation and 95% range if nothing changed, given
  each task's total passes (flips.py).

A task with no finished attempt in a run (all its attempts errored) is not paired; it is listed
as errored in that run, never as "only in" the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import fmean

from statebox.metrics.counts import TaskCounts
from statebox.metrics.exact import ExactTest, benjamini_hochberg
from statebox.metrics.flips import expected_flip, majority_passes, no_change_flip_range
from statebox.metrics.intervals import Interval, critical_values, pass_at_1_interval

FDR_LEVEL = 0.10


@dataclass(frozen=True)
class PairedComparison:
    """What `compare` reports about b against a."""

    shared_tasks: int
    pass_at_1_a: float | None
    pass_at_1_b: float | None
    interval_a: Interval | None  # pass@1 of a over the paired tasks, its bounded interval
    interval_b: Interval | None
    diff: float | None
    interval: Interval | None
    changed: tuple[str, ...]
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    p_values: dict[str, float]
    flips: int
    flip_rate: float | None
    expected_flip_rate: float | None
    no_change_flip_range: Interval | None  # the flip rate's 95% range if nothing changed
    only_in_a: tuple[str, ...]
    only_in_b: tuple[str, ...]
    errored_in_a: tuple[str, ...]
    errored_in_b: tuple[str, ...]


def _index(counts: Sequence[TaskCounts], run: str) -> dict[str, TaskCounts]:
    index: dict[str, TaskCounts] = {}
    for task in counts:
        if task.task_id in index:
            raise ValueError(f"run {run} lists task {task.task_id!r} more than once")
        index[task.task_id] = task
    return index


def diff_interval(diffs: Sequence[float], confidence: float = 0.95) -> Interval | None:
    """Interval of the mean paired difference (values in [-1, 1]), never of zero width."""
    size = len(diffs)
    if not size:
        return None
    mean = fmean(diffs)
    spread = sum((d - mean) ** 2 for d in diffs) / (size - 1) if size >= 2 else 1.0
    se = sqrt(max(spread, 1 / size) / size)
    _, t = critical_values(size, confidence)
    return Interval(max(-1.0, mean - t * se), min(1.0, mean + t * se))


def _pass_at_1_interval(counts: Sequence[TaskCounts], confidence: float) -> Interval | None:
    estimate = pass_at_1_interval(counts, confidence)
    return None if estimate is None else Interval(estimate.lo, estimate.hi)


def compare_runs(
    a: Sequence[TaskCounts],
    b: Sequence[TaskCounts],
    *,
    q: float = FDR_LEVEL,
    confidence: float = 0.95,
    test: ExactTest | None = None,
) -> PairedComparison:
    """Compare run b against run a on the tasks both finished (task ids sorted for determinism).

    `test` may be shared across many comparisons (it remembers the p-values it computed).
    """
    test = test or ExactTest()
    index_a, index_b = _index(a, "a"), _index(b, "b")
    shared = sorted(t for t in index_a.keys() & index_b.keys() if index_a[t].n >= 1 and index_b[t].n >= 1)
    pairs = [(index_a[t], index_b[t]) for t in shared]
    rates_a = [x.c / x.n for x, _ in pairs]
    rates_b = [y.c / y.n for _, y in pairs]
    diffs = [rb - ra for ra, rb in zip(rates_a, rates_b, strict=True)]
    p_values = [test.p_value(x.c, x.n, y.c, y.n) for x, y in pairs]
    rejected = benjamini_hochberg(p_values, q) if pairs else []
    changed = [t for t, r in zip(shared, rejected, strict=True) if r]
    flips = sum(majority_passes(x) != majority_passes(y) for x, y in pairs)
    return PairedComparison(
        shared_tasks=len(shared),
        pass_at_1_a=fmean(rates_a) if pairs else None,
        pass_at_1_b=fmean(rates_b) if pairs else None,
        interval_a=_pass_at_1_interval([x for x, _ in pairs], confidence),
        interval_b=_pass_at_1_interval([y for _, y in pairs], confidence),
        diff=fmean(diffs) if pairs else None,
        interval=diff_interval(diffs, confidence),
        changed=tuple(changed),
        gained=tuple(t for t, d in zip(shared, diffs, strict=True) if t in changed and d > 0),
        lost=tuple(t for t, d in zip(shared, diffs, strict=True) if t in changed and d < 0),
        p_values={t: p for t, p, r in zip(shared, p_values, rejected, strict=True) if r},
        flips=flips,
        flip_rate=flips / len(pairs) if pairs else None,
        expected_flip_rate=fmean(expected_flip(x, y) for x, y in pairs) if pairs else None,
        no_change_flip_range=no_change_flip_range(pairs, confidence),
        only_in_a=tuple(sorted(t for t in index_a.keys() - index_b.keys() if index_a[t].n >= 1)),
        only_in_b=tuple(sorted(t for t in index_b.keys() - index_a.keys() if index_b[t].n >= 1)),
        errored_in_a=tuple(sorted(t for t, c in index_a.items() if c.n == 0)),
        errored_in_b=tuple(sorted(t for t, c in index_b.items() if c.n == 0)),
    )
