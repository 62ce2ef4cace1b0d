"""Attempts hosted for any MCP agent (`statebox serve`, `statebox proxy`): tools, customer channel, verdict.

`hosted_suite.BackendAttempt` hosts an attempt of any suite on the suite's own `AttemptBackend`
(a world session for built-in suites, the benchmark's tool servers for ThinkingBox-Bench);
`WorldAttempt` here is the lighter in-process form for built-in suites only (benchmarks, tests).
"""

from __future__ import annotations

import secrets
from typing import Any

from statebox.agents.transcript import Entry, Transcript
from statebox.judge import judge_attempt, required_effects, rules_for
from statebox.llm.client import ModelClient
from statebox.mcp.hosted import is_reserved
from statebox.tasks import Suite, Task, load_suite
from statebox.tools import BoundTools, ToolOutcome, ToolSpec, ToolSurface
from statebox.tools.arguments import unknown_tool_message
from statebox.tools.errors import agent_error_text
from statebox.tools.quoting import shorten
from statebox.tools.surface import CustomerActions
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer
from statebox.world import Effects

REPLY_TOOL = ToolSpec(
    name="reply_to_customer",
    description=(
        "Send a message to the customer and get their answer. Use it to ask for information, to confirm, "
        "and to tell them the outcome. The answer says when the customer has ended the conversation."
    ),
    input_schema={
        "type": "object",
        "properties": {"message": {"type": "string", "description": "What you say to the customer."}},
        "required": ["message"],
        "additionalProperties": False,
    },
)


class AttemptSurface:
    """The attempt's tools plus `reply_to_customer` when there is a customer; `__reserved__*` tools never.

    A reserved tool, even one the tools list, is left out of the listing, and calling it gets
    the same answer as any unknown tool.
    """

    def __init__(
        self,
        tools: ToolSurface,
        customer: SimulatedCustomer | None,
        opening_message: str,
        actions: CustomerActions | None = None,
    ) -> None:
        self.tools = tools
        self.customer = customer
        self.actions = actions
        self.calls = 0  # tool calls that reached the tools
        self.transcript = Transcript(entries=[Entry(role="customer", content=opening_message)])

    def list_tools(self) -> list[ToolSpec]:
        specs = [s for s in self.tools.list_tools() if not is_reserved(s.name)]
        return [*specs, REPLY_TOOL] if self.customer is not None else specs

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name == REPLY_TOOL.name and self.customer is not None:
            return await self._reply(str(arguments.get("message", "")))
        if is_reserved(name):
            return unknown_tool(name, [s.name for s in self.list_tools()])
        self.calls += 1
        return await self.tools.call_tool(name, arguments)

    async def _reply(self, message: str) -> ToolOutcome:
        assert self.customer is not None
        if self.transcript.finish_reason == "customer_ended":
            return ToolOutcome(
                text="Error (precondition_failed): the customer has already ended the conversation.",
                is_error=True,
                error_kind="precondition_failed",
            )
        self.transcript.entries.append(Entry(role="agent", content=message))
        answer = await self.customer.reply(self.transcript.visible(), self.actions)
        if answer.text:
            self.transcript.entries.append(Entry(role="customer", content=answer.text))
        if answer.ended:
            self.transcript.finish_reason = "customer_ended"
            self.transcript.customer_end_reason = answer.end_reason
            note = f"[The customer has ended the conversation ({answer.end_reason}).]"
            return ToolOutcome(text=f"{answer.text}\n{note}".strip())
        return ToolOutcome(text=answer.text)


def unknown_tool(name: str, available: list[str]) -> ToolOutcome:
    """The answer to a call of a tool the agent was not offered (reserved ones included)."""
    text = agent_error_text("unknown_tool", unknown_tool_message(name, available))
    return ToolOutcome(text=text, is_error=True, error_kind="unknown_tool")


class WorldAttempt:
    """One isolated attempt of a built-in task, as the MCP server and the proxy host it."""

    def __init__(
        self, suite: Suite, task: Task, customer: SimulatedCustomer | None, required: list[Effects] | None = None
    ) -> None:
        self.id = secrets.token_urlsafe(24)
        self.suite, self.task = suite, task
        domain = suite.domain_of(task)
        self.session = suite.open_session(task)
        self.bound = BoundTools(domain.tools, self.session)
        self.channel = AttemptSurface(self.bound, customer, task.opening_message)
        self.surface: ToolSurface = self.channel
        self.policy = domain.policy
        self.opening_message = task.opening_message
        self._required = required
        self.closed = False

    def required(self) -> list[Effects]:
        if self._required is None:
            self._required = required_effects(self.suite, self.task)
        return self._required

    def effects(self) -> Effects:
        return self.session.effects()

    def status(self) -> dict[str, Any]:
        t = self.channel.transcript
        return {
            "id": self.id,
            "suite": self.suite.name,
            "task": self.task.id,
            "tool_calls": len(self.bound.log),
            "conversation_ended": t.finish_reason == "customer_ended",
            "end_reason": t.customer_end_reason,
            "closed": self.closed,
        }

    def result(self) -> dict[str, Any]:
        effects = self.effects()
        verdict = judge_attempt(effects, self.required(), rules_for(self.suite, self.task))
        return {
            "task": self.task.id,
            "effects": effects.to_json(),
            "verdict": {
                "passed": verdict.passed,
                "discrepancies": [d.model_dump() for d in verdict.discrepancies],
                "state_hash": verdict.state_hash,
            },
        }

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.session.close()


class WorldAttemptFactory:
    """Creates attempts by suite and task name, as the proxy's POST /attempts asks."""

    def __init__(self, user_client: ModelClient | None = None) -> None:
        self.user_client = user_client
        self._suites: dict[str, Suite] = {}
        self._required: dict[tuple[str, str], list[Effects]] = {}

    def suite(self, name: str) -> Suite:
        if name not in self._suites:
            self._suites[name] = load_suite(name)
        return self._suites[name]

    async def __call__(self, suite_name: str, task_id: str, user: str | None) -> WorldAttempt:
        suite = self.suite(suite_name)
        task = suite.task(task_id)
        key = (suite_name, task_id)
        if key not in self._required:
            self._required[key] = required_effects(suite, task)
        return WorldAttempt(suite, task, self.customer(user, task), self._required[key])

    def customer(self, user: str | None, task: Task) -> SimulatedCustomer | None:
        return make_customer(user, task, self.user_client)


def make_customer(user: str | None, task: Task, user_client: ModelClient | None) -> SimulatedCustomer | None:
    """The customer a creation request asks for: none, the task's scripted one, or an LLM playing it."""
    if user is None:
        return None
    if user == "scripted":
        return ScriptedCustomer(task.customer)
    if user == "llm":
        if user_client is None:
            raise ValueError("user 'llm' needs a user model: start the proxy with --user-model")
        return LlmCustomer(user_client, task.customer)
    raise ValueError(f"user must be 'scripted', 'llm' or null, not {shorten(user)!r}")
