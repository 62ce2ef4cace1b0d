"""Google's Gemini API (generateContent): contents of parts, roles `user` and `model`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallIn, Turn, call_id_for
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import function_tool, json_object, non_empty_list, user_turns, with_roles


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    contents = non_empty_list(body, "contents", "contents must be a non-empty list")
    system = body.get("systemInstruction")
    turns = [Turn("system", _text(system.get("parts")))] if isinstance(system, dict) else []
    for content in with_roles(contents, ("user", "model"), "contents[{index}].role"):
        turns.extend(_turns(content))
    tools = [
        function_tool(d.get("name"), d.get("description"), d.get("parametersJsonSchema") or d.get("parameters"))
        for tool in body.get("tools") or [] if isinstance(tool, dict)
        for d in tool.get("functionDeclarations") or [] if isinstance(d, dict)
    ]  # fmt: skip
    config = body.get("generationConfig") or {}
    seed = config.get("seed") if isinstance(config, dict) else None
    return ChatRequest(params.get("model", "fake"), turns, tools, seed if isinstance(seed, int) else None)


def _text(parts: Any) -> str:
    return "".join(str(p.get("text", "")) for p in parts or [] if isinstance(p, dict) and not p.get("thought"))


def _turns(content: dict[str, Any]) -> list[Turn]:
    parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
    if content["role"] == "model":
        calls = tuple(
            ToolCallIn(str(f.get("id", "")), str(f.get("name", "")), json.dumps(f.get("args", {})))
            for f in (p["functionCall"] for p in parts if isinstance(p.get("functionCall"), dict))
        )
        return [Turn("assistant", _text(parts), calls)]
    results = [
        Turn("tool", _result_text(r.get("response")), tool_call_id=str(r.get("id", "")))
        for r in (p["functionResponse"] for p in parts if isinstance(p.get("functionResponse"), dict))
    ]
    return user_turns(results, _text(parts))


def _result_text(response: Any) -> str:
    if isinstance(response, dict):
        value = response.get("output", response.get("error", response))
        return value if isinstance(value, str) else json.dumps(value)
    return ""


def write(request: ChatRequest, reply: Reply, reply_id: str, usage: dict[str, Any]) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    if reply.call is not None:
        call = {"id": call_id_for(request, reply_id), "name": reply.call.name, "args": reply.call.arguments}
        parts.append({"functionCall": call, "thoughtSignature": f"fake-signature-{reply_id}"})
    else:
        parts.append({"text": reply.text})
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {
            "promptTokenCount": usage["prompt_tokens"],
            "cachedContentTokenCount": usage["prompt_tokens_details"]["cached_tokens"],
            "candidatesTokenCount": usage["completion_tokens"],
            "totalTokenCount": usage["total_tokens"],
        },
        "modelVersion": request.model,
        "responseId": reply_id,
    }


def error(message: str, kind: str) -> dict[str, Any]:
    status = {"invalid_request_error": "INVALID_ARGUMENT"}.get(kind, "INTERNAL")
    return {"error": {"code": 400 if status == "INVALID_ARGUMENT" else 500, "message": message, "status": status}}


FORMAT = WireFormat("google", "/v1beta/models/{model}:generateContent", "/v1beta", parse, write, error)
