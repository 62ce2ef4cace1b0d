"""OpenAI's adapters ask for strict function calling exactly when strict mode accepts the tool's schema:
every built-in tool (strict by construction) goes out with `strict: true`, an external suite's schema
that strict mode would refuse (an optional property, an open object) with `strict: false`. The
requests still fit the `openai` SDK's own request types."""

from __future__ import annotations

from typing import Any

import pytest

from statebox.llm import Message, PreparedTools, ToolDef
from statebox.tasks import discover_domains

from .oracles import request_check
from .providers_kit import PROVIDERS, Provider, recording

pytestmark = pytest.mark.anyio
OPENAI_DIALECTS = [p for p in PROVIDERS if p.name in ("openai", "azure", "openai-responses")]
EXTERNAL = ToolDef(  # as an external MCP server might declare it: `verbose` optional, the object open
    name="lookup",
    description="Look a record up.",
    input_schema={"type": "object", "properties": {"id": {"type": "string"}, "verbose": {"type": "boolean"}},
                  "required": ["id"]},
)


def built_in(domain: str, name: str) -> ToolDef:
    tools = discover_domains()[domain].tools
    assert tools is not None
    spec = next(s for s in tools.specs() if s.name == name)
    return ToolDef(name=spec.name, description=spec.description, input_schema=spec.input_schema)


def strict_flags(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """Each offered tool's `strict` as sent (Chat Completions nests it in `function`, Responses does not)."""
    if provider == "openai-responses":
        return {t["name"]: t.get("strict") for t in body["tools"]}
    return {t["function"]["name"]: t["function"].get("strict") for t in body["tools"]}


@pytest.mark.parametrize("provider", OPENAI_DIALECTS, ids=[p.name for p in OPENAI_DIALECTS])
async def test_strict_is_asked_for_a_built_in_schema_and_not_for_a_non_strict_external_one(provider: Provider) -> None:
    refund = built_in("retail", "issue_refund")  # has optional (nullable) arguments: strict only by construction
    tools = PreparedTools([refund, EXTERNAL])
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        await client.complete([Message(role="user", content="Refund order ORD-1.")], tools)

    [body] = recorder.bodies()
    assert strict_flags(provider.name, body) == {"issue_refund": True, "lookup": False}
    request_check(provider.name)(body)  # the SDK's request type takes both forms
