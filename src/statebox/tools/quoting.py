"""Quoting values back in error texts: at most a short prefix of any value, however long it was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

QUOTE_LIMIT = 60  # characters of a value an error text may quote


def shorten(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A value as it may be quoted back in an error: at most `limit` characters, then an ellipsis."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def without_long_values(text: str, values: Any, limit: int = QUOTE_LIMIT) -> str:
    """`text` with every long string found in `values` (nested lists and dicts too) cut to its prefix."""
    for value in sorted(set(_long_strings(values, limit)), key=len, reverse=True):
        text = text.replace(value, shorten(value, limit))
    return text


def _long_strings(value: Any, limit: int) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) > limit:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _long_strings(key, limit)
            yield from _long_strings(item, limit)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _long_strings(item, limit)


def message_of(error: BaseException) -> str:
    """An exception's message as it was given (`str(KeyError(m))` would wrap it in quotes)."""
    return str(error.args[0]) if len(error.args) == 1 else str(error)
