"""A campaign converts and encodes each tool list once, and never serves one list for another."""

from __future__ import annotations

from statebox.agents.llm_agent import OfferedTools
from statebox.tools import ToolSpec


def specs() -> list[ToolSpec]:
    schema = {"type": "object", "properties": {"id": {"type": "string"}}}
    return [ToolSpec(name="get_order", description="Find an order.", input_schema=schema)]


def test_attempts_given_the_same_tool_specs_share_one_prepared_list():
    offered, listing = OfferedTools(), specs()
    first = offered.prepared(listing)
    assert offered.prepared(list(listing)) is first
    assert [t.name for t in first] == ["get_order"]


def test_an_equal_looking_list_with_other_schema_objects_is_prepared_anew():
    offered, one, other = OfferedTools(), specs(), specs()
    other[0].input_schema["properties"]["id"]["type"] = "integer"
    first, second = offered.prepared(one), offered.prepared(other)
    assert second is not first
    assert second.defs[0].input_schema["properties"]["id"] == {"type": "integer"}


def test_the_oldest_list_is_forgotten_beyond_the_limit():
    offered = OfferedTools(limit=1)
    one, two = specs(), [ToolSpec(name="refund", description="Refund.")]
    first = offered.prepared(one)
    offered.prepared(two)
    assert offered.prepared(one) is not first
