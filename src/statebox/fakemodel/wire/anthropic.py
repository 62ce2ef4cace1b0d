"""Anthropic's Messages API: a top-level system prompt, content blocks, tool results in user turns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import BadRequest, ChatRequest, Reply, ToolCallIn, Turn, call_id_for, text_of
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import function_tool, json_object, non_empty_list, user_turns, with_roles


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    if not isinstance(body.get("max_tokens"), int):
        raise BadRequest("max_tokens: Field required")
    messages = non_empty_list(body, "messages", "'messages' must be a non-empty list")
    system = body.get("system")
    turns = [Turn("system", text_of(system))] if system else []
    for message in with_roles(messages, ("user", "assistant"), "messages.{index}: role"):
        turns.extend(_turns(message))
    tools = [function_tool(t.get("name"), t.get("description"), t.get("input_schema"))
             for t in body.get("tools") or [] if isinstance(t, dict)]  # fmt: skip
    return ChatRequest(str(body.get("model", "fake")), turns, tools, None)


def _turns(message: dict[str, Any]) -> list[Turn]:
    content = message.get("content")
    if isinstance(content, str):
        return [Turn(message["role"], content)]
    blocks = [b for b in content or [] if isinstance(b, dict)]
    if message["role"] == "assistant":
        text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
        calls = tuple(
            ToolCallIn(str(b.get("id", "")), str(b.get("name", "")), json.dumps(b.get("input", {})))
            for b in blocks
            if b.get("type") == "tool_use"
        )
        return [Turn("assistant", text, calls)]
    turns = [
        Turn("tool", text_of(b.get("content", "")), tool_call_id=str(b.get("tool_use_id", "")))
        for b in blocks
        if b.get("type") == "tool_result"
    ]
    return user_turns(turns, "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text"))


def write(request: ChatRequest, reply: Reply, reply_id: str, usage: dict[str, Any]) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    if reply.call is not None:
        call = {"type": "tool_use", "id": call_id_for(request, reply_id), "name": reply.call.name}
        content.append({**call, "input": reply.call.arguments})
    cached = usage["prompt_tokens_details"]["cached_tokens"]
    return {
        "id": f"msg_{reply_id}",
        "type": "message",
        "role": "assistant",
        "model": request.model,
        "content": content,
        "stop_reason": "tool_use" if reply.call is not None else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": usage["prompt_tokens"] - cached,
            "cache_read_input_tokens": cached,
            "cache_creation_input_tokens": 0,
            "output_tokens": usage["completion_tokens"],
        },
    }


def error(message: str, kind: str) -> dict[str, Any]:
    kind = {"server_error": "api_error"}.get(kind, kind)
    return {"type": "error", "error": {"type": kind, "message": message}}


FORMAT = WireFormat("anthropic", "/v1/messages", "", parse, write, error)
