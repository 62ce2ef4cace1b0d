"""Reference solutions: resolving ${name.field} references to results of earlier calls."""

from __future__ import annotations

import re
from typing import Any

_REF = re.compile(r"\$\{([A-Za-z_][\w]*)((?:\.[\w]+|\[\d+\])*)\}")


class ReferenceResolutionError(ValueError):
    """A ${...} reference names a result that does not exist."""


def resolve(value: Any, saved: dict[str, Any]) -> Any:
    """Replace ${name.path} in strings (a whole-string reference keeps the value's type)."""
    if isinstance(value, dict):
        return {k: resolve(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, saved) for v in value]
    if not isinstance(value, str) or "${" not in value:
        return value
    whole = _REF.fullmatch(value)
    if whole:
        return _lookup(whole.group(1), whole.group(2), saved)
    return _REF.sub(lambda m: str(_lookup(m.group(1), m.group(2), saved)), value)


def _lookup(name: str, path: str, saved: dict[str, Any]) -> Any:
    if name not in saved:
        raise ReferenceResolutionError(f"${{{name}{path}}}: no earlier call saved as {name!r}")
    node = saved[name]
    for part in re.findall(r"\.(\w+)|\[(\d+)\]", path):
        key, index = part
        try:
            node = node[int(index)] if index else node[key]
        except (KeyError, IndexError, TypeError):
            raise ReferenceResolutionError(f"${{{name}{path}}}: {key or index!r} not in the saved result") from None
    return node


def references_in(value: Any) -> set[str]:
    """Names of saved results a value refers to."""
    if isinstance(value, dict):
        return set().union(*(references_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(references_in(v) for v in value)) if value else set()
    return {m.group(1) for m in _REF.finditer(value)} if isinstance(value, str) else set()
