"""A world-backed attempt hosted for any MCP agent: its tools, its customer channel, its verdict."""

from __future__ import annotations

import secrets
from typing import Any

from statebox.agents.transcript import Entry, Transcript
from statebox.judge import judge_attempt, required_effects, rules_for
from statebox.llm.client import ModelClient
from statebox.tasks import Suite, Task, load_suite
from statebox.tools import BoundTools, ToolOutcome, ToolSpec, ToolSurface
from statebox.tools.quoting import shorten
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
    """The domain's tools over the attempt's session, plus `reply_to_customer` when there is a customer."""

    def __init__(self, tools: BoundTools, customer: SimulatedCustomer | None, opening_message: str) -> None:
        self.tools = tools
        self.customer = customer
        self.transcript = Transcript(entries=[Entry(role="customer", content=opening_message)])

    def list_tools(self) -> list[ToolSpec]:
        specs = self.tools.list_tools()
        return [*specs, REPLY_TOOL] if self.customer is not None else specs

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name == REPLY_TOOL.name and self.customer is not None:
            return await self._reply(str(arguments.get("message", "")))
        return self.tools.call(name, arguments)

    async def _reply(self, message: str) -> ToolOutcome:
        assert self.customer is not None
        if self.transcript.finish_reason == "customer_ended":
            return ToolOutcome(
                text="Error (precondition_failed): the customer has already ended the conversation.",
                is_error=True,
                error_kind="precondition_failed",
            )
        self.transcript.entries.append(Entry(role="agent", content=message))
        answer = await self.customer.reply(self.transcript.visible())
        if answer.text:
            self.transcript.entries.append(Entry(role="customer", content=answer.text))
        if answer.ended:
            self.transcript.finish_reason = "customer_ended"
            self.transcript.customer_end_reason = answer.end_reason
            note = f"[The customer has ended the conversation ({answer.end_reason}).]"
            return ToolOutcome(text=f"{answer.text}\n{note}".strip())
        return ToolOutcome(text=answer.text)


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
        if user is None:
            return None
        if user == "scripted":
            return ScriptedCustomer(task.customer)
        if user == "llm":
            if self.user_client is None:
                raise ValueError("user 'llm' needs a user model: start the proxy with --user-model")
            return LlmCustomer(self.user_client, task.customer)
        raise ValueError(f"user must be 'scripted', 'llm' or null, not {shorten(user)!r}")
