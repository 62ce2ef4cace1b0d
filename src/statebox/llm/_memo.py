"""Encoded request parts a client remembers, so a growing conversation is not re-encoded per call.

Every call of an attempt resends the whole conversation; only its last messages are new. An
adapter encodes each message once and finds the encoding again by the message's content (not
its identity: a message changed in place is a new key, never a stale encoding). Strings cache
their own hash, so building a key costs far less than encoding the message again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .types import Message

T = TypeVar("T")


class EncodedParts:
    """A bounded, least-recently-used map from a part's content key to its encoding."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int) -> None:
        self._entries: OrderedDict[Hashable, object] = OrderedDict()
        self._limit = limit

    def get(self, key: Hashable, encode: Callable[[Any], T], part: Any) -> T:
        """The encoding remembered for `key`, else `encode(part)` (remembered from now on)."""
        entries = self._entries
        try:
            found = entries[key]
        except KeyError:
            value = entries[key] = encode(part)
            if len(entries) > self._limit:
                entries.popitem(last=False)
            return value
        entries.move_to_end(key)
        return found  # type: ignore[return-value]  # stored by the same call site, for the same key

    def __len__(self) -> int:
        return len(self._entries)


def message_key(dialect: str, message: Message) -> Hashable:
    """Everything of `message` any adapter sends, with the dialect it is encoded for.

    A tool call is keyed by its raw argument text, from which its parsed arguments come.
    """
    calls = (
        tuple((c.id, c.name, c.raw_arguments, c.arguments is None) for c in message.tool_calls)
        if message.tool_calls
        else ()
    )
    reasoning = (
        tuple((r.type, r.text, r.signature, r.data, r.id) for r in message.reasoning) if message.reasoning else ()
    )
    return (dialect, message.role, message.content, message.tool_call_id, message.is_error, calls, reasoning)
