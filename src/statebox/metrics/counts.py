"""Per-task attempt counts, and whether a run is canonical (every task has the same n)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TaskCounts:
    """One task's finished attempts `n` and how many of them passed, `c`."""

    task_id: str
    n: int
    c: int

    def __post_init__(self) -> None:
        if not 0 <= self.c <= self.n:
            raise ValueError(f"task {self.task_id!r}: need 0 <= c <= n, got n={self.n}, c={self.c}")


@dataclass(frozen=True)
class Shortfall:
    """A task with fewer attempts than the most-attempted task, and how many it lacks."""

    task_id: str
    n: int
    missing: int


def max_attempts(counts: Sequence[TaskCounts]) -> int:
    """The largest n over tasks (0 for no tasks)."""
    return max((t.n for t in counts), default=0)


def is_canonical(counts: Sequence[TaskCounts]) -> bool:
    """True when every task has the same n (vacuously true for no tasks)."""
    return len({t.n for t in counts}) <= 1


def shortfall(counts: Sequence[TaskCounts]) -> list[Shortfall]:
    """Tasks short of the largest n, in input order; empty when the run is canonical."""
    n_max = max_attempts(counts)
    return [Shortfall(t.task_id, t.n, n_max - t.n) for t in counts if t.n < n_max]
