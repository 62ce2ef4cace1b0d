"""What every wire format's `parse` checks the same way: a JSON-object body, a non-empty list of turns with
known roles, tools offered in one shape, and a user turn's tool results before its words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from statebox.fakemodel.protocol import BadRequest, Turn


def json_object(body: Any) -> dict[str, Any]:
    """The body, if it is a JSON object (BadRequest otherwise)."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


def non_empty_list(body: dict[str, Any], key: str, message: str) -> list[Any]:
    """`body[key]`, if it is a non-empty list (BadRequest with `message` otherwise)."""
    items = body.get(key)
    if not isinstance(items, list) or not items:
        raise BadRequest(message)
    return items


def with_roles(items: list[Any], roles: tuple[str, str], where: str) -> Iterator[dict[str, Any]]:
    """Each item, once checked to be an object whose `role` is one of `roles`; `where` names item `{index}`
    in the error, e.g. `messages.{index}.role`."""
    for index, item in enumerate(items):
        if not isinstance(item, dict) or item.get("role") not in roles:
            raise BadRequest(f"{where.format(index=index)} must be {roles[0]!r} or {roles[1]!r}")
        yield item


def function_tool(name: Any, description: Any, parameters: Any) -> dict[str, Any]:
    """A tool offered by the request, in the one shape the fake's scripted roles read."""
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def user_turns(results: list[Turn], text: str) -> list[Turn]:
    """A user turn's tool results, then its words (a turn of results only has no words)."""
    return [*results, Turn("user", text)] if text or not results else results
