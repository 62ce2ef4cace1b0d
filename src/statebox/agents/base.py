"""The agent interface: one object per attempt, driven turn by turn by the episode loop."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.tools import ToolOutcome, ToolSpec, ToolSurface
from statebox.tools.surface import CustomerActions


@dataclass
class AgentTurn:
    """What the agent said to the customer at the end of a turn, and whether it ended things."""

    reply: str
    finish_reason: str | None = None  # set when the agent ended the attempt (a FINISH_REASONS value)
    logged: bool = False  # the agent already put its reply in the transcript


@dataclass
class AttemptContext:
    """What an agent is given: the policy, the tools (already behind MCP), and the transcript to fill."""

    policy: str
    tools: ToolSurface
    tool_specs: list[ToolSpec]
    transcript: Transcript
    seed: int
    started: float = field(default_factory=time.monotonic)
    customer: CustomerActions | None = None  # the customer's own tools; only a replaying agent acts for them

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def log(self, entry: Entry) -> Entry:
        entry.at_s = round(self.elapsed(), 6)
        self.transcript.entries.append(entry)
        return entry

    async def call_tool(self, call_id: str, name: str, arguments: dict[str, object]) -> ToolOutcome:
        """Call a tool and log both the call's result and its error flag."""
        outcome = await self.tools.call_tool(name, arguments)
        self.log(
            Entry(
                role="tool",
                tool_call_id=call_id,
                tool_name=name,
                content=outcome.text,
                is_error=outcome.is_error,
                error_kind=outcome.error_kind,
            )
        )
        return outcome

    def log_call(self, call_id: str, name: str, arguments: dict[str, object] | None, raw: str | None = None) -> None:
        self.log(
            Entry(
                role="agent", tool_calls=[ToolCallEntry(id=call_id, name=name, arguments=arguments, raw_arguments=raw)]
            )
        )


class Agent(ABC):
    """An agent under test. `turn` answers the customer's latest message, using tools as it likes."""

    name: str = "agent"
    model: str | None = None
    converses: bool = True  # False for a replay: it has no conversation for trace checks to judge

    @abstractmethod
    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn: ...

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release what the agent holds (nothing by default)."""
