"""Google's Gemini API (generateContent), as plain JSON over HTTP.

System messages become `systemInstruction`; the assistant is role `model`; tool results are
`functionResponse` parts, which name their function, found from the call they answer. Thought
summaries (parts marked `thought`) are recorded; thought signatures, which Gemini needs back on
the part they came with, are kept as `thought_signature` blocks and returned there.
"""

from __future__ import annotations

import urllib.parse
import uuid
from functools import partial
from typing import Any

from ._endpoint import EndpointClient, Reply
from ._wire import alternating, count, dumps, join_object, join_turns, member, str_or_none
from .retry import MalformedResponse
from .toolbox import PreparedTools
from .types import Message, ReasoningBlock, Sampling, ToolCall, ToolDef, Usage

_DIALECT = "google"
_FILTERED = frozenset({"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"})
_MODES = {"auto": "AUTO", "none": "NONE", "required": "ANY"}


class GeminiClient(EndpointClient):
    """`google:MODEL` over the Gemini API's generateContent."""

    provider = "google"
    price_provider = "google"
    key_env = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    base_url_env = ("GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL")
    default_base_url = "https://generativelanguage.googleapis.com/v1beta"

    def _url(self, root: str) -> str:
        return f"{root}/models/{urllib.parse.quote(self.model, safe='')}:generateContent"

    def _headers(self, api_key: str) -> dict[str, str]:
        return {"x-goog-api-key": api_key}

    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        parts: list[bytes] = [member("contents", self._contents(messages))]
        system = [{"text": m.content} for m in messages if m.role == "system" and m.content]
        if system:
            parts.append(member("systemInstruction", self._cached_text(_DIALECT, dumps(system).decode(), _system)))
        if len(tools):
            parts.append(member("tools", tools.encoded(_DIALECT, _encode_tools)))
            if tool_choice is not None:
                parts.append(member("toolConfig", dumps(_tool_config(tool_choice))))
        config = _generation_config(sampling)
        if config:
            parts.append(member("generationConfig", dumps(config)))
        return join_object(parts)

    def _contents(self, messages: list[Message]) -> bytes:
        """Alternating user/model turns; a tool result names the function of the call it answers."""
        names = {call.id: call.name for m in messages if m.role == "assistant" for call in m.tool_calls}

        def encoded(message: Message) -> tuple[bytes, ...]:
            name = names.get(message.tool_call_id or "", "") if message.role == "tool" else ""
            return self._cached_message(f"{_DIALECT}:{name}", message, partial(_encoded_parts, function_name=name))

        turns = alternating(
            ("model" if m.role == "assistant" else "user", encoded(m)) for m in messages if m.role != "system"
        )
        return join_turns(turns, "parts")

    def _read(self, data: dict[str, Any]) -> Reply:
        usage = _usage(data.get("usageMetadata"))
        model = str_or_none(data.get("modelVersion"))
        candidates = data.get("candidates")
        if not candidates:
            feedback = data.get("promptFeedback")
            if isinstance(feedback, dict) and feedback.get("blockReason"):  # the prompt itself was blocked
                return Reply("", [], usage, model, "content_filter")
            raise MalformedResponse(f"response has no candidates: {dumps(data)[:200].decode(errors='replace')}")
        candidate = candidates[0] if isinstance(candidates[0], dict) else {}
        found = candidate.get("content")
        content: dict[str, Any] = found if isinstance(found, dict) else {}
        text, calls, reasoning = _read_parts(content.get("parts") or [])
        return Reply("".join(text), calls, usage, model, _finish(candidate.get("finishReason"), bool(calls)), reasoning)


def _read_parts(parts: list[Any]) -> tuple[list[str], list[ToolCall], list[ReasoningBlock]]:
    text: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[ReasoningBlock] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        call_id = None
        if isinstance(part.get("functionCall"), dict):
            function = part["functionCall"]
            call_id = str(function.get("id") or f"call_{uuid.uuid4().hex[:16]}")  # Gemini may leave ids out
            arguments = function.get("args")
            name = str(function.get("name") or "")
            if isinstance(arguments, dict):
                calls.append(ToolCall.from_arguments(call_id, name, arguments))
            else:
                calls.append(ToolCall.from_raw(call_id, name, dumps(arguments).decode() if arguments else ""))
        elif part.get("thought") and isinstance(part.get("text"), str):
            reasoning.append(ReasoningBlock(type="reasoning", text=part["text"]))
        elif isinstance(part.get("text"), str):
            text.append(part["text"])
        if isinstance(part.get("thoughtSignature"), str):
            reasoning.append(ReasoningBlock(type="thought_signature", signature=part["thoughtSignature"], id=call_id))
    return text, calls, reasoning


def _finish(reason: Any, called: bool) -> str | None:
    if reason == "STOP":
        return "tool_calls" if called else "stop"
    if reason == "MAX_TOKENS":
        return "length"
    if reason in _FILTERED:
        return "content_filter"
    return str(reason).lower() if isinstance(reason, str) else None


def _system(encoded_parts: str) -> bytes:
    return b'{"parts":' + encoded_parts.encode() + b"}"


def _encoded_parts(message: Message, function_name: str) -> tuple[bytes, ...]:
    return tuple(dumps(part) for part in _parts(message, function_name))


def _parts(message: Message, function_name: str) -> list[dict[str, Any]]:
    if message.role == "tool":
        key = "error" if message.is_error else "output"
        result = {"id": message.tool_call_id, "name": function_name, "response": {key: message.content}}
        return [{"functionResponse": result}]
    signatures = {r.id: r.signature for r in message.reasoning if r.type == "thought_signature"}
    parts: list[dict[str, Any]] = []
    if message.content:
        parts.append(_signed({"text": message.content}, signatures.get(None)))
    for call in message.tool_calls:
        # Gemini takes only objects; a malformed call goes back as an empty one.
        function = {"id": call.id, "name": call.name, "args": call.arguments or {}}
        parts.append(_signed({"functionCall": function}, signatures.get(call.id)))
    return parts


def _signed(part: dict[str, Any], signature: str | None) -> dict[str, Any]:
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def _encode_tools(tools: tuple[ToolDef, ...]) -> bytes:
    declarations = [
        {"name": t.name, "description": t.description, "parametersJsonSchema": t.input_schema} for t in tools
    ]
    return dumps([{"functionDeclarations": declarations}])


def _tool_config(tool_choice: str) -> dict[str, Any]:
    if tool_choice in _MODES:
        return {"functionCallingConfig": {"mode": _MODES[tool_choice]}}
    return {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [tool_choice]}}


def _generation_config(sampling: Sampling) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if sampling.temperature is not None:
        config["temperature"] = sampling.temperature
    if sampling.max_tokens is not None:
        config["maxOutputTokens"] = sampling.max_tokens
    if sampling.seed is not None:
        config["seed"] = sampling.seed
    if sampling.thinking_budget is not None:
        config["thinkingConfig"] = {"thinkingBudget": sampling.thinking_budget, "includeThoughts": True}
    elif sampling.reasoning_effort is not None:
        config["thinkingConfig"] = {"thinkingLevel": sampling.reasoning_effort.upper(), "includeThoughts": True}
    return config


def _usage(raw: Any) -> Usage:
    """promptTokenCount includes the cached part; output = candidates + thoughts."""
    if not isinstance(raw, dict):
        return Usage()
    cached = count(raw.get("cachedContentTokenCount"))
    thoughts = count(raw.get("thoughtsTokenCount"))
    return Usage(
        input=max(count(raw.get("promptTokenCount")) - cached, 0),
        cached_input=cached,
        output=count(raw.get("candidatesTokenCount")) + thoughts,
        reasoning=thoughts,
    )
