"""A fast acceptance test for the plain JSON Schemas tools declare, in front of the full validator.

Tool schemas use a small part of JSON Schema (objects of typed properties, `required`,
`additionalProperties`, `anyOf` for optional values, string enums). `compile_quick_check` turns
such a schema into a plain Python predicate; a schema using anything else gets none. The
predicate is sound, not complete: True means the full validator would find no error; False
only means "ask it" (which also writes the message the agent sees). Valid calls, nearly all of
them, then skip the general validator's per-keyword machinery.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

QuickCheck = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment", "deprecated"})
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    # bool is an int in Python, never in JSON Schema; a float like 1.0 is left to the full validator
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def compile_quick_check(schema: Any) -> QuickCheck | None:
    """A predicate for `schema`, or None when it uses a keyword this check does not know."""
    if schema is True or schema == {}:
        return _always
    if not isinstance(schema, dict):
        return None
    checks: list[QuickCheck] = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _keyword(keyword, value, schema)
        if check is None:
            return None
        checks.append(check)
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _always(value: Any) -> bool:
    return True


def _keyword(keyword: str, value: Any, schema: dict[str, Any]) -> QuickCheck | None:
    if keyword == "type":
        return _type(value)
    if keyword == "properties":
        return _properties(value)
    if keyword == "required":
        return _required(value)
    if keyword == "additionalProperties":
        return _additional(value, schema)
    if keyword == "anyOf":
        return _any_of(value)
    if keyword == "items":
        return _items(value)
    if keyword in ("enum", "const"):
        return _strings_in(value if keyword == "enum" else [value])
    return None


def _type(value: Any) -> QuickCheck | None:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or any(name not in _TYPES for name in names):
        return None
    tests = [_TYPES[name] for name in names]
    return tests[0] if len(tests) == 1 else lambda v: any(test(v) for test in tests)


def _properties(value: Any) -> QuickCheck | None:
    if not isinstance(value, dict):
        return None
    subs: dict[str, QuickCheck] = {}
    for name, sub in value.items():
        check = compile_quick_check(sub)
        if check is None:
            return None
        subs[name] = check

    def check_properties(v: Any) -> bool:
        if not isinstance(v, dict):
            return True  # `properties` constrains objects only
        return all(check(v[name]) for name, check in subs.items() if name in v)

    return check_properties


def _required(value: Any) -> QuickCheck | None:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        return None
    names = tuple(value)
    return lambda v: not isinstance(v, dict) or all(name in v for name in names)


def _additional(value: Any, schema: dict[str, Any]) -> QuickCheck | None:
    properties = schema.get("properties", {})
    if "patternProperties" in schema or not isinstance(properties, dict):
        return None
    allowed = frozenset(properties)
    if value is False:
        return lambda v: not isinstance(v, dict) or allowed.issuperset(v)
    extra = compile_quick_check(value)  # a schema for every property not in `properties`
    if extra is None:
        return None
    return lambda v: not isinstance(v, dict) or all(extra(x) for k, x in v.items() if k not in allowed)


def _any_of(value: Any) -> QuickCheck | None:
    if not isinstance(value, list) or not value:
        return None
    options = [compile_quick_check(option) for option in value]
    if any(option is None for option in options):
        return None
    checks = [option for option in options if option is not None]
    return lambda v: any(check(v) for check in checks)


def _items(value: Any) -> QuickCheck | None:
    if not isinstance(value, dict):
        return None  # the array form (tuple validation) differs between drafts
    item = compile_quick_check(value)
    if item is None:
        return None
    return lambda v: not isinstance(v, list) or all(item(x) for x in v)


def _strings_in(value: Any) -> QuickCheck | None:
    # Only strings: JSON Schema's equality differs from Python's for numbers and booleans (1 vs true).
    if not isinstance(value, list):
        return None
    allowed = frozenset(v for v in value if isinstance(v, str))
    return lambda v: isinstance(v, str) and v in allowed
