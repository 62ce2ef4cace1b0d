"""`statebox validate thinkingbox-bench`: the reference and no-op checks against the real servers,
and an audit the benchmark never had.

The reference passes when replaying it gives the golden hash; doing nothing must fail unless the
golden state equals the initial one (the task changes nothing). The audit, reported as findings,
not failures: every state-changing reference call is replayed away in turn, and a task that
still passes without it has an unnecessary golden write; and statebox's typed judge is compared
with the hash on the reference and the no-op. Keys are those of the built-in validation record
plus the audit's; mutants, which need statebox's own world, are null.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import BaseModel, Field

from statebox.agents.base import Agent, AttemptContext
from statebox.agents.scripted import NoopAgent, ReferenceAgent
from statebox.agents.transcript import Transcript
from statebox.compat.thinkingbox.backend import TbBackend
from statebox.compat.thinkingbox.protocol import reserved_geteffects
from statebox.compat.thinkingbox.source import TbSource
from statebox.compat.thinkingbox.suite import TbSuite
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import OutcomeInputs, StateOutcome
from statebox.tasks import Task

DEFAULT_CONCURRENCY = 2


class TbTaskValidation(BaseModel):
    """One task's checks, with the keys of the `validate --json` record."""

    id: str
    reference_passes: bool
    read_only: bool | None  # the golden state equals the initial one; None when unknown
    noop_fails: bool | None  # None for read-only tasks (and when unknown)
    necessary_calls: bool | None = None
    writes: int | None = None  # the reference's state-changing calls
    facts: int | None = None
    tags: list[str] = Field(default_factory=list)
    mutants_caught: int | None = None
    mutants_total: int | None = None
    problems: list[str] = Field(default_factory=list)
    unnecessary_writes: list[str] = Field(default_factory=list)  # "call N (tool)": passes without it
    typed_reference_passes: bool | None = None  # statebox's typed judge (None: states unreadable)
    noop_passes: bool | None = None  # by the hash, read-only tasks included
    typed_noop_passes: bool | None = None
    noop_kinds: list[str] = Field(default_factory=list)  # the typed discrepancy kinds of the no-op
    judge_disagreements: list[str] = Field(default_factory=list)  # where typed judge and hash differ, why

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
    """The reference and no-op checks and the audit of one task; problems are collected, never raised."""
    result = TbTaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None, tags=task.tags)
    try:
        reference, transcript = await _attempt(source, task, source.reference_agent(task))
        noop, _ = await _attempt(source, task, NoopAgent())
        writes = await state_changing_calls(source, task)
        needless = [i for i in writes if await _passes_without(source, task, i)]
    except ToolServerError as e:
        result.problems.append(f"tool server failed: {e}")
        return result
    result.reference_passes = reference.verdict.passed
    result.read_only = not reference.required_effects
    result.noop_fails = None if result.read_only else not noop.verdict.passed
    result.noop_passes = noop.verdict.passed
    result.writes = len(writes)
    result.unnecessary_writes = [f"call {i} ({task.reference[i].tool})" for i in needless]
    result.typed_reference_passes = reference.effects.get("typed", {}).get("passed")
    result.typed_noop_passes = noop.effects.get("typed", {}).get("passed")
    result.noop_kinds = sorted(noop.verdict.kinds())
    for name, outcome, typed in (("reference", reference, result.typed_reference_passes),
                                 ("no-op", noop, result.typed_noop_passes)):  # fmt: skip
        if typed is not None and typed != outcome.verdict.passed:
            result.judge_disagreements.append(_disagreement(name, outcome, typed))
    for entry in transcript.tool_results():
        if entry.is_error:
            result.problems.append(f"reference call {entry.tool_call_id} ({entry.tool_name}) failed: {entry.content}")
    if not result.reference_passes:
        shown = "; ".join(d.describe() for d in reference.verdict.discrepancies[:3])
        custom = reference.effects.get("custom_check")
        golden = f"the reference does not reach the golden state ({shown or 'hashes differ'})"
        result.problems.append(custom["summary"] if custom else golden)
    if result.read_only and noop.verdict.passed is False:
        result.problems.append("the golden state equals the initial one, yet doing nothing fails")
    return result


def _disagreement(name: str, outcome: StateOutcome, typed: bool) -> str:
    hashed = "passes" if outcome.verdict.passed else "fails"
    if typed:
        servers = outcome.effects.get("servers", {}).values()
        diff = "; ".join(item for info in servers for item in info.get("diff_sample", []))
        why = "only fields it does not judge, or generated ids it matched by content, differ"
        return f"{name}: the hash {hashed}, the typed judge finds no discrepancy ({why}; the servers' diff: {diff})"
    shown = "; ".join(d.describe()[:160] for d in outcome.verdict.discrepancies[:3])
    return f"{name}: the hash {hashed}, the typed judge finds {len(outcome.verdict.discrepancies)}: {shown}"


async def _passes_without(source: TbSource, task: Task, index: int) -> bool:
    """Whether the task still passes when the reference skips its call `index`."""
    calls = task.reference[:index] + task.reference[index + 1 :]
    outcome, _ = await _attempt(source, task, ReferenceAgent(calls, verbatim=True))
    return outcome.verdict.passed


async def state_changing_calls(source: TbSource, task: Task) -> list[int]:
    """The reference calls that change the servers' state: the reference replayed call by call,
    the result state read after each (the servers don't say which of their tools write)."""
    if not task.reference:
        return []
    backend = source.backend(task)
    assert isinstance(backend, TbBackend)
    try:
        async with backend.tools() as surface:
            changing, before = [], await _result_states(backend)
            for i, call in enumerate(task.reference):
                await surface.call_tool(call.tool, dict(call.args))
                after = await _result_states(backend)
                if after != before:
                    changing.append(i)
                before = after
        return changing
    finally:
        await backend.aclose()


async def _result_states(backend: TbBackend) -> list[Any]:
    states = []
    for link in backend.links:
        report = partial(reserved_geteffects, link.session, link.name)
        states.append((await link.guard("__reserved__geteffects", report)).result_db_state)
    return states


async def _attempt(source: TbSource, task: Task, agent: Agent) -> tuple[StateOutcome, Transcript]:
    backend = source.backend(task)
    transcript = Transcript()
    try:
        async with backend.tools() as surface:
            ctx = AttemptContext(backend.policy, surface, surface.list_tools(), transcript, seed=0)
            await agent.turn(ctx, task.opening_message)
        return await backend.outcome(OutcomeInputs(transcript)), transcript
    finally:
        await backend.aclose()
