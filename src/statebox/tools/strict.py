"""Tool schemas in OpenAI strict form, and the lenient twin the argument validator checks against.

Strict form (what every `@tool` publishes): every object closed (`additionalProperties: false`),
every property listed in `required`, an optional property nullable, no `$ref` and no `default`
(a non-null default is said in the description instead). A null argument means "left out": the
tool gets its default. Agents that are not constrained may still leave optional arguments out, so
the validator checks against `validation_schema`, which drops nullable properties from `required`.
`statebox.llm.strict_mode` checks any schema (an external server's too) against strict mode's rules.
"""

from __future__ import annotations

import json
from typing import Any

_REF_PREFIX = "#/$defs/"


class NotStrictable(TypeError):
    """A schema that cannot be made strict (a free-form map, a recursive model)."""


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` (a pydantic model's, `$defs` and all) in OpenAI strict form."""
    defs: dict[str, Any] = schema.get("$defs") or {}
    body = {k: v for k, v in schema.items() if k != "$defs"}
    return _strict_node(body, defs, ())


def _strict_node(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_strict_node(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).removeprefix(_REF_PREFIX)
        if name in seen or name not in defs:
            raise NotStrictable(f"schema reference {node['$ref']!r} is recursive or unknown")
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return _strict_node({**defs[name], **rest}, defs, (*seen, name))
    out = {k: _strict_node(v, defs, seen) for k, v in node.items() if k not in ("properties", "default")}
    if "default" in node and node["default"] is not None:
        said = f"Default: {json.dumps(node['default'], ensure_ascii=False)}."
        out["description"] = f"{node['description']} ({said})" if node.get("description") else said
    if node.get("type") == "object":
        _close_object(node, out, defs, seen)
    return out


def _close_object(node: dict[str, Any], out: dict[str, Any], defs: dict[str, Any], seen: tuple[str, ...]) -> None:
    properties: dict[str, Any] = node.get("properties") or {}
    if node.get("additionalProperties") not in (None, False) or "properties" not in node:
        raise NotStrictable("a free-form map has no strict form; declare its keys (a TypedDict or a model)")
    required = set(node.get("required") or ())
    strict_props = {}
    for name, sub in properties.items():
        prop = _strict_node(sub, defs, seen)
        strict_props[name] = prop if name in required else nullable(prop)
    out["properties"] = strict_props
    out["required"] = list(properties)
    out["additionalProperties"] = False


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` that also accepts null (unchanged when it already does)."""
    if accepts_null(schema):
        return schema
    kind = schema.get("type")
    if isinstance(kind, str) and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [kind, "null"]}
    notes = {k: v for k, v in schema.items() if k == "description"}
    core = {k: v for k, v in schema.items() if k != "description"}
    return {"anyOf": [core, {"type": "null"}], **notes}


def accepts_null(schema: Any) -> bool:
    """Whether `schema` says null is a valid value (a null type, or a null alternative)."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(accepts_null(option) for option in schema.get("anyOf") or ())


def is_strict_object(schema: Any) -> bool:
    """A closed object whose `required` lists every property: the shape `strict_schema` makes."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return False
    properties = schema.get("properties") or {}
    return schema.get("additionalProperties") is False and set(schema.get("required") or ()) == set(properties)


def validation_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """What arguments are checked against: a strict object's nullable properties may be left out.

    A schema not in strict form (an external server's) is returned unchanged.
    """
    return _lenient(schema) if is_strict_object(schema) else schema


def _lenient(node: Any) -> Any:
    if isinstance(node, list):
        return [_lenient(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _lenient(v) for k, v in node.items()}
    if is_strict_object(node):
        properties: dict[str, Any] = node.get("properties") or {}
        out["required"] = [name for name, sub in properties.items() if not accepts_null(sub)]
    return out


def optional_arguments(schema: dict[str, Any]) -> set[str]:
    """Top-level arguments of a strict schema that may be null, that is, left out."""
    if not is_strict_object(schema):
        return set()
    return {name for name, sub in (schema.get("properties") or {}).items() if accepts_null(sub)}

