"""What every episode of one server shares: the suite, its split, its attempt host, and the idle clock."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Protocol

from statebox.llm.client import ModelClient
from statebox.openenv.episode import Episode, ShapedInputs
from statebox.openenv.splits import Split, in_split, split_of
from statebox.runner.hosted_suite import HostedJudging, SuiteHost
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer

DEFAULT_IDLE_TIMEOUT_S = 600.0


class UnknownTask(LookupError):
    """A reset asked for a task this server does not serve."""


@dataclass
class EpisodeSource:
    """Tasks of any suite (one split of them, if asked), each episode on the suite's own attempt backend.

    Built-in suites replay their references once, up front (`prepare`); other suites (ThinkingBox-Bench)
    check their tasks and hold their tool-server templates while `running()`. The customer is the task's
    scripted one, or an LLM playing it through `customer_client`. An episode untouched for longer than
    `idle_timeout_s` (by `clock`) is closed by `reap_idle()`.
    """

    suite: TaskSet
    split: Split | None = None
    shaped: bool = False
    customer_client: ModelClient | None = None
    judge_client: ModelClient | None = None  # rubric questions (and a suite's judge questions); None: not judged
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S
    clock: Callable[[], float] = time.monotonic
    on_expired: Callable[[Idle], Awaitable[None]] | None = None  # e.g. free the server's session slot
    _prepared: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.tasks = {t.id: t for t in self.suite.tasks}
        self.task_ids = in_split(list(self.tasks), self.split)
        self.host = SuiteHost(self.suite)
        if self.shaped and any(self.suite.judging_rules(t) is None for t in self.suite.tasks):
            raise ValueError(f"a shaped reward needs a built-in suite's required effects; {self.suite.name!r} has none")
        self.environments: set[Idle] = set()  # the live environments, for the idle reaper

    def prepare(self) -> None:
        """Check every task of the split (built-in suites replay each reference); a `CampaignError` stops the server."""
        self.host.prepare([self.tasks[t] for t in self.task_ids])
        self._prepared.update(self.task_ids)

    def prepared(self) -> int:
        return sum(1 for t in self.task_ids if t in self._prepared)

    def running(self) -> AbstractAsyncContextManager[None]:
        """Hold what every episode shares (tool-server templates) while the server runs."""
        return self._running()

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        await self.host.start()
        try:
            yield
        finally:
            for env in list(self.environments):
                await env.expire(None)
            await self.host.aclose()

    def choose(self, task_id: str | None, seed: int | None) -> Task:
        """The task asked for, else a seeded (or, with no seed, arbitrary) choice from the split."""
        if task_id is None:
            if not self.task_ids:
                raise UnknownTask(f"suite {self.suite.name!r} has no {self.split} tasks")
            return self.tasks[random.Random(seed).choice(self.task_ids)]
        if task_id not in self.tasks:
            raise UnknownTask(f"suite {self.suite.name!r} has no task {task_id!r}")
        if self.split is not None and split_of(task_id) != self.split:
            raise UnknownTask(f"task {task_id!r} is in the {split_of(task_id)} split; this server serves {self.split}")
        return self.tasks[task_id]

    async def open(self, task: Task) -> Episode:
        """A started episode of `task` on a fresh backend."""
        await self.host.start()  # a no-op once started (in process, without `running()`)
        backend = self.host.backend(task)
        judged = backend.reference_judging() if self.shaped else None
        shaped = ShapedInputs(*judged) if judged is not None else None
        self._prepared.add(task.id)
        judging = HostedJudging(self.judge_client, self.suite.rubrics_on)
        return await Episode(task, backend, self.customer(task), shaped=shaped, judging=judging).start()

    def customer(self, task: Task) -> SimulatedCustomer:
        if self.customer_client is None:
            return ScriptedCustomer(task.customer)
        return LlmCustomer(self.customer_client, task.customer)

    def customer_kind(self) -> dict[str, str]:
        if self.customer_client is None:
            return {"kind": "scripted"}
        return {"kind": "llm", "model": self.customer_client.spec}

    async def reap_idle(self) -> int:
        """Close every episode untouched for longer than the idle timeout; return how many."""
        now = self.clock()
        idle = [env for env in self.environments if env.idle_since(now) > self.idle_timeout_s]
        for env in idle:
            await env.expire(self.idle_timeout_s)
            if self.on_expired is not None:
                await self.on_expired(env)
        return len(idle)

    async def reap_forever(self) -> None:
        """Reap idle episodes periodically (one background task per server)."""
        period = min(max(self.idle_timeout_s / 4, 0.05), 30.0)
        while True:
            await asyncio.sleep(period)
            await self.reap_idle()


class Idle(Protocol):
    """What the idle reaper needs of an environment (implemented by `StateboxEnvironment`)."""

    def idle_since(self, now: float) -> float:
        """Seconds since the last reset or step; 0 while a step runs or without an open episode."""
        ...

    async def expire(self, timeout_s: float | None) -> None:
        """Close the open episode; `timeout_s` given: the next step says the session was idle that long."""
        ...
