"""The majority-flip rate of a paired comparison, and what it would be if nothing had changed.

A task flips when a strict majority of its attempts passed in one run and not in the other. With
no change, the attempts of a task in both runs are exchangeable: given the task's total passes
s = c_a + c_b over N = n_a + n_b attempts, run a's passes are hypergeometric (s passes dealt into
n_a of the N attempts). The expectation of the flip rate is the mean over tasks of the exact
conditional flip probability, which is unbiased for the no-change flip rate (a pooled pass rate
put into two binomials is not: it reads low). The flips of different tasks are independent given
the totals, so their count is Poisson-binomial: its 2.5% and 97.5% quantiles, over the number of
tasks, are the range the observed rate stays in 95% of the time when nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from statebox.metrics.counts import TaskCounts
from statebox.metrics.intervals import Interval, check_confidence


def majority_passes(task: TaskCounts) -> bool:
    """Strictly more than half of the task's attempts passed (a tie is not a pass)."""
    return 2 * task.c > task.n


def expected_flip(a: TaskCounts, b: TaskCounts) -> float:
    """P(the majority outcomes differ) given the task's total passes, if the runs do not differ."""
    passes, total = a.c + b.c, a.n + b.n
    flips = 0
    for j in range(max(0, passes - b.n), min(passes, a.n) + 1):
        if (2 * j > a.n) != (2 * (passes - j) > b.n):
            flips += comb(passes, j) * comb(total - passes, a.n - j)
    return flips / comb(total, a.n)


def _count_distribution(probabilities: Sequence[float]) -> list[float]:
    """P(exactly m of the independent events happen), m = 0..len(probabilities)."""
    distribution = [1.0]
    for p in probabilities:
        shifted = [0.0, *distribution]
        distribution = [(1 - p) * stay + p * move for stay, move in zip([*distribution, 0.0], shifted, strict=True)]
    return distribution


def _quantile(distribution: Sequence[float], q: float) -> int:
    """The smallest m with P(count <= m) >= q (rounding aside)."""
    cumulative = 0.0
    for m, p in enumerate(distribution):
        cumulative += p
        if cumulative >= q - 1e-12:
            return m
    return len(distribution) - 1


def no_change_flip_range(pairs: Sequence[tuple[TaskCounts, TaskCounts]], confidence: float = 0.95) -> Interval | None:
    """The range the flip rate over these tasks stays in with probability >= `confidence` if nothing changed."""
    check_confidence(confidence)
    if not pairs:
        return None
    distribution = _count_distribution([expected_flip(a, b) for a, b in pairs])
    tail = (1 - confidence) / 2
    return Interval(_quantile(distribution, tail) / len(pairs), _quantile(distribution, 1 - tail) / len(pairs))
