"""Writing request bodies from pre-encoded parts, and reading untyped reply JSON safely."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> bytes:
    """Compact JSON bytes."""
    return json.dumps(value, separators=(",", ":")).encode()


def join_object(members: list[bytes]) -> bytes:
    """A JSON object from already-encoded `"key":value` members."""
    return b"{" + b",".join(members) + b"}"


def member(key: str, encoded: bytes) -> bytes:
    return b'"' + key.encode() + b'":' + encoded


def members(values: dict[str, Any]) -> list[bytes]:
    """`"key":value` members of a plain dict (its values encoded per call)."""
    return [member(key, dumps(value)) for key, value in values.items()]


def count(value: Any) -> int:
    """A token count from a reply, 0 when absent or not an integer."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
