"""Google's Gemini API (generateContent): contents of parts, roles `user` and `model`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import ChatRequest, Reply, Turn, call_id_for
from statebox.fakemodel.wire import WireFormat
from statebox.fakemodel.wire._parsing import KeyedBlocks, function_tool, json_object, non_empty_list, with_roles


def parse(body: Any, params: Mapping[str, str]) -> ChatRequest:
    body = json_object(body)
    contents = non_empty_list(body, "contents", "contents must be a non-empty list")
    system = body.get("systemInstruction")
    turns = [Turn("system", _text(system.get("parts")))] if isinstance(system, dict) else []
    for content in with_roles(contents, ("user", "model"), "contents[{index}].role"):
        turns.extend(_BLOCKS.turns(content))
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


def _result_text(result: dict[str, Any]) -> str:
    response = result.get("response")
    if isinstance(response, dict):
        value = response.get("output", response.get("error", response))
        return value if isinstance(value, str) else json.dumps(value)
    return ""


_BLOCKS = KeyedBlocks(
    blocks="parts", assistant="model", call="functionCall", call_id="id", arguments="args",
    result="functionResponse", result_id="id", text=_text, result_text=_result_text,
)  # fmt: skip


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
