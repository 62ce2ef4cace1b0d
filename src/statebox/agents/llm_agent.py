"""The LLM agent under test: the model calls tools until it has a reply for the customer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.transcript import Entry, ToolCallEntry
from statebox.llm.client import ModelClient
from statebox.llm.errors import ContextOverflowError
from statebox.llm.toolbox import PreparedTools
from statebox.llm.types import Completion, Message, ToolCall, ToolDef
from statebox.tasks import Limits
from statebox.tools import ToolOutcome, ToolSpec

EMPTY_REPLY_NOTE = "(Your last reply was empty. Write your reply to the customer, or call a tool.)"


def agent_instructions() -> str:
    """statebox's own agent instructions (the domain policy is appended per attempt)."""
    return files("statebox.agents").joinpath("instructions.md").read_text(encoding="utf-8")


class OfferedTools:
    """The PreparedTools of each tool list a campaign's attempts are given, built once per list.

    Attempts of one domain see the same ToolSpec objects (one listing per domain and campaign),
    so their tools are converted and encoded once, not once per attempt. A list is known by its
    specs' names, descriptions and schema objects (kept alive here, so an id stays theirs).
    """

    def __init__(self, limit: int = 64) -> None:
        self._prepared: dict[tuple[tuple[str, str, int], ...], tuple[list[dict[str, Any]], PreparedTools]] = {}
        self._limit = limit

    def prepared(self, specs: Sequence[ToolSpec]) -> PreparedTools:
        key = tuple((s.name, s.description, id(s.input_schema)) for s in specs)
        found = self._prepared.get(key)
        if found is not None and all(a is s.input_schema for a, s in zip(found[0], specs, strict=True)):
            return found[1]
        tools = PreparedTools(
            ToolDef(name=s.name, description=s.description, input_schema=s.input_schema) for s in specs
        )
        if len(self._prepared) >= self._limit:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[key] = ([s.input_schema for s in specs], tools)
        return tools


class LlmAgent(Agent):
    """Drives a model through the tool loop. Tool mistakes are shown to the model, not raised.

    The attempt ends with `time_budget` when its wall-clock budget runs out (also in the middle
    of a model call) and with `context_overflow` when the endpoint says the conversation no
    longer fits the model: both are what the agent did, not infrastructure failures.
    """

    name = "llm"

    def __init__(
        self,
        client: ModelClient,
        limits: Limits,
        *,
        time_budget_s: float = 600.0,
        instructions: str | None = None,
        system_messages: list[str] | None = None,
        done_marker: str | None = None,
        offered: OfferedTools | None = None,
    ) -> None:
        """`system_messages` replace the one system message (instructions + policy), as given;
        with `done_marker`, a text reply ending with it ends the attempt ("agent_ended");
        `offered` shares prepared tool lists between the agents of a campaign."""
        self.client = client
        self.model = client.spec
        self.limits = limits
        self.time_budget_s = time_budget_s
        self.instructions = instructions if instructions is not None else agent_instructions()
        self.system_messages = system_messages
        self.done_marker = done_marker
        self.messages: list[Message] = []
        self.consecutive_errors = 0
        self._tools: PreparedTools | None = None  # the attempt's tools, encoded once
        self._offered = offered or OfferedTools(limit=1)

    def system_prompt(self, policy: str) -> list[Message]:
        """The system message(s) that open the conversation."""
        if self.system_messages is not None:
            return [Message(role="system", content=text) for text in self.system_messages]
        return [Message(role="system", content=f"{self.instructions}\n\n# Policy\n\n{policy}")]

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        if not self.messages:
            self.messages.extend(self.system_prompt(ctx.policy))
        self.messages.append(Message(role="user", content=customer_message))
        if self._tools is None:
            self._tools = self._offered.prepared(ctx.tool_specs)
        for _ in range(self.limits.max_steps_per_turn):
            if ctx.elapsed() >= self.time_budget_s:
                return AgentTurn("", finish_reason="time_budget")
            done = await self._step(ctx, self._tools)
            if done is not None:
                return done
        return AgentTurn("", finish_reason="max_steps")

    async def _complete(self, ctx: AttemptContext, tools: PreparedTools) -> Completion | AgentTurn:
        """The model's next reply, or how the attempt ends when there is none."""
        try:
            async with asyncio.timeout(self.time_budget_s - ctx.elapsed()):
                return await self.client.complete(self.messages, tools, seed=ctx.seed, role="agent")
        except TimeoutError:
            if ctx.elapsed() < self.time_budget_s:
                raise  # not our budget: let the runner see it
            return AgentTurn("", finish_reason="time_budget")
        except ContextOverflowError:
            return AgentTurn("", finish_reason="context_overflow")

    async def _step(self, ctx: AttemptContext, tools: PreparedTools) -> AgentTurn | None:
        """One model call; a text reply ends the turn, tool calls are executed in order."""
        completion = await self._complete(ctx, tools)
        if isinstance(completion, AgentTurn):
            return completion
        calls = completion.tool_calls
        self.messages.append(
            Message(role="assistant", content=completion.text, tool_calls=calls, reasoning=completion.reasoning)
        )
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
                reasoning=completion.reasoning,
            )
        )
        if not calls and not completion.text.strip():
            # An empty reply is the model's mistake: tell it, and let it try again within its step budget.
            self.messages.append(Message(role="user", content=EMPTY_REPLY_NOTE))
            return None
        if not calls:
            finish = "agent_ended" if self._says_done(completion.text) else None
            return AgentTurn(completion.text, finish_reason=finish, logged=True)
        for call in calls:
            outcome = await self._execute(ctx, call)
            if outcome.ends_episode:
                return AgentTurn("", finish_reason="agent_ended")
            self.consecutive_errors = self.consecutive_errors + 1 if outcome.is_error else 0
            if self.consecutive_errors >= self.limits.max_tool_errors:
                return AgentTurn("", finish_reason="max_tool_errors")
        return None

    def _says_done(self, text: str) -> bool:
        return self.done_marker is not None and text.rstrip().endswith(self.done_marker)

    async def _execute(self, ctx: AttemptContext, call: ToolCall) -> ToolOutcome:
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
            return ToolOutcome(text=text, is_error=True, error_kind="invalid_arguments")
        args: dict[str, Any] = call.arguments
        outcome = await ctx.call_tool(call.id, call.name, args)
        self.messages.append(
            Message(role="tool", tool_call_id=call.id, content=outcome.text, is_error=outcome.is_error)
        )
        return outcome
