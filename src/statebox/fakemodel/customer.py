"""Scripted answers to simulated-customer requests, so an LLM customer can run on the fake model.

A request is the customer's when statebox says so (the `x-statebox-role: customer` header its
model client sends). The conversation's opening message names the task; the answer is what
statebox's scripted customer would say to the agent's latest message, from the task's own
profile (facts, confirmations). When the scripted customer would end the conversation, the
fake calls the `end_conversation` tool if it is offered. Nothing is read from the prompt.
"""

from __future__ import annotations

from typing import Any

from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallOut
from statebox.tasks import Task
from statebox.tools.surface import ToolOutcome
from statebox.users.scripted import ScriptedCustomer

END_CONVERSATION_TOOL = "end_conversation"


class _DoneOnTheirSide:
    """The real customer's actions already ran in statebox (the LLM customer performs them): say the value."""

    def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(text="done")


def customer_reply(request: ChatRequest, openings: dict[str, Task]) -> Reply:
    """The scripted customer's answer to the agent's latest message, ending through the tool if offered."""
    turns = request.conversation()
    task = next((openings[k] for t in turns if (k := " ".join(t.text.split())) in openings), None)
    latest = turns[-1].text if turns else ""
    if task is None:
        return _end(request, "satisfied", "Thank you, that is all I needed.")
    answer = ScriptedCustomer(task.customer).answer(latest, actions=_DoneOnTheirSide())
    if answer.end_reason is not None:
        return _end(request, answer.end_reason, answer.text)
    return Reply(answer.text)


def _end(request: ChatRequest, reason: str, text: str) -> Reply:
    if END_CONVERSATION_TOOL in request.tool_names:
        return Reply(call=ToolCallOut(END_CONVERSATION_TOOL, {"reason": reason}))
    return Reply(text)
