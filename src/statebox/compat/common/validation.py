"""The scripted checks both benchmarks' `validate` runs on their own servers.

Per task: the reference attempted, the no-op attempted, the reference replayed call by call with the
state read after each (so the calls that change it are known), and each of those left out in turn (a task
that still passes without one has an unnecessary write). What differs per benchmark is said by its
`Replay`: how its state is read, and whether the agent's closing reply is part of what is graded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, Field

from statebox.agents.base import Agent, AttemptContext
from statebox.agents.scripted import NoopAgent, ReferenceAgent
from statebox.agents.transcript import Entry, Transcript
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import AttemptBackend, OutcomeInputs, StateOutcome
from statebox.runner.source import AttemptSource
from statebox.tasks import Task

DEFAULT_CONCURRENCY = 2
T = TypeVar("T", bound=Task)
R = TypeVar("R")


class TaskValidation(BaseModel):
    """The keys every task record of `validate --json` starts with (those of the built-in validation record);
    each benchmark's record adds its audit's after them."""

    id: str
    reference_passes: bool
    read_only: bool | None  # the reference changes nothing; None when unknown
    noop_fails: bool | None  # None for read-only tasks (and when unknown)
    necessary_calls: bool | None = None  # every state-changing reference call is needed
    writes: int | None = None  # the reference calls that change the state
    facts: int | None = None
    tags: list[str] = Field(default_factory=list)
    mutants_caught: int | None = None
    mutants_total: int | None = None
    problems: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reference_passes and self.noop_fails is not False and not self.problems


@dataclass(frozen=True)
class ScriptedRuns:
    """What the scripted attempts of one task found."""

    reference: StateOutcome
    transcript: Transcript  # the reference attempt's
    noop: StateOutcome
    changing: list[int]  # the reference calls after which the state differs from before
    needless: list[int]  # those of them the task passes without

    def record(self, result: TaskValidation) -> None:
        """The checks both benchmarks read off the runs alike."""
        result.reference_passes = self.reference.verdict.passed
        result.read_only = not self.reference.required_effects
        result.noop_fails = None if result.read_only else not self.noop.verdict.passed
        result.writes = len(self.changing)

    def unnecessary_writes(self, task: Task) -> list[str]:
        """The needless calls as the audit names them: "call N (tool)"."""
        return [f"call {i} ({task.reference[i].tool})" for i in self.needless]


@dataclass(frozen=True)
class Replay:
    """How one benchmark's references are replayed on its attempt source. `state_now` reads the attempt's
    state (what is compared after each reference call); `logs_reply`: the agent's closing reply goes into
    the transcript, for a benchmark that grades what the agent said."""

    source: AttemptSource
    state_now: Callable[[AttemptBackend], Awaitable[object]]
    logs_reply: bool

    async def checked(self, task: Task, result: TaskValidation) -> ScriptedRuns | None:
        """The task's scripted runs, or None with the tool server's failure recorded as a problem of `result`."""
        try:
            reference, transcript = await self.attempt(task, self.source.reference_agent(task))
            noop, _ = await self.attempt(task, NoopAgent())
            changing = await self.state_changing_calls(task)
            needless = [i for i in changing if await self.passes_without(task, i)]
        except ToolServerError as e:
            result.problems.append(f"tool server failed: {e}")
            return None
        return ScriptedRuns(reference, transcript, noop, changing, needless)

    async def attempt(self, task: Task, agent: Agent) -> tuple[StateOutcome, Transcript]:
        """One attempt of `agent` on a fresh backend, judged; the backend is closed whatever happens."""
        backend = self.source.backend(task)
        transcript = Transcript()
        try:
            async with backend.tools() as surface:
                ctx = AttemptContext(backend.policy, surface, surface.list_tools(), transcript, seed=0)
                turn = await agent.turn(ctx, task.opening_message)
                if self.logs_reply:
                    ctx.log(Entry(role="agent", content=turn.reply))
            return await backend.outcome(OutcomeInputs(transcript)), transcript
        finally:
            await backend.aclose()

    async def passes_without(self, task: Task, index: int) -> bool:
        """Whether the task still passes when its reference agent skips the call `index`."""
        agent = self.source.reference_agent(task)
        assert isinstance(agent, ReferenceAgent)
        agent.calls = task.reference[:index] + task.reference[index + 1 :]
        outcome, _ = await self.attempt(task, agent)
        return outcome.verdict.passed

    async def state_changing_calls(self, task: Task) -> list[int]:
        """The reference calls after which the state differs from before: the reference replayed call by
        call on one backend, the state read after each."""
        if not task.reference:
            return []
        backend = self.source.backend(task)
        try:
            async with backend.tools() as surface:
                changing, before = [], await self.state_now(backend)
                for i, call in enumerate(task.reference):
                    await surface.call_tool(call.tool, dict(call.args))
                    after = await self.state_now(backend)
                    if after != before:
                        changing.append(i)
                    before = after
            return changing
        finally:
            await backend.aclose()


async def validate_each(
    source: AttemptSource,
    tasks: Sequence[T],
    check: Callable[[T], Awaitable[R]],
    *,
    concurrency: int,
    on_done: Callable[[], None] | None,
) -> list[R]:
    """`check` every task while the source runs, `concurrency` tasks at a time, the results in the tasks' order."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(task: T) -> R:
        async with gate:
            result = await check(task)
        if on_done is not None:
            on_done()
        return result

    async with source.running():
        return list(await asyncio.gather(*(one(task) for task in tasks)))
