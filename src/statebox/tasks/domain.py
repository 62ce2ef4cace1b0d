"""A domain: a backend (world spec), its tools, its policy and its tasks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

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

    def build_snapshot(self) -> Snapshot:
        return Snapshot.build(self.world)
