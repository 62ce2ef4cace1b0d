"""The wrong-value mistake: which argument of a call to change, and to what.

Preference: a number, then an enum (another allowed value), then a boolean, then a plain
string that is neither an id, a reference to an earlier result, a private fact nor free text
(free text is never compared by the judge, so changing it would not be a mistake at all).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from statebox.tasks import Fact

Path = tuple[str | int, ...]
_ID_KEY = re.compile(r"(^|_)ids?$", re.IGNORECASE)
_ID_VALUE = re.compile(r"^[A-Za-z]{1,8}[-_]?\d+$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Mutation:
    """Set the argument at `path` to `value`."""

    path: Path
    value: Any

    def apply(self, args: dict[str, Any]) -> dict[str, Any]:
        out = copy.deepcopy(args)
        node: Any = out
        for part in self.path[:-1]:
            node = node[part]
        node[self.path[-1]] = self.value
        return out


def find_mutation(
    args: dict[str, Any], schema: dict[str, Any], facts: list[Fact], free_text: set[str]
) -> Mutation | None:
    """The first change in order of preference, or None when no argument can be changed."""
    leaves = list(_leaves(args, schema, schema, ()))
    for changer in (_number, _enum, _boolean, _string):
        for path, value, sub in leaves:
            new = changer(path, value, sub, facts, free_text)
            if new is not None:
                return Mutation(path, new)
    return None


def _leaves(value: Any, node: dict[str, Any], root: dict[str, Any], path: Path) -> Iterator[tuple[Path, Any, dict]]:
    """Scalar values of the arguments with the schema that describes each."""
    node = _deref(node, root)
    if isinstance(value, dict):
        props = node.get("properties", {})
        for key, item in value.items():
            yield from _leaves(item, props.get(key, {}), root, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, node.get("items", {}), root, (*path, i))
    else:
        yield path, value, node


def _deref(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Follow a local $ref, and take the first non-null branch of anyOf/oneOf (Optional[...])."""
    for _ in range(10):
        if "$ref" in node and str(node["$ref"]).startswith("#/"):
            target: Any = root
            for part in str(node["$ref"])[2:].split("/"):
                target = target.get(part, {})
            node = target
        elif "anyOf" in node or "oneOf" in node:
            branches = node.get("anyOf") or node.get("oneOf") or []
            node = next((b for b in branches if b.get("type") != "null"), {})
        else:
            break
    return node


def _number(path: Path, value: Any, sub: dict, facts: list[Fact], free_text: set[str]) -> Any:
    # Smaller amounts and counts stay within business limits (refund caps, stock) more often.
    if isinstance(value, bool) or not isinstance(value, int | float) or _is_id_key(path):
        return None
    if isinstance(value, float):
        return value / 2 if value else 1.0
    floor = max(1, int(sub.get("minimum", 1)))
    return value - 1 if value - 1 >= floor else value + 1


def _enum(path: Path, value: Any, sub: dict, facts: list[Fact], free_text: set[str]) -> Any:
    others = [v for v in sub.get("enum", []) if v != value]
    return others[0] if others and value in sub.get("enum", []) else None


def _boolean(path: Path, value: Any, sub: dict, facts: list[Fact], free_text: set[str]) -> Any:
    return (not value) if isinstance(value, bool) else None


def _string(path: Path, value: Any, sub: dict, facts: list[Fact], free_text: set[str]) -> Any:
    if not isinstance(value, str) or not value or "${" in value or _is_id_key(path):
        return None
    if (path and path[-1] in free_text) or _ID_VALUE.match(value) or "enum" in sub:
        return None
    if any(f.value.lower() in value.lower() for f in facts):
        return None
    if _ISO_DATE.match(value):
        try:
            return (date.fromisoformat(value[:10]) + timedelta(days=1)).isoformat() + value[10:]
        except ValueError:
            return None
    return f"{value} (amended)"


def _is_id_key(path: Path) -> bool:
    keys = [p for p in path if isinstance(p, str)]
    return bool(keys) and bool(_ID_KEY.search(keys[-1]))
