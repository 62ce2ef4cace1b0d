"""The LLM agent under test: the model calls tools until it has a reply for the customer."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.transcript import Entry, ToolCallEntry
from statebox.llm.client import ModelClient
from statebox.llm.types import Message, ToolCall, ToolDef
from statebox.tasks import Limits


def agent_instructions() -> str:
    """statebox's own agent instructions (the domain policy is appended per attempt)."""
    return files("statebox.agents").joinpath("instructions.md").read_text(encoding="utf-8")


class LlmAgent(Agent):
    """Drives a model through the tool loop. Tool mistakes are shown to the model, not raised."""

    name = "llm"

    def __init__(
        self, client: ModelClient, limits: Limits, *, time_budget_s: float = 600.0, instructions: str | None = None
    ) -> None:
        self.client = client
        self.model = client.spec
        self.limits = limits
        self.time_budget_s = time_budget_s
        self.instructions = instructions if instructions is not None else agent_instructions()
        self.messages: list[Message] = []
        self.consecutive_errors = 0

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        if not self.messages:
            self.messages.append(Message(role="system", content=f"{self.instructions}\n\n# Policy\n\n{ctx.policy}"))
        self.messages.append(Message(role="user", content=customer_message))
        tools = [ToolDef(name=t.name, description=t.description, input_schema=t.input_schema) for t in ctx.tool_specs]
        for _ in range(self.limits.max_steps_per_turn):
            if ctx.elapsed() > self.time_budget_s:
                return AgentTurn("", finish_reason="timeout")
            done = await self._step(ctx, tools)
            if done is not None:
                return done
        return AgentTurn("", finish_reason="max_steps")

    async def _step(self, ctx: AttemptContext, tools: list[ToolDef]) -> AgentTurn | None:
        """One model call; a text reply ends the turn, tool calls are executed in order."""
        completion = await self.client.complete(self.messages, tools, seed=ctx.seed)
        calls = completion.tool_calls
        self.messages.append(Message(role="assistant", content=completion.text, tool_calls=calls))
        ctx.log(
            Entry(
                role="agent",
                content=completion.text,
                usage=completion.usage,
                cost_usd=completion.cost_usd,
                latency_s=round(completion.latency_s, 6),
                tool_calls=[
                    ToolCallEntry(id=c.id, name=c.name, arguments=c.arguments, raw_arguments=c.raw_arguments)
                    for c in calls
                ],
            )
        )
        if not calls:
            return AgentTurn(completion.text)
        for call in calls:
            is_error = await self._execute(ctx, call)
            self.consecutive_errors = self.consecutive_errors + 1 if is_error else 0
            if self.consecutive_errors >= self.limits.max_tool_errors:
                return AgentTurn("", finish_reason="max_tool_errors")
        return None

    async def _execute(self, ctx: AttemptContext, call: ToolCall) -> bool:
        if call.arguments is None:
            text = f"Error (invalid_arguments): {call.parse_error}. Send the arguments as one JSON object."
            ctx.log(
                Entry(
                    role="tool",
                    tool_call_id=call.id,
                    tool_name=call.name,
                    content=text,
                    is_error=True,
                    error_kind="invalid_arguments",
                )
            )
            self.messages.append(Message(role="tool", tool_call_id=call.id, content=text, is_error=True))
            return True
        args: dict[str, Any] = call.arguments
        outcome = await ctx.call_tool(call.id, call.name, args)
        self.messages.append(
            Message(role="tool", tool_call_id=call.id, content=outcome.text, is_error=outcome.is_error)
        )
        return outcome.is_error
