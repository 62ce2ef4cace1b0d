"""The transcript of one attempt: every message, tool call and result, with timing and usage."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from statebox.llm.types import ReasoningBlock, Usage

Speaker = Literal["customer", "agent", "tool"]

FINISH_REASONS = (
    "customer_ended",  # the simulated customer ended the conversation (see customer_end_reason)
    "agent_ended",  # the agent ended it (reference/no-op agents, an end-turn tool)
    "max_turns",
    "max_steps",  # too many model steps in one agent turn
    "max_tool_errors",  # too many consecutive tool errors
    "time_budget",  # the attempt's wall-clock budget ran out (also in the middle of a model call)
    "context_overflow",  # the model's endpoint said the conversation no longer fits its context
    "cut_off",  # an imported recording stops before its episode ended (statebox import)
)
# Infrastructure failures (a model endpoint, a tool server, statebox itself) never end a trial:
# the attempt becomes an errors.jsonl entry instead, retried by --resume.


class ToolCallEntry(BaseModel):
    id: str
    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str | None = None


class Entry(BaseModel):
    """One event: a customer or agent message, or a tool result."""

    role: Speaker
    at_s: float = 0.0  # seconds since the attempt started
    content: str = ""
    tool_calls: list[ToolCallEntry] = Field(default_factory=list)
    tool_call_id: str | None = None
    tool_name: str | None = None
    is_error: bool = False
    error_kind: str | None = None
    usage: Usage | None = None
    cost_usd: float | None = None
    latency_s: float | None = None
    reasoning: list[ReasoningBlock] = Field(default_factory=list)  # the model's thinking, as returned


class Transcript(BaseModel):
    """What happened in one attempt, in order."""

    entries: list[Entry] = Field(default_factory=list)
    finish_reason: str | None = None
    customer_end_reason: str | None = None  # satisfied | gave_up | transferred

    def visible(self) -> list[Entry]:
        """The conversation the customer sees: messages with text, never tool traffic."""
        return [e for e in self.entries if e.role in ("customer", "agent") and e.content and not e.tool_calls]

    def final_agent_reply(self) -> str:
        for e in reversed(self.entries):
            if e.role == "agent" and e.content and not e.tool_calls:
                return e.content
        return ""

    def tool_results(self) -> list[Entry]:
        return [e for e in self.entries if e.role == "tool"]
