"""One training episode on any suite's attempt backend, driven one action at a time (no OpenEnv needed here).

The episode loop of `statebox run` owns its agent; here the agent is outside (a trainer's policy),
so each tool call or message arrives as a step. The transcript, the limits and the judgement are
the same as in `statebox run`: the task's limits, and the one verdict document of `runner/judging.py`
(the end state — for ThinkingBox-Bench the benchmark's hash rule, with statebox's typed
discrepancies —, the trace checks, the rubrics when a judge model is configured, the simulated
customer's faults, a failure signature). The backend is held open in a task of its own (`HeldContext`),
so any request may step or close the episode.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge import JudgingRules, Verdict
from statebox.openenv.shaped import shaped_reward
from statebox.openenv.tool_forms import CONVERSATION_TOOLS, END_TOOL
from statebox.runner.backend import AttemptBackend, OutcomeInputs
from statebox.runner.hosted import REPLY_TOOL, AttemptSurface
from statebox.runner.hosted_suite import HeldContext, HostedJudging, attempt_lifetime
from statebox.runner.judging import JudgingInputs, VerdictDocument, judge_verdict
from statebox.tasks import Task
from statebox.tools import ToolOutcome, ToolSpec, ToolSurface
from statebox.users.base import SimulatedCustomer
from statebox.world import Effects

TurnKind = Literal["tool_result", "customer", "end"]


class EpisodeOver(RuntimeError):
    """A step after the episode ended: the trainer must reset."""


@dataclass
class EpisodeOutcome:
    """How the episode ended and what the judge made of it (the verdict document of `statebox run`)."""

    document: VerdictDocument
    finish_reason: str
    customer_end_reason: str | None
    effects: dict[str, Any]
    shaped_reward: float | None = None  # only when asked for

    @property
    def reward(self) -> float:
        """1.0 passed, 0.0 failed: the document's `passed`."""
        return 1.0 if self.document.passed else 0.0

    @property
    def signature(self) -> str | None:
        return self.document.signature

    def info(self) -> dict[str, Any]:
        """The verdict document under `verdict`, with its headline fields, the reward and why it ended."""
        document = self.document.model_dump(mode="json")
        return {
            "passed": self.document.passed,
            "reward": self.reward,
            "shaped_reward": self.shaped_reward,
            "signature": self.document.signature,
            "finish_reason": self.finish_reason,
            "customer_end_reason": self.customer_end_reason,
            "discrepancies": document["discrepancies"],
            "state_hash": self.document.state_hash,
            "expected_hash": self.document.expected_hash,
            "effects": self.effects,
            "rubrics_judged": self.document.rubrics.status == "judged",
            "verdict": document,
        }


@dataclass(frozen=True)
class Turn:
    """What one tool call of the agent gave: a tool's result, the customer's answer, or the end."""

    kind: TurnKind
    outcome: ToolOutcome


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
    judging: HostedJudging = field(default_factory=HostedJudging)
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
        self._surface = AttemptSurface(tools, None, self.task.opening_message, logs_calls=False)  # logged here
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
        """The task's tools."""
        return self.tools.list_tools()

    def offered(self) -> list[ToolSpec]:
        """Every tool the episode answers: the task's, then `reply_to_customer` and `end_episode`."""
        return [*self.tool_specs(), *CONVERSATION_TOOLS]

    async def use(self, name: str, arguments: dict[str, Any]) -> Turn:
        """A call of any offered tool: the two conversation tools say and end, the task's run."""
        if name in (REPLY_TOOL.name, END_TOOL.name):
            message = arguments.get("message")
            if not (isinstance(message, str) or (message is None and name == END_TOOL.name)):
                self._check_open()
                return Turn("tool_result", ToolOutcome(
                    text=f"Error (invalid_arguments): {name} needs `message`, a string", is_error=True,
                    error_kind="invalid_arguments"))
            if name == REPLY_TOOL.name:
                return Turn("customer", ToolOutcome(text=await self.say(message or "")))
            outcome = await self.end(message)
            summary = {"passed": outcome.document.passed, "reward": outcome.reward, "signature": outcome.signature,
                       "finish_reason": outcome.finish_reason}  # fmt: skip
            return Turn("end", ToolOutcome(text=json.dumps(summary)))
        return Turn("tool_result", await self.call_tool(name, arguments))

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
        judge = self.judging.rubric_judge(self.task)
        try:
            state = await self.backend.outcome(OutcomeInputs(self.transcript, judge))
        finally:
            await self._held.close()
        inputs = JudgingInputs(self.task, state, self.transcript, self.backend.writes)
        document = await judge_verdict(inputs, judge, self.judging.rubrics_on)
        shaped = self.shaped
        self.outcome = EpisodeOutcome(
            document=document,
            finish_reason=reason,
            customer_end_reason=self.transcript.customer_end_reason,
            effects=state.effects,
            shaped_reward=_shaped(document, shaped) if shaped is not None else None,
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


def _shaped(document: VerdictDocument, shaped: ShapedInputs) -> float:
    verdict = Verdict(passed=document.passed, discrepancies=document.discrepancies,
                      state_hash=document.state_hash, expected_hash=document.expected_hash)  # fmt: skip
    return shaped_reward(verdict, shaped.required, shaped.rules)
