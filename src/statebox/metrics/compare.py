"""Paired comparison of two runs (a = baseline, b = candidate) on the tasks they share.

A task "passes" (its majority outcome) when its pass rate c/n is at least 0.5. A task flips
when it passes in one run and not in the other. Only tasks with n >= 1 in both runs are shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from statebox.metrics.bootstrap import MIN_RESAMPLES, bootstrap_mean
from statebox.metrics.counts import TaskCounts

MAJORITY = 0.5


@dataclass(frozen=True)
class PairedComparison:
    """Paired pass@1 difference (b - a) with a bootstrap interval, and which tasks flipped."""

    shared_tasks: int
    pass_at_1_a: float | None
    pass_at_1_b: float | None
    diff: float | None
    interval: tuple[float, float] | None
    flip_rate: float | None
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    only_in_a: tuple[str, ...]
    only_in_b: tuple[str, ...]

    @property
    def changed(self) -> tuple[str, ...]:
        """Task ids whose majority outcome changed, either way, sorted."""
        return tuple(sorted(self.gained + self.lost))


def _rates(counts: Sequence[TaskCounts], run: str) -> dict[str, float]:
    rates: dict[str, float] = {}
    for task in counts:
        if task.task_id in rates:
            raise ValueError(f"run {run} lists task {task.task_id!r} more than once")
        if task.n >= 1:
            rates[task.task_id] = task.c / task.n
    return rates


def compare_runs(
    a: Sequence[TaskCounts],
    b: Sequence[TaskCounts],
    *,
    seed: int = 0,
    resamples: int = MIN_RESAMPLES,
    confidence: float = 0.95,
) -> PairedComparison:
    """Compare run b against run a on their shared tasks (task ids sorted for determinism)."""
    rates_a, rates_b = _rates(a, "a"), _rates(b, "b")
    shared = sorted(rates_a.keys() & rates_b.keys())
    diffs = [rates_b[t] - rates_a[t] for t in shared]
    gained = tuple(t for t in shared if rates_a[t] < MAJORITY <= rates_b[t])
    lost = tuple(t for t in shared if rates_b[t] < MAJORITY <= rates_a[t])
    return PairedComparison(
        shared_tasks=len(shared),
        pass_at_1_a=fmean(rates_a[t] for t in shared) if shared else None,
        pass_at_1_b=fmean(rates_b[t] for t in shared) if shared else None,
        diff=fmean(diffs) if diffs else None,
        interval=bootstrap_mean(diffs, seed=seed, resamples=resamples, confidence=confidence),
        flip_rate=(len(gained) + len(lost)) / len(shared) if shared else None,
        gained=gained,
        lost=lost,
        only_in_a=tuple(sorted(rates_a.keys() - rates_b.keys())),
        only_in_b=tuple(sorted(rates_b.keys() - rates_a.keys())),
    )
