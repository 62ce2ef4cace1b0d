"""What OpenAI strict mode accepts as a tool's parameters, checked on any schema (built-in or an external server's).

The adapters ask for strict function calling (`strict: true`) exactly when `is_strict_valid` says the
schema is one strict mode takes: every built-in tool's (`statebox.tools.strict` makes them so), and
not an external server's with an optional property or an open object, which strict mode would refuse.
"""

from __future__ import annotations

from typing import Any

# The keywords OpenAI strict mode accepts (structured outputs' supported subset of JSON Schema).
STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "description",
    "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems",
    "maxItems",
})
STRICT_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def is_strict_valid(schema: Any) -> bool:
    """Whether OpenAI strict mode accepts `schema` as a tool's parameters: an object breaking none of its rules."""
    return isinstance(schema, dict) and schema.get("type") == "object" and not strict_violations(schema)


def strict_violations(schema: Any, where: str = "") -> list[str]:
    """Every place `schema` breaks a strict-mode rule, as 'path: rule' (empty: strict mode accepts it)."""
    here = where or "<root>"
    if not isinstance(schema, dict):
        return [f"{here}: a schema must be an object"]
    problems = [f"{here}: unsupported keyword {k!r}" for k in schema if k not in STRICT_KEYWORDS]
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    problems += [f"{here}: unknown type {k!r}" for k in kinds if k not in STRICT_TYPES]
    if "type" not in schema and "anyOf" not in schema and "enum" not in schema and "const" not in schema:
        problems.append(f"{here}: no type")
    if "object" in kinds:
        problems += _object_violations(schema, where)
    if "array" in kinds:
        problems += strict_violations(schema.get("items"), f"{where}[]")
    for i, option in enumerate(schema.get("anyOf") or ()):
        problems += strict_violations(option, f"{where}<anyOf {i}>")
    return problems


def _object_violations(schema: dict[str, Any], where: str) -> list[str]:
    here = where or "<root>"
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return [f"{here}: an object must list its properties"]
    problems = []
    if schema.get("additionalProperties") is not False:
        problems.append(f"{here}: additionalProperties must be false")
    required = schema.get("required") or ()
    missing = [name for name in properties if name not in required]
    if missing or len(required) != len(properties):
        problems.append(f"{here}: required must list every property (missing {missing})")
    for name, sub in properties.items():
        problems += strict_violations(sub, f"{where}.{name}" if where else name)
    return problems
