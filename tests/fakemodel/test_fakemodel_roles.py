"""The fake model as simulated customer and as rubric judge, recognised by their prompt markers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fakemodel_shop import REFUND, ServerPool, client

from statebox.fakemodel import FakeModelServer
from statebox.fakemodel.customer import USER_SIMULATOR_MARKER, parse_facts
from statebox.fakemodel.rubric import RUBRIC_JUDGE_MARKER

CUSTOMER_PROMPT = f"""{USER_SIMULATOR_MARKER}
You are a customer. Release a fact only when asked for it.

FACTS:
order_id: ORD-1001
- email: jane@example.com

Stay on your goal."""
END_TOOL = {
    "type": "function",
    "function": {
        "name": "end_conversation",
        "description": "End the conversation.",
        "parameters": {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]},
    },
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeModelServer]:
    pool = ServerPool()
    yield pool.get()
    pool.close()


def customer_says(server: FakeModelServer, agent_text: str, *, tools: list[dict[str, Any]] | None = None) -> Any:
    """The customer's reply when the agent (speaking as `user` to the simulator) says `agent_text`."""
    messages = [
        {"role": "system", "content": CUSTOMER_PROMPT},
        {"role": "assistant", "content": REFUND.opening_message},
        {"role": "user", "content": agent_text},
    ]

    async def ask() -> Any:
        async with client(server) as api:
            response = await api.chat.completions.create(model="fake", messages=messages, tools=tools or [])  # type: ignore[arg-type]
        return response.choices[0]

    return asyncio.run(ask())


def test_the_facts_block_is_read_as_key_value_lines() -> None:
    assert parse_facts(CUSTOMER_PROMPT) == {"order_id": "ORD-1001", "email": "jane@example.com"}


def test_the_customer_gives_the_facts_asked_for_by_their_key(server: FakeModelServer) -> None:
    choice = customer_says(server, "Could you tell me the order id?")
    assert choice.message.content == "My order id is ORD-1001."


def test_the_customer_understands_the_tasks_asking_phrases(server: FakeModelServer) -> None:
    choice = customer_says(server, "What is your order number and the email address on the account?")
    assert "ORD-1001" in choice.message.content and "jane@example.com" in choice.message.content


def test_the_customer_ends_the_conversation_when_nothing_is_asked(server: FakeModelServer) -> None:
    choice = customer_says(server, "Your refund has been issued. Thank you for contacting us.", tools=[END_TOOL])
    (call,) = choice.message.tool_calls
    assert (call.function.name, json.loads(call.function.arguments)) == ("end_conversation", {"reason": "satisfied"})
    assert choice.finish_reason == "tool_calls"


def test_the_rubric_judge_answers_yes_as_json(server: FakeModelServer) -> None:
    messages = [
        {"role": "system", "content": f"{RUBRIC_JUDGE_MARKER}\nAnswer with JSON."},
        {"role": "user", "content": "Question: did the agent confirm the refund?"},
    ]

    async def ask() -> str:
        async with client(server) as api:
            response = await api.chat.completions.create(model="fake", messages=messages)  # type: ignore[arg-type]
        return response.choices[0].message.content or ""

    verdict = json.loads(asyncio.run(ask()))
    assert verdict["answer"] == "yes" and verdict["reason"]
