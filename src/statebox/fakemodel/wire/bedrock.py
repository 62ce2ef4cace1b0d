"""Amazon Bedrock's Converse API: content blocks keyed by kind (text, toolUse, toolResult)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallIn, Turn, call_id_for
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import function_tool, json_object, non_empty_list, user_turns, with_roles


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    messages = non_empty_list(body, "messages", "messages must be a non-empty list")
    turns = [Turn("system", _text(body["system"]))] if body.get("system") else []
    for message in with_roles(messages, ("user", "assistant"), "messages.{index}.role"):
        turns.extend(_turns(message))
    config = body.get("toolConfig") or {}
    tools = [
        function_tool(s.get("name"), s.get("description"), (s.get("inputSchema") or {}).get("json"))
        for s in (t.get("toolSpec") for t in config.get("tools") or [] if isinstance(t, dict))
        if isinstance(s, dict)
    ]
    return ChatRequest(params.get("model", "fake"), turns, tools, None)


def _text(blocks: Any) -> str:
    return "".join(str(b.get("text", "")) for b in blocks or [] if isinstance(b, dict) and "text" in b)


def _turns(message: dict[str, Any]) -> list[Turn]:
    blocks = [b for b in message.get("content") or [] if isinstance(b, dict)]
    if message["role"] == "assistant":
        calls = tuple(
            ToolCallIn(str(u.get("toolUseId", "")), str(u.get("name", "")), json.dumps(u.get("input", {})))
            for u in (b["toolUse"] for b in blocks if isinstance(b.get("toolUse"), dict))
        )
        return [Turn("assistant", _text(blocks), calls)]
    results = [
        Turn("tool", _text(r.get("content")), tool_call_id=str(r.get("toolUseId", "")))
        for r in (b["toolResult"] for b in blocks if isinstance(b.get("toolResult"), dict))
    ]
    return user_turns(results, _text(blocks))


def write(request: ChatRequest, reply: Reply, reply_id: str, usage: dict[str, Any]) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"text": reply.text})
    if reply.call is not None:
        use = {"toolUseId": call_id_for(request, reply_id), "name": reply.call.name, "input": reply.call.arguments}
        content.append({"toolUse": use})
    cached = usage["prompt_tokens_details"]["cached_tokens"]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use" if reply.call is not None else "end_turn",
        "usage": {
            "inputTokens": usage["prompt_tokens"] - cached,
            "outputTokens": usage["completion_tokens"],
            "totalTokens": usage["total_tokens"],
            "cacheReadInputTokens": cached,
            "cacheWriteInputTokens": 0,
        },
        "metrics": {"latencyMs": 1},
    }


def error(message: str, kind: str) -> dict[str, Any]:
    return {"message": message}


FORMAT = WireFormat("bedrock", "/model/{model}/converse", "", parse, write, error)
