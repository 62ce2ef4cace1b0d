"""Every request body statebox builds, per provider and feature, fits the provider SDK's own request
type (oracles.py): tools and tool choices, tool results (errors too), parallel calls, reasoning
carried back, system prompts, sampling settings, malformed tool arguments sent back."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from statebox.llm import Message, PreparedTools, ReasoningBlock, Sampling, ToolCall, ToolDef

from .oracles import request_check
from .providers_kit import PROVIDERS, Provider, recording

pytestmark = pytest.mark.anyio

LOOKUP = ToolDef(
    name="get_order",
    description="Find an order by id.",
    input_schema={
        "type": "object",
        "properties": {"order_id": {"type": "string"}, "verbose": {"type": "boolean"}},
        "required": ["order_id"],
        "additionalProperties": False,
    },
)
REFUND = ToolDef(name="refund", description="Refund an order.", input_schema={"type": "object", "properties": {}})
SYSTEM = [
    Message(role="system", content="You are a support agent."),
    Message(role="system", content="# Policy\nBe kind."),
]
OPENING = Message(role="user", content="Where is order ORD-1?")
REASONING = [
    ReasoningBlock(type="thinking", text="Look the order up.", signature="c2lnLTE="),
    ReasoningBlock(type="redacted_thinking", data="cmVkYWN0ZWQ="),
    ReasoningBlock(type="reasoning_item", id="rs_1", text="Looking it up.", data="ZW5jcnlwdGVk"),
    ReasoningBlock(type="thought_signature", signature="dGhvdWdodA==", id="c1"),
    ReasoningBlock(type="reasoning", text="plain reasoning text, never sent back"),
]


def one_call(call_id: str, raw: str) -> ToolCall:
    return ToolCall.from_raw(call_id, "get_order", raw)


@dataclass(frozen=True)
class Feature:
    name: str
    messages: list[Message]
    tools: list[ToolDef] = field(default_factory=list)
    tool_choice: str | None = None
    sampling: Sampling = field(default_factory=Sampling)


CALL_1, CALL_2 = one_call("c1", '{"order_id": "ORD-1"}'), one_call("c2", '{"order_id": "ORD-2"}')
ASKED = [*SYSTEM, OPENING]
ONE_ROUND = [
    *ASKED,
    Message(role="assistant", content="Looking.", tool_calls=[CALL_1]),
    Message(role="tool", tool_call_id="c1", content='{"status": "shipped"}'),
]
MALFORMED_ROUND = [
    *ASKED,
    Message(role="assistant", tool_calls=[one_call("c1", '{"order_id": ')]),
    Message(role="tool", tool_call_id="c1", content="Error (invalid_arguments): not JSON", is_error=True),
]
PARALLEL_ROUND = [
    *ASKED,
    Message(role="assistant", tool_calls=[CALL_1, CALL_2]),
    Message(role="tool", tool_call_id="c1", content="shipped"),
    Message(role="tool", tool_call_id="c2", content=""),
    Message(role="user", content="And the refund?"),
]
REASONED_ROUND = [
    *ASKED,
    Message(role="assistant", tool_calls=[CALL_1], reasoning=REASONING),
    Message(role="tool", tool_call_id="c1", content="shipped"),
    Message(role="assistant", content="It shipped.", reasoning=REASONING[:1]),
    Message(role="user", content="Thanks."),
]
CUSTOMER_LAST = [*ASKED, Message(role="assistant", content="Which order?"), Message(role="user", content="ORD-1.")]
BOTH = [LOOKUP, REFUND]

FEATURES = [
    Feature("plain", ASKED),
    Feature("no system prompt", [OPENING]),
    Feature("tools offered", ASKED, BOTH),
    *[Feature(f"tool choice {choice}", ASKED, BOTH, choice) for choice in ("auto", "none", "required")],
    Feature("a tool forced by name", ASKED, BOTH, "get_order"),
    Feature("a tool call and its result", ONE_ROUND, [LOOKUP]),
    Feature("an error result and a malformed call sent back", MALFORMED_ROUND, [LOOKUP]),
    Feature("parallel calls and their results", PARALLEL_ROUND, BOTH, sampling=Sampling(parallel_tool_calls=True)),
    Feature(
        "reasoning carried back", REASONED_ROUND, [LOOKUP], sampling=Sampling(thinking_budget=2048, max_tokens=8192)
    ),
    Feature(
        "temperature, max tokens, seed", ASKED, [LOOKUP], sampling=Sampling(temperature=0.2, max_tokens=512, seed=7)
    ),
    Feature("reasoning effort", ASKED, [LOOKUP], sampling=Sampling(reasoning_effort="low")),
    Feature("a conversation ending on the customer", CUSTOMER_LAST),
]


@pytest.mark.parametrize("feature", FEATURES, ids=[f.name for f in FEATURES])
@pytest.mark.parametrize("provider", PROVIDERS, ids=[p.name for p in PROVIDERS])
async def test_the_request_fits_the_providers_own_request_type(provider: Provider, feature: Feature):
    check = request_check(provider.name)
    async with recording(provider) as (recorder, port), provider.client(port, sampling=feature.sampling) as client:
        await client.complete(feature.messages, PreparedTools(feature.tools), tool_choice=feature.tool_choice)

    [body] = recorder.bodies()
    check(body)
