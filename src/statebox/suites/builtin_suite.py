"""A built-in suite: the tasks of one or all built-in domains, as a `TaskSet`."""

from __future__ import annotations

from dataclasses import dataclass

from statebox.runner.taskset import Listing, TaskSet
from statebox.tasks import Domain
from statebox.tasks.model import Task
from statebox.tasks.worlds import TaskWorlds, load_worlds


@dataclass
class Suite(TaskWorlds, TaskSet):
    """Tasks plus their domains; a selection shares the snapshots and baselines of the suite it came from."""

    def with_tasks(self, tasks: list[Task]) -> Suite:
        return Suite(self.name, tasks, self.domains, self._snapshots, self._baselines, self._lock)

    def listing(self) -> Listing:
        table = Listing(f"{self.name}: {len(self.tasks)} tasks", ("id", "domain", "writes", "facts", "tags"))
        for t in self.tasks:
            tools = self.domain_of(t).tools
            writes = sum(1 for c in t.reference if c.tool in tools and tools[c.tool].writes)
            table.rows.append((t.id, t.domain, writes, len(t.customer.facts), ", ".join(t.tags)))
        return table


def load_suite(name: str, domains: dict[str, Domain] | None = None) -> Suite:
    """A built-in suite by name: a domain's name, or `builtin` for all domains."""
    worlds = load_worlds(name, domains)
    return Suite(worlds.name, worlds.tasks, worlds.domains)
