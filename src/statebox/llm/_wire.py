"""Writing request bodies from pre-encoded parts, and reading untyped reply JSON safely."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


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


def alternating(turns: Iterable[tuple[str, Sequence[T]]]) -> list[tuple[str, list[T]]]:
    """Consecutive turns of one role merged into one, empty turns dropped: the APIs that take turns
    of encoded blocks want the roles to alternate and refuse empty content."""
    merged: list[tuple[str, list[T]]] = []
    for role, blocks in turns:
        if not blocks:
            continue
        if merged and merged[-1][0] == role:
            merged[-1][1].extend(blocks)
        else:
            merged.append((role, list(blocks)))
    return merged


def join_turns(turns: list[tuple[str, list[bytes]]], key: str) -> bytes:
    """The turns array, `[{"role":ROLE,"KEY":[...]},...]`, from each turn's encoded blocks."""
    head = b'","' + key.encode() + b'":['
    return b"[" + b",".join(b'{"role":"' + role.encode() + head + b",".join(bs) + b"]}" for role, bs in turns) + b"]"


def count(value: Any) -> int:
    """A token count from a reply, 0 when absent or not an integer."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
