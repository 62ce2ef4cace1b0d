"""LlmAgent's options for benchmarks with their own prompt: system messages as given, a done
marker that ends the attempt, and tools that end it; the defaults stay as they were."""

from __future__ import annotations

import asyncio
from typing import Any

from statebox.agents.base import AttemptContext
from statebox.agents.llm_agent import LlmAgent
from statebox.agents.transcript import Transcript
from statebox.llm.client import ModelClient
from statebox.llm.types import Completion, Message, ToolCall, ToolDef
from statebox.tasks import Limits
from statebox.tools import ToolOutcome, ToolSpec

POLICY = "Refunds take five days."


class ScriptedModel(ModelClient):
    """Gives the queued completions in order and remembers every request."""

    def __init__(self, *replies: Completion) -> None:
        super().__init__("openai:scripted")
        self.replies = list(replies)
        self.requests: list[list[Message]] = []

    async def complete(
        self,
        messages: list[Message],
        tools: list[ToolDef] | None = None,
        *,
        tool_choice: str | None = None,
        seed: int | None = None,
        role: str | None = None,
    ) -> Completion:
        self.requests.append(list(messages))
        return self.replies.pop(0)


def say(text: str) -> Completion:
    return Completion(text=text, model="scripted")


def use(tool: str, **arguments: Any) -> Completion:
    call = ToolCall(id=f"call-{tool}", name=tool, arguments=arguments, raw_arguments=str(arguments))
    return Completion(text="", tool_calls=[call], model="scripted")


class Tools:
    """`lookup` answers; `hand_over` ends the episode when called."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def list_tools(self) -> list[ToolSpec]:
        return [ToolSpec(name="lookup", description="Look up."), ToolSpec(name="hand_over", description="End.")]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.calls.append(name)
        return ToolOutcome(text='{"ok": true}', ends_episode=name == "hand_over")


def turn(agent: LlmAgent, tools: Tools | None = None) -> tuple[str, str | None]:
    surface = tools or Tools()
    ctx = AttemptContext(POLICY, surface, surface.list_tools(), Transcript(), seed=1)
    result = asyncio.run(agent.turn(ctx, "Hello"))
    return result.reply, result.finish_reason


def test_by_default_one_system_message_holds_the_instructions_and_the_policy() -> None:
    model = ScriptedModel(say("Hi, how can I help?"))
    agent = LlmAgent(model, Limits(), instructions="Be helpful.")
    assert turn(agent) == ("Hi, how can I help?", None)
    assert [(m.role, m.content) for m in model.requests[0]] == [
        ("system", f"Be helpful.\n\n# Policy\n\n{POLICY}"),
        ("user", "Hello"),
    ]


def test_system_messages_are_sent_as_given_before_the_customer_message() -> None:
    model = ScriptedModel(say("Hi"))
    agent = LlmAgent(model, Limits(), system_messages=["You are an agent.", "The policy."])
    turn(agent)
    assert [(m.role, m.content) for m in model.requests[0]] == [
        ("system", "You are an agent."),
        ("system", "The policy."),
        ("user", "Hello"),
    ]


def test_a_reply_ending_with_the_done_marker_ends_the_attempt() -> None:
    agent = LlmAgent(ScriptedModel(say("Your order is cancelled. <DONE>\n")), Limits(), done_marker="<DONE>")
    assert turn(agent) == ("Your order is cancelled. <DONE>\n", "agent_ended")


def test_without_a_done_marker_the_same_reply_only_ends_the_turn() -> None:
    agent = LlmAgent(ScriptedModel(say("Your order is cancelled. <DONE>")), Limits())
    assert turn(agent) == ("Your order is cancelled. <DONE>", None)


def test_the_marker_counts_only_at_the_end_of_the_reply() -> None:
    agent = LlmAgent(ScriptedModel(say("I will say <DONE> when done.")), Limits(), done_marker="<DONE>")
    assert turn(agent)[1] is None


def test_calling_an_end_turn_tool_ends_the_attempt_after_the_call() -> None:
    tools = Tools()
    model = ScriptedModel(use("lookup", id="1"), use("hand_over", reason="done"), say("never asked for"))
    assert turn(LlmAgent(model, Limits()), tools) == ("", "agent_ended")
    assert tools.calls == ["lookup", "hand_over"] and len(model.requests) == 2
