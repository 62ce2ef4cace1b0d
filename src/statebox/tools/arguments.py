"""Tool-argument validation with messages an agent can act on, the same on every transport.

The MCP SDK (2.x) does not check `tools/call` arguments against a tool's input schema, so the
MCP server and the in-process Toolset both validate here, with compiled validators built on first use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from statebox.tools.quickcheck import QuickCheck, compile_quick_check
from statebox.tools.quoting import shorten
from statebox.tools.strict import validation_schema
from statebox.tools.surface import ToolSpec

if TYPE_CHECKING:  # jsonschema loads with the first validator compiled: listing tasks never needs it
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

MAX_REPORTED_ERRORS = 5
MAX_STRING_CHARS = 20_000  # no tool takes a longer string; longer ones are refused before any tool runs


class ArgumentValidators:
    """Compiled validators, built lazily per tool schema; one cache may serve many servers."""

    def __init__(self) -> None:
        # keyed by the schema object itself (kept alive here), so same-named tools never mix
        self._compiled: dict[tuple[str, int], _Compiled] = {}

    def check(self, spec: ToolSpec, arguments: dict[str, Any]) -> str | None:
        """Return None when `arguments` fit the tool's schema, else the message for the agent."""
        if too_long := _too_long(arguments):
            where, size = too_long
            return (
                f"Invalid arguments for tool '{spec.name}':\n- argument '{where}' is {size:,} characters long;"
                f" at most {MAX_STRING_CHARS:,} are accepted."
            )
        compiled = self._compile(spec)
        if compiled.quick is not None and compiled.quick(arguments):
            return None  # certainly valid: the full validator would find nothing
        errors = list(compiled.validator.iter_errors(arguments))
        if not errors:
            return None
        return describe_invalid_arguments(spec, errors, compiled.checked)

    def _compile(self, spec: ToolSpec) -> _Compiled:
        key = (spec.name, id(spec.input_schema))
        cached = self._compiled.get(key)
        if cached is not None and cached.schema is spec.input_schema:
            return cached
        from jsonschema import Draft202012Validator
        from jsonschema.validators import validator_for

        schema = validation_schema(spec.input_schema)  # a strict schema's nullable arguments may be left out
        cls = validator_for(schema, default=Draft202012Validator)
        compiled = _Compiled(spec.input_schema, schema, cls(schema), compile_quick_check(schema))
        self._compiled[key] = compiled
        return compiled


class _Compiled(NamedTuple):
    """A schema (kept alive, so its id stays its own), its validator and its quick check, if any."""

    schema: dict[str, Any]
    checked: dict[str, Any]  # what arguments are validated against
    validator: Validator
    quick: QuickCheck | None


def _too_long(value: Any, where: str = "") -> tuple[str, int] | None:
    """The first string (or key) longer than MAX_STRING_CHARS, with where it is and its length."""
    if isinstance(value, str):
        return (where, len(value)) if len(value) > MAX_STRING_CHARS else None
    items: Iterable[tuple[Any, Any]] = ()
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    for key, item in items:
        if isinstance(key, str) and len(key) > MAX_STRING_CHARS:
            return (_join(where, shorten(key)), len(key))
        found = _too_long(item, f"{where}[{key}]" if isinstance(key, int) else _join(where, str(key)))
        if found is not None:
            return found
    return None


def describe_invalid_arguments(
    spec: ToolSpec, errors: Iterable[ValidationError], schema: dict[str, Any] | None = None
) -> str:
    """Say which arguments are wrong and what the tool expects instead (`schema`: the one checked)."""
    from jsonschema.exceptions import relevance

    ranked = sorted(errors, key=relevance, reverse=True)
    problems = [_describe(error) for error in ranked[:MAX_REPORTED_ERRORS]]
    lines = [f"Invalid arguments for tool '{spec.name}':"]
    lines += [f"- {problem}" for problem in dict.fromkeys(problems)]
    checked = schema if schema is not None else validation_schema(spec.input_schema)
    lines.append(f"Expected arguments: {describe_signature(checked)}.")
    return "\n".join(lines)


def describe_signature(schema: dict[str, Any]) -> str:
    """`a (string, required), b (integer, optional)`, or `none` for a tool without arguments."""
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    if not properties:
        return "none"
    parts = [
        f"{name} ({_describe_type(sub)}, {'required' if name in required else 'optional'})"
        for name, sub in properties.items()
    ]
    return ", ".join(parts)


def _describe(error: ValidationError) -> str:
    if error.validator in ("anyOf", "oneOf") and error.context:
        # A failure inside one alternative (e.g. a nested field) explains more than the union.
        from jsonschema.exceptions import best_match

        inner = best_match(error.context)
        if inner is not None and inner.relative_path:
            return _describe(inner)
    where = _path(error.absolute_path)
    instance = error.instance
    kind = error.validator
    expected: Any = error.validator_value
    schema: Any = error.schema
    if kind == "required" and isinstance(instance, dict):
        missing = [name for name in expected if name not in instance]
        names = ", ".join(f"'{_join(where, name)}'" for name in missing)
        return f"missing required {_plural('argument', missing)} {names}"
    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = schema.get("properties") or {}
        extra = [name for name in instance if name not in allowed]
        names = ", ".join(f"'{_join(where, name)}'" for name in extra)
        return f"unknown {_plural('argument', extra)} {names} (allowed: {', '.join(allowed) or 'none'})"
    subject = f"argument '{where}'" if where else "the arguments"
    if kind == "type":
        got = "null" if instance is None else f"{_json_type(instance)} {_short(instance)}"
        return f"{subject} must be {_or_list(expected)}, got {got}"
    if kind == "enum":
        options = ", ".join(_short(v) for v in expected)
        return f"{subject} must be one of [{options}], got {_short(instance)}"
    if kind in ("anyOf", "oneOf"):
        return f"{subject} must be {_describe_type(schema)}, got {_short(instance)}"
    if kind == "const":
        return f"{subject} must be {_short(expected)}, got {_short(instance)}"
    return f"{subject}: {error.message}"


def _describe_type(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any"
    if "enum" in schema:
        return "one of " + ", ".join(_short(v) for v in schema["enum"])
    if "type" in schema:
        kind = schema["type"]
        if kind == "array" and isinstance(schema.get("items"), dict):
            return f"array of {_describe_type(schema['items'])}"
        return _or_list(kind)
    for combinator in ("anyOf", "oneOf"):
        if combinator in schema:
            return " or ".join(_describe_type(option) for option in schema[combinator])
    return "any"


def _plural(word: str, items: Sequence[Any]) -> str:
    return word if len(items) == 1 else f"{word}s"


def _or_list(kind: str | Sequence[str]) -> str:
    return kind if isinstance(kind, str) else " or ".join(kind)


def _path(parts: Iterable[Any]) -> str:
    text = ""
    for part in parts:
        text = f"{text}[{part}]" if isinstance(part, int) else _join(text, str(part))
    return text


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "integer" if isinstance(value, int) else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unknown_tool_message(name: str, available: Iterable[str]) -> str:
    """What an agent sees when it calls a tool that does not exist."""
    names = ", ".join(sorted(available)) or "none"
    return f"Unknown tool '{shorten(name)}'. Available tools: {names}."
