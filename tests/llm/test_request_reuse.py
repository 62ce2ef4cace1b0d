"""A client remembers encoded messages; what it sends is still exactly the conversation it is given."""

from __future__ import annotations

import pytest

from statebox.llm import Message, ToolCall, ToolDef, make_client

from .fake_endpoints import anthropic_reply, openai_reply

pytestmark = pytest.mark.anyio

LOOKUP = ToolDef(
    name="lookup_order",
    description="Find an order by id.",
    input_schema={"type": "object", "properties": {"id": {"type": "string"}}},
)
SPECS = ["openai:fake-gpt", "anthropic:fake-claude"]


def conversation() -> list[Message]:
    """An attempt's messages: tool rounds (one malformed call), an error result, a customer reply."""
    calls = [
        ToolCall.from_raw("c1", "lookup_order", '{"id": "A1"}'),
        ToolCall.from_raw("c2", "lookup_order", '{"id": '),
    ]
    return [
        Message(role="system", content="Be brief."),
        Message(role="user", content="Where is my order?"),
        Message(role="assistant", content="Looking.", tool_calls=calls[:1]),
        Message(role="tool", tool_call_id="c1", content='{"status": "shipped"}'),
        Message(role="assistant", tool_calls=calls[1:]),
        Message(role="tool", tool_call_id="c2", content="Error (invalid_arguments): not JSON", is_error=True),
        Message(role="user", content="Thanks, and the other one?"),
        Message(role="assistant", content="It is on its way."),
    ]


def base_url(spec: str, endpoint) -> str:
    return endpoint.openai_url if spec.startswith("openai:") else endpoint.url


def script(spec: str, endpoint, n: int) -> None:
    endpoint.script(*[openai_reply() if spec.startswith("openai:") else anthropic_reply() for _ in range(n)])


@pytest.mark.parametrize("spec", SPECS)
async def test_a_growing_conversation_is_sent_as_a_fresh_client_sends_it(spec, endpoint, fast_retry):
    messages = conversation()
    prefixes = [messages[:n] for n in range(2, len(messages) + 1)]
    script(spec, endpoint, 2 * len(prefixes))
    async with make_client(spec, base_url=base_url(spec, endpoint), api_key="k", retry=fast_retry) as client:
        for prefix in prefixes:
            await client.complete(prefix, [LOOKUP])
    for prefix in prefixes:
        async with make_client(spec, base_url=base_url(spec, endpoint), api_key="k", retry=fast_retry) as fresh:
            await fresh.complete(prefix, [LOOKUP])
    bodies = endpoint.bodies()
    reused, fresh_bodies = bodies[: len(prefixes)], bodies[len(prefixes) :]
    assert reused == fresh_bodies


@pytest.mark.parametrize("spec", SPECS)
async def test_a_message_changed_after_it_was_sent_goes_out_changed(spec, endpoint, fast_retry):
    messages = conversation()[:4]
    script(spec, endpoint, 2)
    async with make_client(spec, base_url=base_url(spec, endpoint), api_key="k", retry=fast_retry) as client:
        await client.complete(messages, [LOOKUP])
        messages[3].content = '{"status": "delivered"}'
        await client.complete(messages, [LOOKUP])
    first, second = endpoint.bodies()
    assert "shipped" in str(first["messages"]) and "delivered" not in str(first["messages"])
    assert "delivered" in str(second["messages"]) and "shipped" not in str(second["messages"])
