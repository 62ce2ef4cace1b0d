"""The OpenAI-compatible adapter, over real HTTP against a local fake endpoint."""

from __future__ import annotations

import pytest

from statebox.llm import Completion, Message, RetryPolicy, Sampling, ToolCall, ToolDef, Usage, make_client

from .fake_endpoints import FakeEndpoint, openai_reply

pytestmark = pytest.mark.anyio

LOOKUP = ToolDef(
    name="lookup_order",
    description="Find an order by id.",
    input_schema={"type": "object", "properties": {"order_id": {"type": "string"}}},
)
HELLO = [Message(role="system", content="Be brief."), Message(role="user", content="Hi")]


async def complete_once(
    endpoint: FakeEndpoint,
    retry: RetryPolicy,
    messages: list[Message],
    tools: list[ToolDef] | None = None,
    *,
    tool_choice: str | None = None,
    sampling: Sampling | None = None,
) -> Completion:
    async with make_client("openai:fake-model", base_url=endpoint.openai_url, retry=retry, sampling=sampling) as client:
        return await client.complete(messages, tools, tool_choice=tool_choice)


async def test_plain_completion_returns_text_and_sends_messages(endpoint, fast_retry):
    endpoint.script(openai_reply("Hello there", model="fake-model-0613"))

    completion = await complete_once(endpoint, fast_retry, HELLO)

    assert completion.text == "Hello there"
    assert completion.tool_calls == []
    assert completion.model == "fake-model-0613"
    assert completion.finish_reason == "stop"
    assert completion.retries == 0
    body = endpoint.bodies()[0]
    assert body["model"] == "fake-model"
    assert body["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    assert "tools" not in body and "parallel_tool_calls" not in body


async def test_tool_call_completion_sends_tools_and_disables_parallel_calls(endpoint, fast_retry):
    endpoint.script(
        openai_reply(None, tool_calls=[("call_1", "lookup_order", '{"order_id": "A1"}')], finish_reason="tool_calls")
    )

    completion = await complete_once(endpoint, fast_retry, HELLO, tools=[LOOKUP])

    [call] = completion.tool_calls
    assert (call.id, call.name, call.arguments) == ("call_1", "lookup_order", {"order_id": "A1"})
    assert call.parse_error is None
    assert completion.text == ""
    assert completion.finish_reason == "tool_calls"
    body = endpoint.bodies()[0]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "lookup_order",
                "description": "Find an order by id.",
                "parameters": LOOKUP.input_schema,
                "strict": False,  # an open object: strict mode would refuse it
            },
        }
    ]
    assert body["parallel_tool_calls"] is False


async def test_malformed_tool_arguments_become_a_parse_error_not_an_exception(endpoint, fast_retry):
    endpoint.script(
        openai_reply(None, tool_calls=[("c1", "lookup_order", '{"order_id": "A1"'), ("c2", "lookup_order", '["A1"]')])
    )

    completion = await complete_once(endpoint, fast_retry, HELLO, tools=[LOOKUP])

    truncated, not_object = completion.tool_calls
    assert truncated.arguments is None and truncated.raw_arguments == '{"order_id": "A1"'
    assert truncated.parse_error is not None and "not valid JSON" in truncated.parse_error
    assert not_object.arguments is None
    assert not_object.parse_error == "tool arguments must be a JSON object, got list"


async def test_history_sends_the_models_own_argument_text_back(endpoint, fast_retry):
    malformed = ToolCall.from_raw("c9", "lookup_order", "{oops")
    history = [
        *HELLO,
        Message(role="assistant", tool_calls=[malformed]),
        Message(role="tool", tool_call_id="c9", content="error: bad JSON", is_error=True),
    ]

    await complete_once(endpoint, fast_retry, history, tools=[LOOKUP], tool_choice="lookup_order")

    body = endpoint.bodies()[0]
    assistant, tool = body["messages"][2:]
    assert assistant == {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "lookup_order", "arguments": "{oops"}}],
    }
    assert tool == {"role": "tool", "tool_call_id": "c9", "content": "error: bad JSON"}
    assert body["tool_choice"] == {"type": "function", "function": {"name": "lookup_order"}}


async def test_sampling_parameters_are_sent(endpoint, fast_retry):
    sampling = Sampling(temperature=0.3, seed=7, max_tokens=256, reasoning_effort="low", parallel_tool_calls=True)

    await complete_once(endpoint, fast_retry, HELLO, tools=[LOOKUP], tool_choice="required", sampling=sampling)

    body = endpoint.bodies()[0]
    sent = {
        key: body.get(key)
        for key in ("temperature", "seed", "max_tokens", "reasoning_effort", "parallel_tool_calls", "tool_choice")
    }
    assert sent == {
        "temperature": 0.3,
        "seed": 7,
        "max_tokens": 256,
        "reasoning_effort": "low",
        "parallel_tool_calls": True,
        "tool_choice": "required",
    }


async def test_a_per_call_seed_replaces_the_sampling_seed(endpoint, fast_retry):
    async with make_client(
        "openai:fake-model", base_url=endpoint.openai_url, retry=fast_retry, sampling=Sampling(seed=1)
    ) as client:
        await client.complete(HELLO, seed=42)
        await client.complete(HELLO)

    assert [body["seed"] for body in endpoint.bodies()] == [42, 1]


async def test_unset_sampling_parameters_are_not_sent(endpoint, fast_retry):
    await complete_once(endpoint, fast_retry, HELLO)

    body = endpoint.bodies()[0]
    assert set(body) == {"model", "messages"}


async def test_usage_is_normalised_to_uncached_input(endpoint, fast_retry):
    endpoint.script(
        openai_reply(
            "ok",
            usage={
                "prompt_tokens": 1000,
                "completion_tokens": 300,
                "total_tokens": 1300,
                "prompt_tokens_details": {"cached_tokens": 800},
                "completion_tokens_details": {"reasoning_tokens": 120},
            },
        )
    )

    completion = await complete_once(endpoint, fast_retry, HELLO)

    assert completion.usage == Usage(input=200, cached_input=800, cache_write=0, output=300, reasoning=120)


async def test_usage_without_details_counts_everything_as_uncached(endpoint, fast_retry):
    completion = await complete_once(endpoint, fast_retry, HELLO)

    assert completion.usage == Usage(input=10, output=2)


async def test_local_server_without_key_gets_a_placeholder_key(endpoint, fast_retry, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    await complete_once(endpoint, fast_retry, HELLO)

    assert endpoint.requests[0].headers["authorization"] == "Bearer not-needed"
