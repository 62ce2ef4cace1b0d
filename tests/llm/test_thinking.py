"""Extended thinking with tools: the model's thinking blocks go back to the API with its tool use.

The fake Anthropic endpoint refuses, as the real API does, a tool-use turn sent back without the
thinking (and redacted-thinking) blocks it came with, byte for byte.
"""

from __future__ import annotations

import pytest

from statebox.llm import InfrastructureError, Message, RetryPolicy, Sampling, ToolCall, Usage, make_client

from .agent_kit import run_agent
from .fake_endpoints import (
    FakeEndpoint,
    anthropic_reply,
    demand_thinking_blocks,
    openai_reply,
    redacted_thinking,
    thinking,
)

THOUGHT = thinking("The customer asks about T-2; look it up first.", signature="sig-Zm9vYmFy")
HIDDEN = redacted_thinking("ZW5jcnlwdGVkIHRoaW5raW5n")
USAGE = {"input_tokens": 40, "output_tokens": 120, "output_tokens_details": {"thinking_tokens": 90}}


def test_thinking_blocks_travel_back_with_the_tool_use_and_into_the_transcript(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy
):
    endpoint.checks.append(demand_thinking_blocks([THOUGHT, HIDDEN]))
    endpoint.script(
        anthropic_reply(
            "", tool_uses=[("tu_1", "get_ticket", {"ticket_id": "T-2"})], thinking=[THOUGHT, HIDDEN], usage=USAGE
        ),
        anthropic_reply("Your login ticket T-2 is pending.", stop_reason="end_turn"),
    )

    record = run_agent(endpoint, "anthropic", fast_retry, sampling=Sampling(thinking_budget=2048, max_tokens=8192))

    assert (record.finish_reason, record.passed) == ("agent_ended", True), record.transcript.entries
    first, second = endpoint.bodies()
    assert first["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assistant = second["messages"][1]
    assert assistant["role"] == "assistant"
    assert assistant["content"][:2] == [THOUGHT, HIDDEN]
    assert assistant["content"][2]["type"] == "tool_use"
    agent_entry = next(e for e in record.transcript.entries if e.role == "agent" and e.tool_calls)
    assert [(r.type, r.text, r.signature, r.data) for r in agent_entry.reasoning] == [
        ("thinking", THOUGHT["thinking"], THOUGHT["signature"], None),
        ("redacted_thinking", "", None, HIDDEN["data"]),
    ]
    assert record.usage["agent"].reasoning == 90


@pytest.mark.anyio
async def test_the_fake_endpoint_refuses_a_tool_use_sent_back_without_its_thinking(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy
):
    endpoint.checks.append(demand_thinking_blocks([THOUGHT]))
    history = [
        Message(role="user", content="Status of T-2?"),
        Message(role="assistant", tool_calls=[ToolCall.from_arguments("tu_1", "get_ticket", {"ticket_id": "T-2"})]),
        Message(role="tool", tool_call_id="tu_1", content='{"status": "pending"}'),
    ]

    async with make_client("anthropic:m", base_url=endpoint.url, api_key="k", retry=fast_retry) as client:
        with pytest.raises(InfrastructureError, match="Expected `thinking` or `redacted_thinking`"):
            await client.complete(history)


def test_openai_compatible_reasoning_is_recorded_not_sent_back(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    reply = openai_reply(
        None,
        tool_calls=[("c1", "get_ticket", '{"ticket_id": "T-2"}')],
        finish_reason="tool_calls",
        usage={"prompt_tokens": 30, "completion_tokens": 50, "completion_tokens_details": {"reasoning_tokens": 35}},
    )
    reply["choices"][0]["message"]["reasoning_content"] = "Look the ticket up."
    endpoint.script(reply, openai_reply("Your login ticket T-2 is pending."))

    record = run_agent(endpoint, "openai", fast_retry)

    assert record.passed, record.transcript.entries
    agent_entry = next(e for e in record.transcript.entries if e.role == "agent" and e.tool_calls)
    assert [(r.type, r.text) for r in agent_entry.reasoning] == [("reasoning", "Look the ticket up.")]
    assert record.usage["agent"] == Usage(input=30 + 10, output=50 + 2, reasoning=35)
    sent_back = endpoint.bodies()[1]["messages"]
    assert all("reasoning_content" not in m and "reasoning" not in m for m in sent_back)
