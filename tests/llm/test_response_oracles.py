"""Every reply shape the providers' types define parses to the right turn or outcome.

Each reply served here is first checked by the provider's own response type (oracles.py), so it is
a shape the provider can really send: parallel tool calls, refusals, a reply cut at the token limit,
content filters, reasoning and thinking kept, pauses, usage with cached and reasoning tokens, empty
content, a full context window.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from statebox.llm import ContextOverflowError, Message, Usage

from .oracles import response_check
from .providers_kit import BY_NAME, recording

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]


@dataclass(frozen=True)
class Case:
    provider: str
    name: str
    body: dict[str, Any]
    text: str = ""
    calls: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # (id, name, arguments)
    finish: str | None = "stop"
    usage: Usage | None = None
    reasoning: list[str] = field(default_factory=list)  # the types of the reasoning blocks kept


def chat(message: dict[str, Any], finish: str, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4.1",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish,
                     "logprobs": None}],
    }  # fmt: skip
    if usage is not None:
        body["usage"] = usage
    return body


def chat_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def response(output: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "id": "resp_1", "object": "response", "created_at": 0, "status": "completed", "model": "o4-mini",
        "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], **extra,
    }  # fmt: skip


def said(text: str) -> dict[str, Any]:
    part = {"type": "output_text", "text": text, "annotations": []}
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [part]}


def function_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name, "arguments": arguments}


def message(content: list[dict[str, Any]], stop: str, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": content,
        "stop_reason": stop, "stop_sequence": None, "usage": usage or {"input_tokens": 5, "output_tokens": 2},
    }  # fmt: skip


def gemini(parts: list[dict[str, Any]] | None, finish: str, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"finishReason": finish, "index": 0}
    if parts is not None:
        candidate["content"] = {"role": "model", "parts": parts}
    return {"candidates": [candidate], "usageMetadata": usage or {"promptTokenCount": 5, "totalTokenCount": 5}}


def converse(content: list[dict[str, Any]], stop: str, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": usage or {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
        "metrics": {"latencyMs": 10},
    }


ORD1, ORD2 = {"order_id": "ORD-1"}, {"order_id": "ORD-2"}
TWO_CALLS = [("c1", "get_order", ORD1), ("c2", "get_order", ORD2)]
CHAT_USAGE = {
    "prompt_tokens": 1000, "completion_tokens": 300, "total_tokens": 1300,
    "prompt_tokens_details": {"cached_tokens": 800, "cache_write_tokens": 50},
    "completion_tokens_details": {"reasoning_tokens": 120},
}  # fmt: skip
RESPONSES_USAGE = {
    "input_tokens": 1000, "input_tokens_details": {"cached_tokens": 800, "cache_write_tokens": 50},
    "output_tokens": 300, "output_tokens_details": {"reasoning_tokens": 120}, "total_tokens": 1300,
}  # fmt: skip
ANTHROPIC_USAGE = {
    "input_tokens": 200,
    "cache_read_input_tokens": 800,
    "cache_creation_input_tokens": 50,
    "output_tokens": 300,
}
GEMINI_USAGE = {
    "promptTokenCount": 1000, "cachedContentTokenCount": 800, "candidatesTokenCount": 180,
    "thoughtsTokenCount": 120, "totalTokenCount": 1300,
}  # fmt: skip
CONVERSE_USAGE = {
    "inputTokens": 200, "outputTokens": 300, "totalTokens": 1350, "cacheReadInputTokens": 800,
    "cacheWriteInputTokens": 50,
}  # fmt: skip
CACHED = Usage(input=200, cached_input=800, output=300, reasoning=120)
CACHED_WRITTEN_REASONED = Usage(input=150, cached_input=800, cache_write=50, output=300, reasoning=120)
CACHED_AND_WRITTEN = Usage(input=200, cached_input=800, cache_write=50, output=300)
THOUGHT = {"type": "thinking", "thinking": "Check the order.", "signature": "c2ln"}
REDACTED = {"type": "redacted_thinking", "data": "cmVk"}
REASONING_ITEM = {
    "type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Look it up."}],
    "encrypted_content": "ZW5j",
}  # fmt: skip

CASES = [
    # OpenAI Chat Completions (Azure speaks the same replies)
    *[
        case
        for provider in ("openai", "azure")
        for case in (
            Case(provider, "parallel tool calls", chat({"content": None, "tool_calls": [
                chat_call("c1", "get_order", '{"order_id": "ORD-1"}'),
                chat_call("c2", "get_order", '{"order_id": "ORD-2"}')]}, "tool_calls"),
                calls=TWO_CALLS, finish="tool_calls"),
            Case(provider, "refusal", chat({"content": None, "refusal": "I can't help with that."}, "stop"),
                 text="I can't help with that.", finish="refusal"),
            Case(provider, "cut at the token limit", chat({"content": "The order is"}, "length"),
                 text="The order is", finish="length"),
            Case(provider, "content filter", chat({"content": None}, "content_filter"), finish="content_filter"),
            Case(provider, "usage with cached and reasoning tokens", chat({"content": "ok"}, "stop", CHAT_USAGE),
                 text="ok", usage=CACHED_WRITTEN_REASONED),
            Case(provider, "empty content", chat({"content": ""}, "stop")),
        )
    ],
    # OpenAI Responses
    Case("openai-responses", "parallel function calls", response([
        function_call("c1", "get_order", '{"order_id": "ORD-1"}'),
        function_call("c2", "get_order", '{"order_id": "ORD-2"}')]), calls=TWO_CALLS, finish="tool_calls"),
    Case("openai-responses", "refusal", response([{"type": "message", "id": "m", "role": "assistant",
         "status": "completed", "content": [{"type": "refusal", "refusal": "No."}]}]), text="No.", finish="refusal"),
    Case("openai-responses", "cut at the token limit", response([said("The order")], status="incomplete",
         incomplete_details={"reason": "max_output_tokens"}), text="The order", finish="length"),
    Case("openai-responses", "content filter", response([], status="incomplete",
         incomplete_details={"reason": "content_filter"}), finish="content_filter"),
    Case("openai-responses", "reasoning item kept", response([REASONING_ITEM, said("ok")]), text="ok",
         reasoning=["reasoning_item"]),
    Case("openai-responses", "usage with cached and reasoning tokens", response([said("ok")], usage=RESPONSES_USAGE),
         text="ok", usage=CACHED_WRITTEN_REASONED),
    Case("openai-responses", "empty content", response([{"type": "message", "id": "m", "role": "assistant",
         "status": "completed", "content": []}])),
    # Anthropic Messages
    Case("anthropic", "parallel tool use", message([
        {"type": "tool_use", "id": "c1", "name": "get_order", "input": ORD1},
        {"type": "tool_use", "id": "c2", "name": "get_order", "input": ORD2}], "tool_use"),
        calls=TWO_CALLS, finish="tool_calls"),
    Case("anthropic", "thinking and redacted thinking kept", message([THOUGHT, REDACTED,
         {"type": "text", "text": "ok"}], "end_turn"), text="ok", reasoning=["thinking", "redacted_thinking"]),
    Case("anthropic", "refusal", message([], "refusal"), finish="refusal"),
    Case("anthropic", "cut at the token limit", message([{"type": "text", "text": "The"}], "max_tokens"),
         text="The", finish="length"),
    Case("anthropic", "usage with cache reads and writes", message([{"type": "text", "text": "ok"}], "end_turn",
         ANTHROPIC_USAGE), text="ok", usage=CACHED_AND_WRITTEN),
    Case("anthropic", "empty content", message([], "end_turn")),
    # Gemini
    Case("google", "parallel function calls with a thought signature", gemini([
        {"functionCall": {"id": "c1", "name": "get_order", "args": ORD1}, "thoughtSignature": "c2ln"},
        {"functionCall": {"id": "c2", "name": "get_order", "args": ORD2}}], "STOP"),
        calls=TWO_CALLS, finish="tool_calls", reasoning=["thought_signature"]),
    Case("google", "thought summary kept apart from the text", gemini([
        {"text": "Thinking about it.", "thought": True}, {"text": "ok"}], "STOP"), text="ok", reasoning=["reasoning"]),
    Case("google", "cut at the token limit", gemini([{"text": "The"}], "MAX_TOKENS"), text="The", finish="length"),
    Case("google", "safety filter", gemini(None, "SAFETY"), finish="content_filter"),
    Case("google", "prompt blocked", {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
         "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5}}, finish="content_filter"),
    Case("google", "usage with cached and thought tokens", gemini([{"text": "ok"}], "STOP", GEMINI_USAGE),
         text="ok", usage=CACHED),
    Case("google", "empty content", gemini(None, "STOP")),
    # Bedrock Converse
    Case("bedrock", "parallel tool use", converse([
        {"toolUse": {"toolUseId": "c1", "name": "get_order", "input": ORD1}},
        {"toolUse": {"toolUseId": "c2", "name": "get_order", "input": ORD2}}], "tool_use"),
        calls=TWO_CALLS, finish="tool_calls"),
    Case("bedrock", "reasoning and redacted reasoning kept", converse([
        {"reasoningContent": {"reasoningText": {"text": "Check.", "signature": "c2ln"}}},
        {"reasoningContent": {"redactedContent": "cmVk"}}, {"text": "ok"}], "end_turn"),
        text="ok", reasoning=["thinking", "redacted_thinking"]),
    Case("bedrock", "cut at the token limit", converse([{"text": "The"}], "max_tokens"), text="The", finish="length"),
    Case("bedrock", "guardrail", converse([], "guardrail_intervened"), finish="content_filter"),
    Case("bedrock", "content filter", converse([], "content_filtered"), finish="content_filter"),
    Case("bedrock", "usage with cache reads and writes", converse([{"text": "ok"}], "end_turn", CONVERSE_USAGE),
         text="ok", usage=CACHED_AND_WRITTEN),
    Case("bedrock", "empty content", converse([], "end_turn")),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[f"{c.provider}-{c.name}" for c in CASES])
async def test_the_reply_parses_to_the_right_turn(case: Case):
    response_check(case.provider)(case.body)
    provider = BY_NAME[case.provider]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply(case.body)
        completion = await client.complete(HI)

    calls = [(c.id, c.name, c.arguments) for c in completion.tool_calls]
    assert (completion.text, calls, completion.finish_reason) == (case.text, case.calls, case.finish)
    assert [r.type for r in completion.reasoning] == case.reasoning
    if case.usage is not None:
        assert completion.usage == case.usage


@pytest.mark.parametrize(
    ("provider", "body"),
    [
        ("anthropic", message([{"type": "text", "text": "so far"}], "model_context_window_exceeded")),
        ("bedrock", converse([{"text": "so far"}], "model_context_window_exceeded")),
    ],
)
async def test_a_reply_stopped_by_a_full_context_window_is_a_context_overflow(provider: str, body: dict[str, Any]):
    response_check(provider)(body)
    async with recording(BY_NAME[provider]) as (recorder, port), BY_NAME[provider].client(port) as client:
        recorder.reply(body)
        with pytest.raises(ContextOverflowError):
            await client.complete(HI)

    assert len(recorder.requests) == 1, "not retried"


async def test_a_paused_anthropic_turn_is_continued_and_returned_as_one():
    first = message([{"type": "text", "text": "Part one. "}], "pause_turn", {"input_tokens": 5, "output_tokens": 3})
    second = message([{"type": "text", "text": "Part two."}], "end_turn", {"input_tokens": 8, "output_tokens": 2})
    response_check("anthropic")(first)
    provider = BY_NAME["anthropic"]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply(first, second)
        completion = await client.complete(HI)

    assert (completion.text, completion.finish_reason) == ("Part one. Part two.", "stop")
    assert completion.usage == Usage(input=13, output=5)
    continued = recorder.bodies()[1]["messages"]
    assert continued[-1] == {"role": "assistant", "content": [{"type": "text", "text": "Part one. "}]}


async def test_a_responses_reasoning_item_goes_back_unchanged_on_the_next_turn():
    body = response([REASONING_ITEM, function_call("c1", "get_order", '{"order_id": "ORD-1"}')])
    provider = BY_NAME["openai-responses"]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply(body)
        first = await client.complete(HI)
        history = [
            *HI,
            Message(role="assistant", tool_calls=first.tool_calls, reasoning=first.reasoning),
            Message(role="tool", tool_call_id="c1", content="shipped"),
        ]
        await client.complete(history)

    sent = recorder.bodies()[1]
    assert sent["input"][1] == REASONING_ITEM
    assert sent["input"][2]["type"] == "function_call" and sent["input"][3]["type"] == "function_call_output"
    assert sent["store"] is False and sent["include"] == ["reasoning.encrypted_content"]


async def test_a_gemini_thought_signature_goes_back_on_its_function_call():
    body = gemini(
        [{"functionCall": {"id": "c1", "name": "get_order", "args": ORD1}, "thoughtSignature": "c2ln"}], "STOP"
    )
    provider = BY_NAME["google"]
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply(body)
        first = await client.complete(HI)
        history = [
            *HI,
            Message(role="assistant", tool_calls=first.tool_calls, reasoning=first.reasoning),
            Message(role="tool", tool_call_id="c1", content="shipped"),
        ]
        await client.complete(history)

    model_turn, results = recorder.bodies()[1]["contents"][1:]
    assert model_turn == {
        "role": "model",
        "parts": [{"functionCall": {"id": "c1", "name": "get_order", "args": ORD1}, "thoughtSignature": "c2ln"}],
    }
    assert results["parts"] == [
        {"functionResponse": {"id": "c1", "name": "get_order", "response": {"output": "shipped"}}}
    ]
