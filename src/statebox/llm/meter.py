"""The usage and cost of one role's model calls, and the one rule for adding costs up."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from statebox.llm.types import Usage


def sum_costs(costs: Iterable[float | None]) -> float | None:
    """The total in USD; unknown (None) once any part is unknown, since a partial sum would understate it."""
    total: float | None = 0.0
    for cost in costs:
        total = None if total is None or cost is None else total + cost
    return total


@dataclass
class Meter:
    """What one role (the agent, the customer, the judge) spent: tokens and USD, call by call."""

    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0

    def add(self, usage: Usage | None, cost_usd: float | None) -> None:
        """Count one model call (its usage as the provider reported it, its price or None)."""
        if usage is not None:
            self.usage = self.usage + usage
        self.cost_usd = sum_costs([self.cost_usd, cost_usd])
