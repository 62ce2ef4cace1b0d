"""One attempt, start to end: fresh session, conversation, effects, verdict, trial record."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import cast

from statebox.agents.base import Agent, AttemptContext
from statebox.agents.transcript import Entry, Transcript
from statebox.judge.rubrics import RubricJudge
from statebox.judge.signatures import CallFact
from statebox.llm.meter import Meter
from statebox.runner.backend import AttemptBackend, OutcomeInputs, StateOutcome
from statebox.runner.judging import JudgingInputs, VerdictDocument, judge_verdict, record_fields
from statebox.runner.record import FinishReason, TrialRecord, attempt_seed, trial_id
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.users.base import CustomerActions, EndReason, SimulatedCustomer


@dataclass
class AttemptPlan:
    """Which attempt to run: the task, who plays the agent and the customer, and the repeat index."""

    suite: TaskSet
    task: Task
    agent: Agent
    customer: SimulatedCustomer | None
    repeat: int
    backend: AttemptBackend  # where the attempt's state lives: from the suite's source (`TaskSet.attempt_source()`)
    rubric_judge: RubricJudge | None = None  # None: rubric questions are not judged (state only)
    time_budget_s: float = 600.0
    transcript: Transcript = field(default_factory=Transcript)  # filled as it runs; read by `spent` after a failure
    task_hash: str | None = None  # the task's content hash when the caller has it (default: computed)

    @property
    def trial_id(self) -> str:
        return trial_id(self.suite.name, self.task.id, self.agent.name, self.agent.model, self.repeat)


@dataclass
class _Phases:
    """When each phase of an attempt ended (`time.perf_counter()` seconds), for the record's timings."""

    started: float = field(default_factory=time.perf_counter)
    ready: float = 0.0  # the tools open
    conversed: float = 0.0  # the conversation over and the tools closed
    judged: float = 0.0  # the verdict composed

    def timings(self) -> dict[str, float]:
        return {
            "setup_s": self.ready - self.started,
            "conversation_s": self.conversed - self.ready,
            "judge_s": self.judged - self.conversed,
            "total_s": self.judged - self.started,
        }


async def run_attempt(plan: AttemptPlan) -> TrialRecord:
    """Run one attempt. Infrastructure failures propagate; agent mistakes become the record."""
    phases = _Phases()
    seed = attempt_seed(plan.trial_id)
    try:
        await _hold_conversation(plan, seed, phases)
        state, document = await _judge(plan)
        phases.judged = time.perf_counter()
    finally:
        await plan.backend.aclose()
    return _record(plan, seed, state, document, phases)


async def _hold_conversation(plan: AttemptPlan, seed: int, phases: _Phases) -> None:
    """The backend's tools opened, the conversation held within the time budget, the tools closed again."""
    backend, transcript = plan.backend, plan.transcript
    async with backend.tools() as surface:
        phases.ready = time.perf_counter()
        actions = backend.customer_actions()
        ctx = AttemptContext(
            policy=backend.policy, tools=surface, tool_specs=surface.list_tools(), transcript=transcript, seed=seed,
            customer=actions,
        )
        try:
            await asyncio.wait_for(_converse(plan, ctx, actions), timeout=plan.time_budget_s + 60)
        except TimeoutError:  # the budget ran out in the middle of a turn: what the agent did, judged as is
            transcript.finish_reason = "time_budget"
    phases.conversed = time.perf_counter()


async def _judge(plan: AttemptPlan) -> tuple[StateOutcome, VerdictDocument]:
    """The end state as the backend judges it, and the verdict document on it and the conversation."""
    state = await plan.backend.outcome(OutcomeInputs(plan.transcript, plan.rubric_judge))
    judging = JudgingInputs(plan.task, state, plan.transcript, plan.backend.writes,
                            customer=plan.customer is not None, replay=not plan.agent.converses)  # fmt: skip
    return state, await judge_verdict(judging, plan.rubric_judge, plan.suite.rubrics_on)


def _record(
    plan: AttemptPlan, seed: int, state: StateOutcome, document: VerdictDocument, phases: _Phases
) -> TrialRecord:
    """The trial record of a finished attempt."""
    task, transcript = plan.task, plan.transcript
    meters = _meters(plan, transcript)
    return TrialRecord(
        trial_id=plan.trial_id,
        suite=plan.suite.name,
        task_id=task.id,
        domain=task.domain,
        agent=plan.agent.name,
        model=plan.agent.model,
        user=plan.customer.name if plan.customer else None,
        repeat=plan.repeat,
        seed=seed,
        finish_reason=cast(FinishReason | None, transcript.finish_reason),  # pydantic checks the value
        customer_end_reason=cast(EndReason | None, transcript.customer_end_reason),
        successful_writes=sum(1 for c in _call_facts(transcript, plan.backend) if c.ok and c.writes),
        **record_fields(document),  # the verdict document's fields (runner/judging.py)
        usage={role: m.usage for role, m in meters.items()},
        cost_usd={role: m.cost_usd for role, m in meters.items()},
        timings=phases.timings(),
        effects=state.effects,
        task_hash=plan.task_hash or task.content_hash(),
        transcript=transcript,
    )


def _call_facts(transcript: Transcript, backend: AttemptBackend) -> list[CallFact]:
    """Every tool result the agent got, in order (malformed calls that never reached a tool included)."""
    return [
        CallFact(e.tool_name or "", not e.is_error, backend.writes(e.tool_name or ""), e.error_kind)
        for e in transcript.tool_results()
    ]


async def _converse(plan: AttemptPlan, ctx: AttemptContext, actions: CustomerActions | None = None) -> None:
    """Customer opens; agent and customer alternate until one ends it or a limit is hit."""
    transcript, limits = ctx.transcript, plan.task.limits
    message = plan.task.opening_message
    ctx.log(Entry(role="customer", content=message))
    for _ in range(limits.max_turns):
        turn = await plan.agent.turn(ctx, message)
        if turn.reply and not turn.logged:
            ctx.log(Entry(role="agent", content=turn.reply))
        if turn.finish_reason:
            transcript.finish_reason = turn.finish_reason
            return
        if plan.customer is None:
            transcript.finish_reason = "agent_ended"
            return
        answer = await plan.customer.reply(transcript.visible(), actions)
        if answer.text:
            ctx.log(Entry(role="customer", content=answer.text))
        if answer.ended:
            transcript.finish_reason, transcript.customer_end_reason = "customer_ended", answer.end_reason
            return
        message = answer.text
    transcript.finish_reason = "max_turns"


def spent(plan: AttemptPlan) -> dict[str, Meter]:
    """What the attempt has spent so far, per role (an errored attempt's error record carries it)."""
    return _meters(plan, plan.transcript)


def _meters(plan: AttemptPlan, transcript: Transcript) -> dict[str, Meter]:
    """Usage and cost per role: the agent's calls as its transcript logs them, the customer's and the judge's own."""
    agent = Meter()
    for e in transcript.entries:
        if e.usage is not None:
            agent.add(e.usage, e.cost_usd)
    customer = plan.customer.meter if plan.customer else Meter()
    judge = plan.rubric_judge.meter if plan.rubric_judge else Meter()
    return {"agent": agent, "user": customer, "judge": judge}
