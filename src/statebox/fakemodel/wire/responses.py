"""OpenAI's Responses API: input items in, output items out (`store: false` is required here too,
so a client that relies on the server keeping its conversation fails as it would against OpenAI)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import BadRequest, ChatRequest, Reply, ToolCallIn, Turn, call_id_for, text_of
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import json_object, non_empty_list


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    if body.get("store") is not False:
        raise BadRequest("send store=false: the fake model keeps no conversation between requests")
    items = non_empty_list(body, "input", "'input' must be a non-empty list of items")
    turns = [Turn("system", str(body["instructions"]))] if body.get("instructions") else []
    for index, item in enumerate(items):
        turns.extend(_turns(item, index))
    tools = [
        {"type": "function", "function": {k: t.get(k) for k in ("name", "description", "parameters")}}
        for t in body.get("tools") or []
        if isinstance(t, dict) and t.get("type") == "function"
    ]
    return ChatRequest(str(body.get("model", "fake")), turns, tools, None)


def _turns(item: Any, index: int) -> list[Turn]:
    if not isinstance(item, dict):
        raise BadRequest(f"input[{index}] must be an object")
    kind = item.get("type", "message")
    if kind == "message":
        return [Turn(str(item.get("role")), text_of(item.get("content")))]
    if kind == "function_call":
        call = ToolCallIn(str(item.get("call_id", "")), str(item.get("name", "")), str(item.get("arguments", "")))
        return [Turn("assistant", "", (call,))]
    if kind == "function_call_output":
        return [Turn("tool", str(item.get("output", "")), tool_call_id=str(item.get("call_id", "")))]
    if kind == "reasoning":
        return []
    raise BadRequest(f"input[{index}] has an unknown type {kind!r}")


def write(request: ChatRequest, reply: Reply, reply_id: str, usage: dict[str, Any]) -> dict[str, Any]:
    output: list[dict[str, Any]] = [
        {
            "type": "reasoning",
            "id": f"rs_{reply_id}",
            "summary": [{"type": "summary_text", "text": "Following the task's reference plan."}],
            "encrypted_content": f"fake-encrypted-{reply_id}",
        }
    ]
    if reply.call is not None:
        arguments = json.dumps(reply.call.arguments, ensure_ascii=False)
        call_id = call_id_for(request, reply_id)
        output.append(
            {"type": "function_call", "id": f"fc_{reply_id}", "call_id": call_id, "name": reply.call.name,
             "arguments": arguments, "status": "completed"}
        )  # fmt: skip
    else:
        text = {"type": "output_text", "text": reply.text, "annotations": []}
        output.append(
            {"type": "message", "id": f"msg_{reply_id}", "role": "assistant", "status": "completed", "content": [text]}
        )
    prompt, completion_tokens = usage["prompt_tokens"], usage["completion_tokens"]
    return {
        "id": f"resp_{reply_id}",
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": request.model,
        "output": output,
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": prompt,
            "input_tokens_details": {
                "cached_tokens": usage["prompt_tokens_details"]["cached_tokens"],
                "cache_write_tokens": 0,
            },
            "output_tokens": completion_tokens + 8,
            "output_tokens_details": {"reasoning_tokens": 8},
            "total_tokens": prompt + completion_tokens + 8,
        },
    }


def error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


FORMAT = WireFormat("responses", "/v1/responses", "/v1", parse, write, error)
