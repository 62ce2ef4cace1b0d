"""A client remembers encoded messages; what it sends is still exactly the conversation it is given."""

from __future__ import annotations

import pytest

from statebox.llm import Message, ReasoningBlock, ToolCall, ToolDef

from .providers_kit import PROVIDERS, Provider, recording

pytestmark = pytest.mark.anyio

LOOKUP = ToolDef(
    name="lookup_order",
    description="Find an order by id.",
    input_schema={"type": "object", "properties": {"id": {"type": "string"}}},
)


def conversation() -> list[Message]:
    """An attempt's messages: tool rounds (one malformed call), an error result, a customer reply."""
    calls = [
        ToolCall.from_raw("c1", "lookup_order", '{"id": "A1"}'),
        ToolCall.from_raw("c2", "lookup_order", '{"id": '),
    ]
    return [
        Message(role="system", content="Be brief."),
        Message(role="user", content="Where is my order?"),
        Message(
            role="assistant",
            content="Looking.",
            tool_calls=calls[:1],
            reasoning=[ReasoningBlock(type="thought_signature", signature="c2ln", id="c1")],
        ),
        Message(role="tool", tool_call_id="c1", content='{"status": "shipped"}'),
        Message(role="assistant", tool_calls=calls[1:]),
        Message(role="tool", tool_call_id="c2", content="Error (invalid_arguments): not JSON", is_error=True),
        Message(role="user", content="Thanks, and the other one?"),
        Message(role="assistant", content="It is on its way."),
    ]


@pytest.mark.parametrize("provider", PROVIDERS, ids=[p.name for p in PROVIDERS])
async def test_a_growing_conversation_is_sent_as_a_fresh_client_sends_it(provider: Provider):
    messages = conversation()
    prefixes = [messages[:n] for n in range(2, len(messages) + 1)]
    async with recording(provider) as (recorder, port):
        async with provider.client(port) as client:
            for prefix in prefixes:
                await client.complete(prefix, [LOOKUP])
        for prefix in prefixes:
            async with provider.client(port) as fresh:
                await fresh.complete(prefix, [LOOKUP])
    bodies = recorder.bodies()
    reused, fresh_bodies = bodies[: len(prefixes)], bodies[len(prefixes) :]
    assert reused == fresh_bodies


@pytest.mark.parametrize("provider", PROVIDERS, ids=[p.name for p in PROVIDERS])
async def test_a_message_changed_after_it_was_sent_goes_out_changed(provider: Provider):
    messages = conversation()[:4]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        await client.complete(messages, [LOOKUP])
        messages[3].content = '{"status": "delivered"}'
        await client.complete(messages, [LOOKUP])
    first, second = recorder.bodies()
    assert "shipped" in str(first) and "delivered" not in str(first)
    assert "delivered" in str(second) and "shipped" not in str(second)
