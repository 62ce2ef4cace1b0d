"""A domain: a backend (world spec), its tools, its policy and its tasks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from statebox.tasks.checks import TraceCheck
from statebox.tasks.loader import load_task_dir
from statebox.tasks.model import Task
from statebox.tools import Toolset
from statebox.world import Snapshot, WorldSpec


@dataclass(frozen=True)
class Domain:
    """Everything statebox needs to run a domain's tasks. Domains are mostly data."""

    name: str
    world: WorldSpec
    tools: Toolset
    policy: str
    task_dir: Path
    description: str = ""
    checks: list[Callable[[Task], list[str]]] = field(default_factory=list)  # domain-specific lint
    customer_tools: Toolset = field(default_factory=lambda: Toolset([]))  # only the simulated customer's
    trace_checks: list[TraceCheck] = field(default_factory=list)  # judged on every task's trace
    # For the suite's shape (judge/shape): writes that only keep records (tickets, comments, hand-offs, emails,
    # texted codes), and writes that establish who the customer is (left out of the write sequences).
    helpdesk_tools: frozenset[str] = frozenset()
    identity_tools: frozenset[str] = frozenset()

    def load_tasks(self) -> list[Task]:
        """The domain's tasks, each judged by the domain's trace checks as well as its own."""
        tasks = load_task_dir(self.task_dir, self.name)
        if not self.trace_checks:
            return tasks
        return [t.model_copy(update={"checks": [*self.trace_checks, *t.checks]}) for t in tasks]

    def build_snapshot(self) -> Snapshot:
        return Snapshot.build(self.world)
