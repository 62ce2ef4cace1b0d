"""The fake model as simulated customer and as rubric judge, told apart by the role header statebox sends."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fakemodel_shop import REFUND, ServerPool, client

from statebox.fakemodel import FakeModelServer

END_TOOL = {
    "type": "function",
    "function": {
        "name": "end_conversation",
        "description": "End the conversation.",
        "parameters": {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]},
    },
}
ANY_PROMPT = "You are a customer. (The fake never reads this.)"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeModelServer]:
    pool = ServerPool()
    yield pool.get()
    pool.close()


def ask(server: FakeModelServer, messages: list[dict[str, Any]], role: str | None, **extra: Any) -> Any:
    headers = {"x-statebox-role": role} if role else {}

    async def send() -> Any:
        async with client(server) as api:
            response = await api.chat.completions.create(
                model="fake", messages=messages, extra_headers=headers, **extra  # type: ignore[arg-type]
            )
        return response.choices[0]

    return asyncio.run(send())


def customer_says(server: FakeModelServer, agent_text: str, *, tools: list[dict[str, Any]] | None = None) -> Any:
    """The customer's reply when the agent (speaking as `user` to the simulator) says `agent_text`."""
    messages = [
        {"role": "system", "content": ANY_PROMPT},
        {"role": "assistant", "content": REFUND.opening_message},
        {"role": "user", "content": agent_text},
    ]
    return ask(server, messages, "customer", tools=tools or [])


def test_the_customer_gives_the_facts_the_task_s_phrases_ask_for(server: FakeModelServer) -> None:
    choice = customer_says(server, "Could you tell me the order id?")
    assert choice.message.content == "My order number is ORD-1001."


def test_the_customer_answers_several_facts_at_once(server: FakeModelServer) -> None:
    choice = customer_says(server, "What is your order number and the email address on the account?")
    assert "ORD-1001" in choice.message.content and "jane@example.com" in choice.message.content


def test_the_customer_agrees_to_a_confirmation(server: FakeModelServer) -> None:
    choice = customer_says(server, "I can refund the mug to your card. Shall I go ahead?")
    assert choice.message.content == "Yes, please go ahead."


def test_the_customer_ends_the_conversation_when_nothing_is_asked(server: FakeModelServer) -> None:
    choice = customer_says(server, "Your refund has been issued. Thank you for contacting us.", tools=[END_TOOL])
    (call,) = choice.message.tool_calls
    assert (call.function.name, json.loads(call.function.arguments)) == ("end_conversation", {"reason": "satisfied"})
    assert choice.finish_reason == "tool_calls"


def test_the_rubric_judge_answers_yes_as_json(server: FakeModelServer) -> None:
    messages = [{"role": "system", "content": "Answer with JSON."},
                {"role": "user", "content": "Question: did the agent confirm the refund?"}]
    verdict = json.loads(ask(server, messages, "judge").message.content)
    assert verdict["answer"] == "yes" and verdict["reason"]


def test_a_request_without_a_role_is_the_agent_s_whatever_its_prompt_says(server: FakeModelServer) -> None:
    messages = [{"role": "system", "content": "STATEBOX-USER-SIMULATOR (an old marker means nothing now)"},
                {"role": "user", "content": REFUND.opening_message}]
    choice = ask(server, messages, None)
    assert choice.message.tool_calls or "order" in (choice.message.content or "").lower()
