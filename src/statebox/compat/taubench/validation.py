"""`statebox validate tau-bench:*`: the reference, no-op and necessity checks on τ-bench's own code, and an audit.

The reference (the task's actions, then its required outputs said) must earn τ-bench's reward; doing
nothing must not, for a task whose actions change the data. Each reference call is replayed with the
data's hash read after it, so the calls that change state are known (and a tool statebox counts as
read-only must never change it); each of those is left out in turn, and a task that still passes
without it has an unnecessary write. The audit, reported as findings, not failures: unnecessary
writes, required outputs that cannot be said without a tool call (τ-bench's match finds them nowhere
in the customer's instruction), tasks whose actions change nothing, and where statebox's typed judge
and τ-bench's hash disagree.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic import BaseModel, Field

from statebox.agents.base import Agent, AttemptContext
from statebox.agents.scripted import NoopAgent, ReferenceAgent
from statebox.agents.transcript import Entry, Transcript
from statebox.compat.taubench.backend import TauBackend
from statebox.compat.taubench.source import TauSource
from statebox.compat.taubench.suite import TauSuite
from statebox.compat.taubench.surface import READ_ONLY
from statebox.compat.taubench.task import TauBenchTask
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import OutcomeInputs, StateOutcome
from statebox.runner.taskset import Listing
from statebox.suites.provider import ValidationReport

DEFAULT_CONCURRENCY = 2


class TauTaskValidation(BaseModel):
    """One task's checks, with the keys of the `validate --json` record."""

    id: str
    reference_passes: bool
    read_only: bool | None  # the task's actions change nothing; None when unknown
    noop_fails: bool | None  # None for read-only tasks (and when unknown)
    necessary_calls: bool | None = None  # every state-changing reference call is needed
    writes: int | None = None  # reference calls that change the data
    facts: int | None = None
    tags: list[str] = Field(default_factory=list)
    mutants_caught: int | None = None
    mutants_total: int | None = None
    problems: list[str] = Field(default_factory=list)
    state_hash: str | None = None  # after the reference, by τ-bench's get_data_hash
    gt_data_hash: str | None = None  # after τ-bench's own replay of the actions
    unnecessary_writes: list[str] = Field(default_factory=list)  # "call N (tool)": passes without it
    outputs_needing_calls: list[str] = Field(default_factory=list)  # required outputs not in the instruction
    typed_reference_passes: bool | None = None
    typed_noop_passes: bool | None = None
    judge_disagreements: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reference_passes and self.noop_fails is not False and not self.problems


async def validate_tau_suite(
    suite: TauSuite, *, concurrency: int = DEFAULT_CONCURRENCY, on_done: Callable[[], None] | None = None
) -> list[TauTaskValidation]:
    """Validate every task of the suite, `concurrency` tasks at a time, in the suite's order."""
    source = suite.attempt_source()
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(task: TauBenchTask) -> TauTaskValidation:
        async with gate:
            result = await validate_tau_task(source, task)
        if on_done is not None:
            on_done()
        return result

    async with source.running():
        return list(await asyncio.gather(*(one(suite.tau_task(t.id)) for t in suite.tasks)))


async def validate_tau_task(source: TauSource, task: TauBenchTask) -> TauTaskValidation:
    """The checks and the audit of one task; problems are collected, never raised."""
    result = TauTaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None, tags=task.tags)
    result.outputs_needing_calls = [o for o in task.tau.outputs if not said(o, [task.tau.instruction])]
    try:
        reference = await _attempt(source, task, source.reference_agent(task))
        noop = await _attempt(source, task, NoopAgent())
        changing = await state_changing_calls(source, task)
        needless = [i for i in changing if await _passes_without(source, task, i)]
    except ToolServerError as e:
        result.problems.append(f"tool server failed: {e}")
        return result
    tau = reference.effects["tau_bench"]
    result.reference_passes = reference.verdict.passed
    result.state_hash, result.gt_data_hash = tau["state_hash"], tau["gt_data_hash"]
    result.read_only = not reference.required_effects
    result.noop_fails = None if result.read_only else not noop.verdict.passed
    result.writes = len(changing)
    result.necessary_calls = not needless
    result.unnecessary_writes = [f"call {i} ({task.reference[i].tool})" for i in needless]
    result.typed_reference_passes = reference.effects["typed"]["passed"]
    result.typed_noop_passes = noop.effects["typed"]["passed"]
    for name, outcome in (("reference", reference), ("no-op", noop)):
        if not outcome.effects["typed"]["agrees_with_hash"]:
            result.judge_disagreements.append(_disagreement(name, outcome))
    misread = [task.reference[i].tool for i in changing if task.reference[i].tool in READ_ONLY]
    result.problems += [f"{tool} changed the data, but statebox counts it as read-only" for tool in misread]
    if not result.reference_passes:
        shown = "; ".join(d.describe() for d in reference.verdict.discrepancies[:3]) or "hashes differ"
        result.problems.append(f"the reference does not earn τ-bench's reward ({shown})")
    return result


def said(output: str, texts: list[str]) -> bool:
    """τ-bench's outputs rule: the output, lower-cased, in one of the texts lower-cased without commas."""
    return any(output.lower() in text.lower().replace(",", "") for text in texts)


def _disagreement(name: str, outcome: StateOutcome) -> str:
    hashed = "passes" if outcome.effects["tau_bench"]["r_actions"] else "fails"
    state = [d for d in outcome.verdict.discrepancies if d.table != "(outputs)"]
    shown = "; ".join(d.describe()[:160] for d in state[:3]) or "no discrepancy"
    return f"{name}: τ-bench's hash {hashed}, the typed judge finds {len(state)}: {shown}"


async def _passes_without(source: TauSource, task: TauBenchTask, index: int) -> bool:
    """Whether the task still earns the reward when the reference skips its call `index`."""
    calls = task.reference[:index] + task.reference[index + 1 :]
    agent = source.reference_agent(task)
    assert isinstance(agent, ReferenceAgent)
    agent.calls = calls
    return (await _attempt(source, task, agent)).verdict.passed


async def state_changing_calls(source: TauSource, task: TauBenchTask) -> list[int]:
    """The reference calls after which the data's hash (τ-bench's) differs from before."""
    if not task.reference:
        return []
    backend = source.backend(task)
    assert isinstance(backend, TauBackend)
    try:
        async with backend.tools() as surface:
            changing, before = [], await backend.state_hash()
            for i, call in enumerate(task.reference):
                await surface.call_tool(call.tool, dict(call.args))
                after = await backend.state_hash()
                if after != before:
                    changing.append(i)
                before = after
        return changing
    finally:
        await backend.aclose()


async def _attempt(source: TauSource, task: TauBenchTask, agent: Agent) -> StateOutcome:
    backend = source.backend(task)
    transcript = Transcript()
    try:
        async with backend.tools() as surface:
            ctx = AttemptContext(backend.policy, surface, surface.list_tools(), transcript, seed=0)
            turn = await agent.turn(ctx, task.opening_message)
            ctx.log(Entry(role="agent", content=turn.reply))
        return await backend.outcome(OutcomeInputs(transcript))
    finally:
        await backend.aclose()


def validation_counts(results: list[TauTaskValidation]) -> dict[str, int]:
    return {
        "tasks": len(results),
        "ok": sum(r.ok for r in results),
        "reference_passes": sum(r.reference_passes for r in results),
        "noop_fails": sum(r.noop_fails is True for r in results),
        "read_only": sum(r.read_only is True for r in results),
        "writes": sum(r.writes or 0 for r in results),
        "unnecessary_writes": sum(len(r.unnecessary_writes) for r in results),
        "tasks_with_unnecessary_writes": sum(bool(r.unnecessary_writes) for r in results),
        "tasks_with_outputs": sum("outputs" in r.tags for r in results),
        "outputs_needing_calls": sum(len(r.outputs_needing_calls) for r in results),
        "judge_attempts": 2 * len(results),
        "judge_disagreements": sum(len(r.judge_disagreements) for r in results),
    }


def validation_report(suite: TauSuite, results: list[TauTaskValidation]) -> ValidationReport:
    c = validation_counts(results)
    agree = c["judge_attempts"] - c["judge_disagreements"]
    summary = [
        f"{suite.name}: {c['ok']}/{c['tasks']} tasks pass the checks (reference passes {c['reference_passes']}, "
        f"no-op fails {c['noop_fails']}, no writes {c['read_only']})",
        f"unnecessary writes: {c['unnecessary_writes']} of {c['writes']} state-changing reference calls, "
        f"in {c['tasks_with_unnecessary_writes']} tasks (the task earns the reward without them)",
        f"required outputs that cannot be said without a tool call: {c['outputs_needing_calls']} "
        f"(in {c['tasks_with_outputs']} tasks with outputs)",
        f"typed judge agrees with τ-bench's hash on {agree}/{c['judge_attempts']} reference and no-op attempts",
    ]
    columns = ("task", "reference passes", "no-op fails", "writes", "problems", "findings")
    table = Listing(f"{suite.name}: reference, no-op and necessity checks on τ-bench's own code", columns)
    for r in results:
        findings = ([f"unnecessary write: {w}" for w in r.unnecessary_writes]
                    + [f"output needs a tool call: {o}" for o in r.outputs_needing_calls]
                    + (["no writes"] if r.read_only else []) + r.judge_disagreements)  # fmt: skip
        table.rows.append(
            (r.id, r.reference_passes, r.noop_fails, r.writes, "; ".join(r.problems), "; ".join(findings))
        )
    return ValidationReport(
        ok=c["ok"] == c["tasks"],
        table=table,
        summary="\n".join(summary),
        json={"suite": suite.name, "tasks": [r.model_dump() for r in results], "counts": c},
    )
