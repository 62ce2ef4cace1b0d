"""What every sample of one Inspect task shares: the suite, its required effects, the MCP transport."""

from __future__ import annotations

from dataclasses import dataclass, field

from statebox.judge import required_effects
from statebox.judge.rubrics import RubricJudge
from statebox.llm.client import ModelClient
from statebox.runner.backend import WorldBackend
from statebox.runner.transports import MemoryTransport
from statebox.suites import Suite
from statebox.tasks import Task
from statebox.world import Effects


@dataclass
class SuiteRuntime:
    """One built-in suite as an Inspect task sees it; lives as long as the `Task` object."""

    suite: Suite
    time_budget_s: float = 600.0
    transport: MemoryTransport = field(default_factory=MemoryTransport)
    required: dict[str, list[Effects]] = field(default_factory=dict)  # per task id, the reference replayed once
    judge_client: ModelClient | None = None  # the rubric judge (statebox's client); None: rubrics not judged

    def task(self, task_id: str) -> Task:
        for task in self.suite.tasks:
            if task.id == task_id:
                return task
        raise LookupError(f"suite {self.suite.name!r} has no task {task_id!r}")

    def rubric_judge(self, task: Task) -> RubricJudge | None:
        """A judge for one attempt of `task`, when it has questions and a judge model was given."""
        if self.judge_client is None or not task.asks_judge_model():
            return None
        return RubricJudge(self.judge_client)

    def backend(self, task: Task) -> WorldBackend:
        """A fresh world session for one attempt, its tools behind the official MCP client."""
        if task.id not in self.required:
            self.required[task.id] = required_effects(self.suite, task)
        return WorldBackend(self.suite, task, self.required[task.id], self.transport)
