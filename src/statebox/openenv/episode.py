"""One training episode on any suite's attempt backend, driven one action at a time (no OpenEnv needed here).

The episode loop of `statebox run` owns its agent; here the agent is outside (a trainer's policy),
so each tool call or message arrives as a step. The transcript, the limits and the judgement are
the same as in `statebox run`: the task's limits, the backend's verdict on the end state (for
ThinkingBox-Bench the benchmark's hash rule, with statebox's typed discrepancies), the trace
checks, and a failure signature. The backend is held open in a task of its own (`HeldContext`),
so any request may step or close the episode.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge import JudgingRules, Verdict
from statebox.judge.signatures import CallFact, failure_signature
from statebox.judge.trace import with_trace_checks
from statebox.openenv.shaped import shaped_reward
from statebox.runner.backend import AttemptBackend, OutcomeInputs
from statebox.runner.hosted import AttemptSurface
from statebox.runner.hosted_suite import HeldContext, attempt_lifetime
from statebox.tasks import Task
from statebox.tools import ToolOutcome, ToolSpec, ToolSurface
from statebox.users.base import SimulatedCustomer
from statebox.world import Effects


class EpisodeOver(RuntimeError):
    """A step after the episode ended: the trainer must reset."""


@dataclass
class EpisodeOutcome:
    """How the episode ended and what the judge made of it."""

    verdict: Verdict
    signature: str | None
    finish_reason: str
    customer_end_reason: str | None
    effects: dict[str, Any]
    reward: float  # 1.0 passed, 0.0 failed: the verdict of `statebox run`
    shaped_reward: float | None = None  # only when asked for

    def info(self) -> dict[str, Any]:
        """The verdict as JSON: typed discrepancies, the failure signature, why it ended."""
        return {
            "passed": self.verdict.passed,
            "reward": self.reward,
            "shaped_reward": self.shaped_reward,
            "signature": self.signature,
            "finish_reason": self.finish_reason,
            "customer_end_reason": self.customer_end_reason,
            "discrepancies": [d.model_dump() for d in self.verdict.discrepancies],
            "state_hash": self.verdict.state_hash,
            "expected_hash": self.verdict.expected_hash,
            "effects": self.effects,
            "rubrics_judged": False,
        }


@dataclass(frozen=True)
class ShapedInputs:
    """What the shaped reward needs: the task's acceptable end states and its judging rules (built-in suites)."""

    required: list[Effects]
    rules: JudgingRules


@dataclass
class Episode:
    """A task's fresh attempt backend, its transcript so far, and the limits counted on it; `await start()` first."""

    task: Task
    backend: AttemptBackend
    customer: SimulatedCustomer
    shaped: ShapedInputs | None = None
    transcript: Transcript = field(default_factory=Transcript)
    outcome: EpisodeOutcome | None = None
    _started: float = field(default_factory=time.monotonic)
    _turns: int = 0
    _steps_in_turn: int = 0
    _error_streak: int = 0
    _calls: int = 0

    def __post_init__(self) -> None:
        self.policy = self.backend.policy
        self._held: HeldContext[ToolSurface] = HeldContext(attempt_lifetime(self.backend), f"episode of {self.task.id}")
        self._surface: AttemptSurface | None = None
        self._log(Entry(role="customer", content=self.task.opening_message))

    async def start(self) -> Episode:
        """Open the attempt's state (a world session, or the task's tool servers initialised)."""
        tools = await self._held.open()
        self._surface = AttemptSurface(tools, None, self.task.opening_message)
        self.actions = self.backend.customer_actions()
        return self

    @property
    def done(self) -> bool:
        return self.outcome is not None

    @property
    def tools(self) -> AttemptSurface:
        if self._surface is None:
            raise RuntimeError("the episode is not started")
        return self._surface

    def tool_specs(self) -> list[ToolSpec]:
        return self.tools.list_tools()

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Run one tool call; a call beyond the turn's step limit ends the episode instead."""
        self._check_open()
        limits = self.task.limits
        if self._steps_in_turn >= limits.max_steps_per_turn:
            await self.finish("max_steps")
            return ToolOutcome(text=f"step limit reached: {limits.max_steps_per_turn} calls in one turn",
                               is_error=True, error_kind="limit")
        self._steps_in_turn += 1
        self._calls += 1
        call_id = f"call-{self._calls}"
        self._log(Entry(role="agent", tool_calls=[ToolCallEntry(id=call_id, name=name, arguments=arguments)]))
        outcome = await self.tools.call_tool(name, arguments)
        self._log(Entry(role="tool", tool_call_id=call_id, tool_name=name, content=outcome.text,
                        is_error=outcome.is_error, error_kind=outcome.error_kind))
        self._error_streak = self._error_streak + 1 if outcome.is_error else 0
        if outcome.ends_episode:
            await self.finish("agent_ended")
        elif self._error_streak >= limits.max_tool_errors:
            await self.finish("max_tool_errors")
        return outcome

    async def say(self, message: str) -> str:
        """Send a message to the customer and return the answer (empty when the customer ended silently)."""
        self._check_open()
        self._log(Entry(role="agent", content=message))
        self._turns += 1
        self._steps_in_turn = 0
        answer = await self.customer.reply(self.transcript.visible(), self.actions)
        if answer.text:
            self._log(Entry(role="customer", content=answer.text))
        if answer.ended:
            self.transcript.customer_end_reason = answer.end_reason
            await self.finish("customer_ended")
        elif self._turns >= self.task.limits.max_turns:
            await self.finish("max_turns")
        return answer.text

    async def end(self, message: str | None = None) -> EpisodeOutcome:
        """The agent ends the episode, with a last message to the customer if it has one."""
        self._check_open()
        if message:
            self._log(Entry(role="agent", content=message))
        return await self.finish("agent_ended")

    async def finish(self, reason: str) -> EpisodeOutcome:
        """Judge the end state (and the trace) exactly as `statebox run` does, then release the attempt."""
        if self.outcome is not None:
            return self.outcome
        self.transcript.finish_reason = reason
        try:
            state = await self.backend.outcome(OutcomeInputs(self.transcript))
        finally:
            await self._held.close()
        verdict = with_trace_checks(state.verdict, self.task, self.transcript)
        facts = [
            CallFact(e.tool_name or "", not e.is_error, self.backend.writes(e.tool_name or ""), e.error_kind)
            for e in self.transcript.tool_results()
        ]
        signature = failure_signature(facts, verdict, rubrics_passed=True, required_effects=state.required_effects,
                                      finish_reason=reason)
        shaped = self.shaped
        self.outcome = EpisodeOutcome(
            verdict=verdict,
            signature=signature,
            finish_reason=reason,
            customer_end_reason=self.transcript.customer_end_reason,
            effects=state.effects,
            reward=1.0 if verdict.passed else 0.0,
            shaped_reward=shaped_reward(verdict, shaped.required, shaped.rules) if shaped is not None else None,
        )
        return self.outcome

    async def close(self) -> None:
        """Release the attempt of an episode left unfinished (a dropped connection, an idle session)."""
        await self._held.close()

    def _check_open(self) -> None:
        if self.outcome is not None:
            raise EpisodeOver(f"the episode of task {self.task.id!r} is over ({self.outcome.finish_reason}); reset")

    def _log(self, entry: Entry) -> None:
        entry.at_s = round(time.monotonic() - self._started, 6)
        self.transcript.entries.append(entry)
