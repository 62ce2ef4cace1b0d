"""The provider-neutral data: specs, tool-call parsing, usage arithmetic."""

from __future__ import annotations

import pytest

from statebox.llm import Message, ToolCall, Usage, make_client, parse_spec


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("openai:gpt-4o", ("openai", "gpt-4o")),
        ("anthropic:claude-sonnet-4-5", ("anthropic", "claude-sonnet-4-5")),
        ("openai:qwen3:8b", ("openai", "qwen3:8b")),
    ],
)
def test_spec_splits_at_the_first_colon(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec", ["gpt-4o", "gemini:gemini-2.5-flash", "openai:", ":gpt"])
def test_bad_spec_names_itself_and_every_registered_provider(spec):
    with pytest.raises(ValueError) as caught:
        make_client(spec)

    message = str(caught.value)
    assert repr(spec) in message
    for provider in ("openai", "openai-responses", "azure", "anthropic", "google", "bedrock"):
        assert provider in message, f"{provider} missing from: {message}"


@pytest.mark.parametrize(
    "raw, arguments",
    [
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        ("  ", {}),
    ],
)
def test_valid_or_empty_arguments_parse(raw, arguments):
    call = ToolCall.from_raw("c1", "tool", raw)

    assert (call.arguments, call.parse_error) == (arguments, None)


@pytest.mark.parametrize("raw", ['{"a": 1', "null", "[1]", '"text"', "{'a': 1}"])
def test_malformed_arguments_keep_the_raw_text_and_say_why(raw):
    call = ToolCall.from_raw("c1", "tool", raw)

    assert call.arguments is None
    assert call.raw_arguments == raw
    assert call.parse_error


def test_a_tool_message_must_name_its_call():
    with pytest.raises(ValueError, match="tool_call_id"):
        Message(role="tool", content="result")


def test_usage_adds_field_by_field():
    total = Usage(input=1, cached_input=2, cache_write=3, output=4, reasoning=5) + Usage(
        input=10, cached_input=20, cache_write=30, output=40, reasoning=50
    )

    assert total == Usage(input=11, cached_input=22, cache_write=33, output=44, reasoning=55)
    assert sum([Usage(input=1)] * 3, Usage()) == Usage(input=3)
