"""What every sample of one Inspect task shares: the suite, its attempt source, the judge model.

Built-in suites and ThinkingBox-Bench alike run through the suite's `AttemptSource`, as `statebox run`
runs them. The source's shared resources (an MCP transport; for ThinkingBox-Bench the tool-server
templates) are held by `SourceLease` while at least one sample runs: started by the first, left by the
last, in the event loop Inspect runs the samples in.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from inspect_ai.model import GenerateConfig, Model

from statebox.integrations.inspect_task.errors import TaskArgumentError
from statebox.judge.rubrics import RubricJudge
from statebox.llm.client import ModelClient
from statebox.runner.errors import CampaignError
from statebox.runner.hosted_suite import HeldContext
from statebox.runner.source import AttemptSource
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task

CUSTOMER_ROLE = "customer"  # Inspect model role: statebox's LLM customer talks through it
JUDGE_ROLE = "judge"  # Inspect model role: the rubric questions are judged by it


class SourceLease:
    """An attempt source's `running()` context, held while any attempt needs it."""

    def __init__(self, source: AttemptSource, label: str) -> None:
        self.source = source
        self.label = label
        self._users = 0
        self._held: HeldContext[None] | None = None
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()

    def _lock(self) -> asyncio.Lock:
        return self._locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())

    @asynccontextmanager
    async def held(self) -> AsyncIterator[AttemptSource]:
        """The source, running for as long as the block lasts (and as long as another block needs it)."""
        async with self._lock():
            if self._held is None:
                held: HeldContext[None] = HeldContext(self.source.running(), self.label)
                await held.open()
                self._held = held
            self._users += 1
        try:
            yield self.source
        finally:
            async with self._lock():
                self._users -= 1
                held_now, done = self._held, self._users == 0
                if done:
                    self._held = None
                if done and held_now is not None:
                    await held_now.close()


class SuiteRuntime:
    """One suite as an Inspect task sees it; lives as long as the `Task` object."""

    def __init__(self, suite: TaskSet, time_budget_s: float = 600.0, judge_client: ModelClient | None = None) -> None:
        self.suite = suite
        self.time_budget_s = time_budget_s
        self.judge_client = judge_client  # statebox's client from `judge_model`; a `judge` model role wins
        self.source = suite.attempt_source()
        self.lease = SourceLease(self.source, f"suite {suite.name}")
        # One tool call per turn, as `statebox run` defaults to (ThinkingBox-Bench's agent spec requires it).
        self.agent_config = GenerateConfig(parallel_tool_calls=False)
        if self.source.prepare_ahead:  # cheap checks, and the servers the tasks need (started with the source)
            try:
                self.source.prepare(suite.tasks)
            except CampaignError as e:
                raise TaskArgumentError(f"suite {suite.name}: {e}") from None

    def task(self, task_id: str) -> Task:
        for task in self.suite.tasks:
            if task.id == task_id:
                return task
        raise LookupError(f"suite {self.suite.name!r} has no task {task_id!r}")

    def rubric_judge(self, task: Task, judge: ModelClient | None) -> RubricJudge | None:
        """A judge for one attempt of `task`, when it has questions and a judge model was given
        (`judge`: the `judge` role's model, else the task's `judge_model`)."""
        client = judge or self.judge_client
        if client is None or not task.asks_judge_model():
            return None
        return RubricJudge(client)


def role_model(roles: dict[str, Model | list[Model]], role: str) -> Model | None:
    """The model bound to an Inspect model role (the first, when a list is bound), or None."""
    bound = roles.get(role)
    if isinstance(bound, list):
        return bound[0] if bound else None
    return bound
