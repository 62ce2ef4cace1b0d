"""The quick argument check: it never accepts what the full JSON Schema validator refuses."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from statebox.suites import load_suite
from statebox.tasks.worlds import discover_domains
from statebox.tools.quickcheck import compile_quick_check


def _domain_schemas() -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{name}.{spec.name}", spec.input_schema)
        for name, domain in sorted(discover_domains().items())
        for spec in domain.tools.specs()
    ]


def _reference_calls() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    calls = []
    for name, domain in sorted(discover_domains().items()):
        schemas = {spec.name: spec.input_schema for spec in domain.tools.specs()}
        for task in load_suite(name).tasks:
            calls += [(schemas[c.tool], dict(c.args)) for c in task.reference if c.tool in schemas]
    return calls


def _variants(arguments: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """The arguments, and ways a model gets them wrong: each value retyped, dropped, or one too many."""
    odd_values: list[Any] = [None, True, 0, 1.0, 1.5, "x", "", [], ["x"], {}, {"a": 1}]
    out: list[Any] = [arguments, {}, None, [], "text", {**arguments, "unexpected": 1}]
    for key in list(arguments) + list(schema.get("properties", {})):
        out.append({k: v for k, v in arguments.items() if k != key})
        out += [{**arguments, key: value} for value in odd_values]
    return out


def test_every_built_in_tool_schema_has_a_quick_check():
    missing = [name for name, schema in _domain_schemas() if compile_quick_check(schema) is None]
    assert missing == []


def test_the_quick_check_accepts_only_what_the_full_validator_accepts():
    wrongly_accepted = []
    for name, schema in _domain_schemas():
        check = compile_quick_check(schema)
        assert check is not None
        validator = Draft202012Validator(schema)
        sample = {key: "x" for key in schema.get("required", [])}
        for arguments in _variants(sample, schema):
            if check(arguments) and not validator.is_valid(arguments):
                wrongly_accepted.append((name, arguments))
    assert wrongly_accepted == []


def test_reference_calls_pass_the_quick_check_as_they_pass_the_full_validator():
    calls = _reference_calls()
    assert len(calls) > 100
    disagree = []
    for schema, arguments in calls:
        check = compile_quick_check(schema)
        assert check is not None
        valid = Draft202012Validator(schema).is_valid(arguments)
        for variant in _variants(arguments, schema):
            if check(variant) and not Draft202012Validator(schema).is_valid(variant):
                disagree.append(("accepted an invalid call", variant))
        if valid and not check(arguments):
            disagree.append(("sent a valid reference call to the slow path", arguments))
    assert disagree == []


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a"},
        {"type": "integer", "minimum": 0},
        {"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}},
        {"properties": {"a": {"type": "string"}}, "additionalProperties": False, "patternProperties": {"^b": {}}},
        {"items": [{"type": "string"}]},
        {"type": "uuid"},
    ],
)
def test_a_schema_beyond_the_simple_subset_gets_no_quick_check(schema):
    assert compile_quick_check(schema) is None


@pytest.mark.parametrize(
    ("schema", "value", "accepted"),
    [
        ({"type": "integer"}, True, False),  # a boolean is not an integer in JSON Schema
        ({"type": "integer"}, 3, True),
        ({"type": "number"}, False, False),
        ({"enum": [1, "a"]}, True, False),  # 1 == True in Python, not in JSON Schema: left to the validator
        ({"enum": ["a", "b"]}, "b", True),
        ({"const": "a"}, "a", True),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, None, True),
        ({"type": "array", "items": {"type": "string"}}, ["a", 1], False),
        ({"required": ["a"], "properties": {"a": {"type": "string"}}}, {"a": "x"}, True),
        ({"required": ["a"]}, {}, False),
        ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"b": 1}, False),
        ({"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}}, {"a": 1}, True),
        ({"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}}, {"b": ""}, True),
        ({"additionalProperties": {"type": "string"}}, {"b": 1}, False),
    ],
)
def test_the_quick_check_of_one_keyword(schema, value, accepted):
    check = compile_quick_check(schema)
    assert check is not None
    assert check(value) is accepted
    if accepted:
        assert Draft202012Validator(schema).is_valid(value)
