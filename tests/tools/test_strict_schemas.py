"""Every built-in tool schema is valid in OpenAI strict mode, and a null argument means "left out"."""

from __future__ import annotations

from typing import Any

import pytest

from minidomain import create_ticket, make_task, mini_suite, update_ticket
from statebox.llm.strict_mode import is_strict_valid, strict_violations
from statebox.tasks.worlds import discover_domains
from statebox.tools import Toolset, tool
from statebox.world import Session

DOMAINS = discover_domains()
SPECS = [
    (f"{name}.{spec.name}", spec.input_schema)
    for name in sorted(DOMAINS)
    for toolset in (DOMAINS[name].tools, DOMAINS[name].customer_tools)
    if toolset is not None
    for spec in toolset.specs()
]  # the agent's tools and the LLM customer's

def test_the_checker_finds_what_strict_mode_refuses():
    loose = {
        "type": "object",
        "properties": {"a": {"type": "string", "default": "x"}, "m": {"type": "object", "additionalProperties": {}}},
        "required": ["a"],
    }
    assert strict_violations(loose) == [
        "<root>: additionalProperties must be false",
        "<root>: required must list every property (missing ['m'])",
        "a: unsupported keyword 'default'",
        "m: an object must list its properties",
    ]


def test_every_domain_has_tools_to_check():
    assert {name.split(".")[0] for name, _ in SPECS} == set(DOMAINS)
    assert len(SPECS) > 150, len(SPECS)


@pytest.mark.parametrize(("name", "schema"), SPECS, ids=[name for name, _ in SPECS])
def test_every_built_in_tool_schema_is_valid_in_openai_strict_mode(name, schema):
    assert schema.get("type") == "object", name
    assert strict_violations(schema) == [], name
    assert is_strict_valid(schema), name  # what the model adapters ask before sending `strict: true`


def test_a_free_form_map_argument_is_refused_when_the_tool_is_defined():
    with pytest.raises(TypeError, match="tool f: a free-form map has no strict form"):

        @tool(writes=False)
        def f(session: Session, labels: dict[str, str]) -> None:
            """F."""


def _called_with(arguments: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    @tool(writes=False)
    def f(session: Session, a: str, b: int = 3, c: str | None = None, d: str | None = "d") -> None:
        """F."""
        seen.update(a=a, b=b, c=c, d=d)

    outcome = Toolset([f]).call(_session(), "f", arguments)
    assert not outcome.is_error, outcome.text
    return seen


def _session() -> Session:
    return mini_suite().open_session(make_task())


def test_a_null_optional_argument_is_the_argument_left_out():
    left_out = _called_with({"a": "x"})
    assert left_out == {"a": "x", "b": 3, "c": None, "d": "d"}
    assert _called_with({"a": "x", "b": None, "c": None, "d": None}) == left_out


def test_a_null_required_argument_is_refused():
    outcome = Toolset([create_ticket]).call(_session(), "create_ticket", {"customer_id": None, "subject": "s"})
    assert outcome.error_kind == "invalid_arguments", outcome.text
    assert "- argument 'customer_id' must be string, got null" in outcome.text, outcome.text


def test_the_signature_in_an_error_still_says_which_arguments_are_optional():
    outcome = Toolset([update_ticket]).call(_session(), "update_ticket", {"ticket_id": "T-1", "status": "closed"})
    assert outcome.text.endswith(
        'Expected arguments: ticket_id (string, required), status (one of "open", "pending", "hold", '
        '"solved" or null, optional), priority (one of "low", "normal", "high" or null, optional).'
    ), outcome.text
