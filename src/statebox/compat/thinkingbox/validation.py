"""`statebox validate thinkingbox-bench`: the reference and no-op checks against the real servers.

The reference passes when replaying it gives the golden hash; doing nothing must fail unless the
golden state equals the initial one (the task changes nothing). Keys are those of the built-in
validation record; checks that need statebox's own world (necessary calls, mutants) are null.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic import BaseModel, Field

from statebox.agents.base import Agent, AttemptContext
from statebox.agents.scripted import NoopAgent
from statebox.agents.transcript import Transcript
from statebox.compat.thinkingbox.source import TbSource
from statebox.compat.thinkingbox.suite import TbSuite
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import StateOutcome
from statebox.tasks import Task

DEFAULT_CONCURRENCY = 2


class TbTaskValidation(BaseModel):
    """One task's checks, with the keys of the `validate --json` record."""

    id: str
    reference_passes: bool
    read_only: bool | None  # the golden state equals the initial one; None when unknown
    noop_fails: bool | None  # None for read-only tasks (and when unknown)
    necessary_calls: bool | None = None
    writes: int | None = None
    facts: int | None = None
    tags: list[str] = Field(default_factory=list)
    mutants_caught: int | None = None
    mutants_total: int | None = None
    problems: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reference_passes and self.noop_fails is not False and not self.problems


async def validate_tb_suite(
    suite: TbSuite, *, concurrency: int = DEFAULT_CONCURRENCY, on_done: Callable[[], None] | None = None
) -> list[TbTaskValidation]:
    """Validate every task of the suite, `concurrency` tasks at a time, in the suite's order."""
    source = suite.attempt_source()
    source.prepare(suite.tasks)
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(task: Task) -> TbTaskValidation:
        async with gate:
            result = await validate_tb_task(source, task)
        if on_done is not None:
            on_done()
        return result

    async with source.running():
        return list(await asyncio.gather(*(one(task) for task in suite.tasks)))


async def validate_tb_task(source: TbSource, task: Task) -> TbTaskValidation:
    """The reference and no-op checks of one task; problems are collected, never raised."""
    result = TbTaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None, tags=task.tags)
    try:
        reference, transcript = await _attempt(source, task, source.reference_agent(task))
        noop, _ = await _attempt(source, task, NoopAgent())
    except ToolServerError as e:
        result.problems.append(f"tool server failed: {e}")
        return result
    result.reference_passes = reference.verdict.passed
    result.read_only = not reference.required_effects
    result.noop_fails = None if result.read_only else not noop.verdict.passed
    for entry in transcript.tool_results():
        if entry.is_error:
            result.problems.append(f"reference call {entry.tool_call_id} ({entry.tool_name}) failed: {entry.content}")
    if not result.reference_passes:
        shown = "; ".join(d.describe() for d in reference.verdict.discrepancies[:3])
        result.problems.append(f"the reference does not reach the golden state ({shown or 'hashes differ'})")
    if result.read_only and noop.verdict.passed is False:
        result.problems.append("the golden state equals the initial one, yet doing nothing fails")
    return result


async def _attempt(source: TbSource, task: Task, agent: Agent) -> tuple[StateOutcome, Transcript]:
    backend = source.backend(task)
    transcript = Transcript()
    try:
        async with backend.tools() as surface:
            ctx = AttemptContext(backend.policy, surface, surface.list_tools(), transcript, seed=0)
            await agent.turn(ctx, task.opening_message)
        return await backend.outcome(), transcript
    finally:
        await backend.aclose()
