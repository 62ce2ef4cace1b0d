"""A built-in suite: the tasks of one or all built-in domains, as a `TaskSet`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from statebox.runner.taskset import Listing, TaskSet
from statebox.tasks import Domain
from statebox.tasks.model import Task
from statebox.tasks.worlds import TaskWorlds, load_worlds

if TYPE_CHECKING:
    from statebox.judge import JudgingRules
    from statebox.runner.source import WorldSource
    from statebox.world import Effects


@dataclass
class Suite(TaskWorlds, TaskSet):
    """Tasks plus their domains; a selection shares the snapshots and baselines of the suite it came from."""

    def attempt_source(self, tools_via: str = "memory") -> WorldSource:
        """A world session per attempt, judged against the reference's effects (replayed once per task)."""
        from statebox.runner.source import WorldSource  # the agents and the judge load with what runs attempts

        return WorldSource(self, tools_via)

    def required_effects(self, task: Task) -> list[Effects]:
        from statebox.judge import required_effects

        return required_effects(self, task)

    def judging_rules(self, task: Task) -> JudgingRules:
        from statebox.judge import rules_for

        return rules_for(self, task)

    def writes(self, task: Task, tool: str) -> bool:
        tools = self.domain_of(task).tools
        return tool in tools and tools[tool].writes

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
