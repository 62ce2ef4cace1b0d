"""What every wire format's `parse` checks the same way: a JSON-object body, a non-empty list of turns with
known roles, tools offered in one shape, and a user turn's tool results before its words; and the turns of
the formats whose blocks are keyed by their kind (Bedrock, Gemini)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from statebox.fakemodel.protocol import BadRequest, ToolCallIn, Turn


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


@dataclass(frozen=True)
class KeyedBlocks:
    """A format whose message holds a list of blocks, each an object with one key naming its kind
    (`{"text": ...}`, `{"toolUse": {...}}`): the keys it uses, and how it reads text out of blocks and
    a tool result's output out of a result."""

    blocks: str  # the message's list of blocks
    assistant: str  # the assistant's role
    call: str  # a tool call's kind, and its id and arguments keys
    call_id: str
    arguments: str
    result: str  # a tool result's kind, and its key for the call id
    result_id: str
    text: Callable[[Any], str]
    result_text: Callable[[dict[str, Any]], str]

    def turns(self, message: dict[str, Any]) -> list[Turn]:
        """One message's turns: the assistant's words and calls, or a user's tool results then words."""
        blocks = [b for b in message.get(self.blocks) or [] if isinstance(b, dict)]
        if message["role"] == self.assistant:
            calls = tuple(
                ToolCallIn(str(c.get(self.call_id, "")), str(c.get("name", "")), json.dumps(c.get(self.arguments, {})))
                for c in _of_kind(blocks, self.call)
            )
            return [Turn("assistant", self.text(blocks), calls)]
        results = [
            Turn("tool", self.result_text(r), tool_call_id=str(r.get(self.result_id, "")))
            for r in _of_kind(blocks, self.result)
        ]
        return user_turns(results, self.text(blocks))


def _of_kind(blocks: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [b[kind] for b in blocks if isinstance(b.get(kind), dict)]
