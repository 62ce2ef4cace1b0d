"""Scripted answers to simulated-customer requests, so an LLM customer can run on the fake model.

A request is a customer-simulator request when its system message starts with
USER_SIMULATOR_MARKER. The prompt is expected to hold the customer's private facts as a
block of `key: value` lines after a line `FACTS:` (up to the first blank line), e.g.

    STATEBOX-USER-SIMULATOR
    You are a customer of ...
    FACTS:
    order_id: ORD-1001
    email: jane@example.com

The latest message of the conversation (whatever its role) is the agent's. A fact counts as
asked for when that message contains its key with spaces for underscores ("order id") or, when
the conversation's opening message is a task of the suite, one of the task's asking phrases
for that key. Asked facts are answered with their values; otherwise the customer ends the
conversation with the `end_conversation` tool (reason "satisfied") when it is offered.
"""

from __future__ import annotations

import re

from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallOut
from statebox.tasks import Task

USER_SIMULATOR_MARKER = "STATEBOX-USER-SIMULATOR"
END_CONVERSATION_TOOL = "end_conversation"
_FACT_LINE = re.compile(r"^\s*(?:[-*]\s*)?([\w .-]+?)\s*:\s*(.+?)\s*$")


def is_customer_request(request: ChatRequest) -> bool:
    return request.system.lstrip().startswith(USER_SIMULATOR_MARKER)


def parse_facts(prompt: str) -> dict[str, str]:
    """The `key: value` lines of the prompt's FACTS: block, in order."""
    facts: dict[str, str] = {}
    lines = iter(prompt.splitlines())
    for line in lines:
        if line.strip().upper() == "FACTS:":
            break
    for line in lines:
        if not line.strip():
            break
        match = _FACT_LINE.match(line)
        if match:
            facts[match.group(1)] = match.group(2)
    return facts


def customer_reply(request: ChatRequest, openings: dict[str, Task]) -> Reply:
    """Give the facts the agent's latest message asks for; otherwise end the conversation."""
    facts = parse_facts(request.system)
    turns = request.conversation()
    latest = turns[-1].text.lower() if turns else ""
    task = next((openings[k] for t in turns if (k := " ".join(t.text.split())) in openings), None)
    asked = [key for key in facts if any(p in latest for p in _phrases(key, task))]
    if asked:
        return Reply(" ".join(f"My {_label(key)} is {facts[key]}." for key in asked))
    if END_CONVERSATION_TOOL in request.tool_names:
        return Reply(call=ToolCallOut(END_CONVERSATION_TOOL, {"reason": "satisfied"}))
    return Reply("Thank you, that is all I needed.")


def _phrases(key: str, task: Task | None) -> list[str]:
    phrases = [_label(key).lower()]
    if task is not None:
        for fact in task.customer.facts:
            if fact.key == key:
                phrases += [p.lower() for p in fact.asked_by]
    return [p for p in phrases if p]


def _label(key: str) -> str:
    return " ".join(re.split(r"[_\-\s]+", key.strip()))
