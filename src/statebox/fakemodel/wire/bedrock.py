"""Amazon Bedrock's Converse API: content blocks keyed by kind (text, toolUse, toolResult)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import ChatRequest, Reply, Turn, call_id_for
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import KeyedBlocks, function_tool, json_object, non_empty_list, with_roles


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    messages = non_empty_list(body, "messages", "messages must be a non-empty list")
    turns = [Turn("system", _text(body["system"]))] if body.get("system") else []
    for message in with_roles(messages, ("user", "assistant"), "messages.{index}.role"):
        turns.extend(_BLOCKS.turns(message))
    config = body.get("toolConfig") or {}
    tools = [
        function_tool(s.get("name"), s.get("description"), (s.get("inputSchema") or {}).get("json"))
        for s in (t.get("toolSpec") for t in config.get("tools") or [] if isinstance(t, dict))
        if isinstance(s, dict)
    ]
    return ChatRequest(params.get("model", "fake"), turns, tools, None)


def _text(blocks: Any) -> str:
    return "".join(str(b.get("text", "")) for b in blocks or [] if isinstance(b, dict) and "text" in b)


_BLOCKS = KeyedBlocks(
    blocks="content", assistant="assistant", call="toolUse", call_id="toolUseId", arguments="input",
    result="toolResult", result_id="toolUseId", text=_text, result_text=lambda result: _text(result.get("content")),
)  # fmt: skip


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
