"""Attempt sources: how one kind of suite runs its attempts, so the campaign needs no special cases.

A source owns what every attempt of a campaign shares (a tool transport, the required effects,
tool-server templates), makes one `AttemptBackend` per attempt, and sets up the agents the way
its suite expects. Every suite gives its own through `TaskSet.attempt_source()`: built-in suites a
`WorldSource`, ThinkingBox-Bench and τ-bench theirs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from statebox.agents.base import Agent
from statebox.agents.llm_agent import LlmAgent, OfferedTools, agent_instructions
from statebox.agents.scripted import ReferenceAgent
from statebox.judge import ReferenceFailed, required_effects
from statebox.llm.client import ModelClient
from statebox.runner.backend import AttemptBackend, ToolTransport, WorldBackend
from statebox.runner.errors import CampaignError
from statebox.runner.transports import transport_for
from statebox.tasks import Task
from statebox.tasks.worlds import TaskWorlds
from statebox.world import Effects

if TYPE_CHECKING:
    from statebox.runner.plan import CampaignConfig


class AttemptSource(ABC):
    """Backends and agents for the attempts of one campaign."""

    # Whether a host (`statebox serve`, OpenEnv) prepares every task before the first attempt; False: each task
    # on its first attempt.
    prepare_ahead: bool = True

    def manifest(self) -> dict[str, Any]:
        """Entries this source adds to the run manifest (they win over the generic ones)."""
        return {}

    def check(self, config: CampaignConfig) -> None:  # noqa: B027 - optional hook
        """Refuse, with a `CampaignError`, a campaign this kind of suite cannot run as configured."""

    def prepare(self, tasks: list[Task]) -> None:  # noqa: B027 - optional hook
        """Check or compute what the tasks need before any attempt runs; raise `CampaignError`."""

    @abstractmethod
    def running(self) -> AbstractAsyncContextManager[None]:
        """Hold the campaign-wide resources while attempts run."""

    @abstractmethod
    def backend(self, task: Task) -> AttemptBackend:
        """A fresh backend for one attempt of `task`; only while `running()`."""

    def reference_agent(self, task: Task) -> Agent:
        return ReferenceAgent(task.reference)

    def llm_agent(self, client: ModelClient, task: Task, time_budget_s: float) -> Agent:
        return LlmAgent(client, task.limits, time_budget_s=time_budget_s)


class WorldSource(AttemptSource):
    """Built-in suites: a world session per attempt, judged against the reference's effects."""

    prepare_ahead = False  # a reference replays in milliseconds: each on its task's first attempt

    def __init__(self, suite: TaskWorlds, tools_via: str = "memory") -> None:
        self.suite = suite
        self.tools_via = tools_via
        self.required: dict[str, list[Effects]] = {}
        self._transport: ToolTransport | None = None
        self._instructions = agent_instructions()  # read once, not per attempt
        self._offered = OfferedTools()  # each domain's tools converted and encoded once per campaign

    def prepare(self, tasks: list[Task]) -> None:
        """Replay every reference once; a reference that fails is a task bug and stops the campaign."""
        try:
            for task in tasks:
                self.required[task.id] = required_effects(self.suite, task)
        except ReferenceFailed as e:
            raise CampaignError(f"{e} — this is a task bug; run `statebox validate`") from None

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        async with transport_for(self.tools_via) as transport:
            self._transport = transport
            try:
                yield
            finally:
                self._transport = None

    def running(self) -> AbstractAsyncContextManager[None]:
        return self._running()

    def llm_agent(self, client: ModelClient, task: Task, time_budget_s: float) -> Agent:
        return LlmAgent(
            client, task.limits, time_budget_s=time_budget_s, instructions=self._instructions, offered=self._offered
        )

    def backend(self, task: Task) -> AttemptBackend:
        if self._transport is None:
            raise RuntimeError("WorldSource.backend() is only available while running()")
        if task.id not in self.required:
            self.prepare([task])
        return WorldBackend(self.suite, task, self.required[task.id], self._transport)
