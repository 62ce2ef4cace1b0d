"""The native Anthropic adapter, over real HTTP against a local fake endpoint."""

from __future__ import annotations

import pytest

from statebox.llm import (
    Completion,
    Message,
    RetryPolicy,
    Sampling,
    ToolCall,
    ToolDef,
    Usage,
    make_client,
)

from .fake_endpoints import FakeEndpoint, anthropic_reply

pytestmark = pytest.mark.anyio

LOOKUP = ToolDef(
    name="lookup_order",
    description="Find an order by id.",
    input_schema={"type": "object", "properties": {"id": {"type": "string"}}},
)
REFUND = ToolDef(name="refund", description="Refund an order.", input_schema={"type": "object", "properties": {}})
EPHEMERAL = {"type": "ephemeral"}


async def complete_once(
    endpoint: FakeEndpoint,
    retry: RetryPolicy,
    messages: list[Message],
    tools: list[ToolDef] | None = None,
    *,
    tool_choice: str | None = None,
    sampling: Sampling | None = None,
) -> Completion:
    async with make_client(
        "anthropic:fake-claude", base_url=endpoint.url, api_key="test-key", retry=retry, sampling=sampling
    ) as client:
        return await client.complete(messages, tools, tool_choice=tool_choice)


async def test_plain_completion_puts_the_system_prompt_top_level_and_cached(endpoint, fast_retry):
    endpoint.script(anthropic_reply("Hello there"))
    messages = [Message(role="system", content="Be brief."), Message(role="user", content="Hi")]

    completion = await complete_once(endpoint, fast_retry, messages)

    assert completion.text == "Hello there"
    assert completion.finish_reason == "stop"
    assert completion.model == "fake-claude"
    body = endpoint.bodies()[0]
    assert body["system"] == [{"type": "text", "text": "Be brief.", "cache_control": EPHEMERAL}]
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]
    assert body["max_tokens"] == 4096
    headers = endpoint.requests[0].headers
    assert "test-key" in headers.get("x-api-key", headers.get("authorization", ""))


async def test_tool_use_completion_sends_tools_with_cache_on_the_last(endpoint, fast_retry):
    endpoint.script(
        anthropic_reply("Looking it up.", tool_uses=[("tu_1", "lookup_order", {"id": "A1"})], stop_reason="tool_use")
    )

    completion = await complete_once(endpoint, fast_retry, [Message(role="user", content="A1?")], [LOOKUP, REFUND])

    assert completion.text == "Looking it up."
    [call] = completion.tool_calls
    assert (call.id, call.name, call.arguments) == ("tu_1", "lookup_order", {"id": "A1"})
    assert call.raw_arguments == '{"id": "A1"}'
    body = endpoint.bodies()[0]
    assert [tool.get("cache_control") for tool in body["tools"]] == [None, EPHEMERAL]
    assert body["tools"][0] == {
        "name": "lookup_order",
        "description": "Find an order by id.",
        "input_schema": LOOKUP.input_schema,
    }
    assert body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}


async def test_tool_results_travel_in_one_user_turn_before_any_text(endpoint, fast_retry):
    calls = [
        ToolCall.from_arguments("tu_1", "lookup_order", {"id": "A1"}),
        ToolCall.from_arguments("tu_2", "refund", {}),
    ]
    history = [
        Message(role="user", content="Refund A1"),
        Message(role="assistant", content="On it.", tool_calls=calls),
        Message(role="tool", tool_call_id="tu_1", content="found"),
        Message(role="tool", tool_call_id="tu_2", content="not allowed", is_error=True),
        Message(role="user", content="Well?"),
    ]

    await complete_once(endpoint, fast_retry, history, [LOOKUP, REFUND])

    turns = endpoint.bodies()[0]["messages"]
    assert [turn["role"] for turn in turns] == ["user", "assistant", "user"]
    assert turns[1]["content"] == [
        {"type": "text", "text": "On it."},
        {"type": "tool_use", "id": "tu_1", "name": "lookup_order", "input": {"id": "A1"}},
        {"type": "tool_use", "id": "tu_2", "name": "refund", "input": {}},
    ]
    assert turns[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "tu_1", "is_error": False, "content": "found"},
        {"type": "tool_result", "tool_use_id": "tu_2", "is_error": True, "content": "not allowed"},
        {"type": "text", "text": "Well?"},
    ]


async def test_non_object_tool_input_becomes_a_parse_error(endpoint, fast_retry):
    endpoint.script(anthropic_reply("", tool_uses=[("tu_1", "lookup_order", '{"id": ')]))

    completion = await complete_once(endpoint, fast_retry, [Message(role="user", content="x")], [LOOKUP])

    [call] = completion.tool_calls
    assert call.arguments is None and call.parse_error is not None


async def test_sampling_and_tool_choice_are_sent_without_what_the_api_does_not_take(endpoint, fast_retry):
    sampling = Sampling(temperature=0.2, seed=5, max_tokens=300, reasoning_effort="low", parallel_tool_calls=True)

    await complete_once(
        endpoint,
        fast_retry,
        [Message(role="user", content="x")],
        [LOOKUP],
        tool_choice="lookup_order",
        sampling=sampling,
    )

    body = endpoint.bodies()[0]
    assert body["max_tokens"] == 300
    assert body["output_config"] == {"effort": "low"}
    assert body["tool_choice"] == {"type": "tool", "name": "lookup_order"}
    assert "seed" not in body and "temperature" not in body, "the Messages API takes neither"


async def test_usage_maps_cache_reads_and_writes(endpoint, fast_retry):
    endpoint.script(
        anthropic_reply(
            "ok",
            usage={
                "input_tokens": 50,
                "cache_read_input_tokens": 900,
                "cache_creation_input_tokens": 300,
                "output_tokens": 400,
                "output_tokens_details": {"thinking_tokens": 150},
            },
        )
    )

    completion = await complete_once(endpoint, fast_retry, [Message(role="user", content="x")])

    assert completion.usage == Usage(input=50, cached_input=900, cache_write=300, output=400, reasoning=150)
