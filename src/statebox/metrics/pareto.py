"""The cost/accuracy Pareto frontier across runs.

A point is dominated when another is no more expensive, at least as accurate, and strictly
better in one of the two. Exact ties dominate neither way, so identical points all stay on the
frontier. Points with unknown cost cannot be placed and are left off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ParetoPoint:
    """One run: its name, cost per successful attempt (None if unknown) and pass@1."""

    name: str
    cost_per_success: float | None
    pass_at_1: float


def dominates(a: ParetoPoint, b: ParetoPoint) -> bool:
    """True when `a` is no more expensive and at least as accurate as `b`, and better in one."""
    if a.cost_per_success is None or b.cost_per_success is None:
        return False
    no_worse = a.cost_per_success <= b.cost_per_success and a.pass_at_1 >= b.pass_at_1
    better = a.cost_per_success < b.cost_per_success or a.pass_at_1 > b.pass_at_1
    return no_worse and better


def pareto_frontier(points: Sequence[ParetoPoint]) -> list[ParetoPoint]:
    """The undominated points with known cost, cheapest first (then most accurate, then name)."""
    placed = [p for p in points if p.cost_per_success is not None]
    frontier = [p for p in placed if not any(dominates(q, p) for q in placed)]
    return sorted(frontier, key=lambda p: (p.cost_per_success, -p.pass_at_1, p.name))
