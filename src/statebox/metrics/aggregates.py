"""Run-level numbers: means over tasks of the per-task estimators, observed k/k, retention.

A task with n < k is skipped at k (it cannot estimate); a mean over no tasks is None.
pass@1 therefore skips tasks with no finished attempts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from statebox.metrics.counts import TaskCounts
from statebox.metrics.estimators import Estimator, pass_at_k, pass_hat_k, pass_hat_k_plugin


def task_values(counts: Sequence[TaskCounts], estimator: Estimator, k: int) -> list[float]:
    """The estimator's value for each task that has n >= k, in input order."""
    values = (estimator(t.n, t.c, k) for t in counts)
    return [v for v in values if v is not None]


def _mean(values: list[float]) -> float | None:
    return fmean(values) if values else None


def pass_at_1(counts: Sequence[TaskCounts]) -> float | None:
    """Mean over tasks of c/n."""
    return _mean([t.c / t.n for t in counts if t.n >= 1])


def mean_pass_at_k(counts: Sequence[TaskCounts], k: int) -> float | None:
    """pass@k: mean over tasks with n >= k of the unbiased per-task pass@k."""
    return _mean(task_values(counts, pass_at_k, k))


def mean_pass_hat_k(counts: Sequence[TaskCounts], k: int) -> float | None:
    """pass^k: mean over tasks with n >= k of the unbiased per-task pass^k."""
    return _mean(task_values(counts, pass_hat_k, k))


def mean_pass_hat_k_plugin(counts: Sequence[TaskCounts], k: int) -> float | None:
    """Plug-in pass^k: mean over tasks with n >= k of (c/n)^k; biased upward, label it so."""
    return _mean(task_values(counts, pass_hat_k_plugin, k))


def retention(counts: Sequence[TaskCounts], k: int) -> float | None:
    """pass^k / pass@1, both over the tasks with n >= k; None when that pass@1 is 0."""
    eligible = [t for t in counts if t.n >= k]
    base = pass_at_1(eligible)
    if not base:
        return None
    hat = mean_pass_hat_k(eligible, k)
    return None if hat is None else hat / base


@dataclass(frozen=True)
class ObservedKOfK:
    """Dependable tasks at k: exactly k finished attempts, every one passed.

    `short` names the tasks with fewer than k finished attempts: they are never dependable, they
    stay in the share's denominator (`total`), and their presence makes a report non-canonical.
    """

    k: int
    tasks: int
    total: int
    short: tuple[str, ...]

    @property
    def share(self) -> float | None:
        return self.tasks / self.total if self.total else None

    @property
    def canonical(self) -> bool:
        """True when no task is short, so the count means "k out of k" for every task."""
        return not self.short


def is_dependable(task: TaskCounts, k: int) -> bool:
    """A task is dependable at k when it has exactly k finished attempts and all of them passed."""
    return k >= 1 and task.n == k and task.c == k


def dependable_tasks(counts: Sequence[TaskCounts], k: int) -> int:
    """Number of dependable tasks at k (short tasks never count)."""
    return sum(1 for t in counts if is_dependable(t, k))


def observed_k_of_k(counts: Sequence[TaskCounts], k: int) -> ObservedKOfK:
    """Count and share of dependable tasks at k, over every task given; short tasks named."""
    return ObservedKOfK(
        k=k,
        tasks=dependable_tasks(counts, k),
        total=len(counts),
        short=tuple(t.task_id for t in counts if t.n < k),
    )
