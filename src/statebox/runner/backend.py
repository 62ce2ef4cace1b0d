"""Where an attempt's state lives: a world session here, external tool servers for ThinkingBox-Bench."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from statebox.agents.transcript import Transcript
from statebox.judge import JudgingRules, Verdict, judge_attempt, rules_for
from statebox.judge.rubrics import RubricJudge
from statebox.tasks import Task
from statebox.tasks.worlds import TaskWorlds
from statebox.tools import BoundTools, ToolSurface
from statebox.world import Effects, Session

if TYPE_CHECKING:
    from statebox.tools.surface import CustomerActions

# Turns the world-backed tools of an attempt into the surface the agent talks to (e.g. through MCP).
ToolTransport = Callable[[BoundTools, Task, str], AbstractAsyncContextManager[ToolSurface]]


@asynccontextmanager
async def direct_transport(tools: BoundTools, task: Task, policy: str) -> AsyncIterator[ToolSurface]:
    """No transport at all: the agent calls the bound tools in process."""
    yield tools


@dataclass(frozen=True)
class OutcomeInputs:
    """What a backend may need to judge the end state: the finished conversation, and the judge model."""

    transcript: Transcript  # the whole attempt
    rubric_judge: RubricJudge | None = None  # None: no judge model


@dataclass
class StateOutcome:
    """What the judge made of the attempt's end state."""

    verdict: Verdict
    effects: dict[str, Any] = field(default_factory=dict)
    required_effects: bool = True  # False when the task's right outcome changes nothing
    # One line per part of the state verdict that could not be judged and why, e.g.
    # "judge: not_judged: 2 judge(...) questions and no judge model (--judge-model)".
    not_judged: list[str] = field(default_factory=list)


class AttemptBackend(ABC):
    """One attempt's state: opened before the conversation, judged after it, always closed."""

    policy: str

    @abstractmethod
    def tools(self) -> AbstractAsyncContextManager[ToolSurface]:
        """The tools the agent talks to, for the length of the conversation."""

    @abstractmethod
    async def outcome(self, inputs: OutcomeInputs) -> StateOutcome:
        """Effects and verdict, once the conversation is over (`inputs`: the transcript, the judge model)."""

    def writes(self, tool: str) -> bool:
        """Whether a tool changes state (for failure signatures); unknown tools count as writes."""
        return True

    def customer_actions(self) -> CustomerActions | None:
        """The customer's own tools on this attempt's state (None: the task's world has none)."""
        return None

    def reference_judging(self) -> tuple[list[Effects], JudgingRules] | None:
        """The reference's end states and the rules this backend judges by, where statebox judges the end state
        itself (a shaped reward is computed from them); None for a backend whose verdict is its suite's own rule."""
        return None

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release what the attempt holds."""


class WorldBackend(AttemptBackend):
    """A built-in task: a fresh session from the task's baseline image, judged against the reference."""

    def __init__(
        self, suite: TaskWorlds, task: Task, required: list[Effects], transport: ToolTransport = direct_transport
    ) -> None:
        self.suite, self.task, self.required, self.transport = suite, task, required, transport
        self.domain = suite.domain_of(task)
        self.policy = self.domain.policy
        self.session: Session | None = None

    @asynccontextmanager
    async def _tools(self) -> AsyncIterator[ToolSurface]:
        self.session = self.suite.open_session(self.task)
        bound = BoundTools(self.domain.tools, self.session)
        async with self.transport(bound, self.task, self.policy) as surface:
            yield surface

    def tools(self) -> AbstractAsyncContextManager[ToolSurface]:
        return self._tools()

    async def outcome(self, inputs: OutcomeInputs) -> StateOutcome:
        assert self.session is not None, "outcome() before tools()"
        effects = self.session.effects()
        verdict = judge_attempt(effects, self.required, rules_for(self.suite, self.task))
        return StateOutcome(verdict, effects.to_json(), required_effects=not self.task.read_only)

    def writes(self, tool: str) -> bool:
        return tool in self.domain.tools and self.domain.tools[tool].writes

    def reference_judging(self) -> tuple[list[Effects], JudgingRules]:
        return self.required, rules_for(self.suite, self.task)

    def customer_actions(self) -> CustomerActions | None:
        if self.session is None or not self.domain.customer_tools.names:
            return None
        return BoundTools(self.domain.customer_tools, self.session)

    async def aclose(self) -> None:
        if self.session is not None:
            self.session.close()
