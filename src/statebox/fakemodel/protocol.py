"""The OpenAI Chat Completions wire format: reading a request, writing a completion with usage."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

_CACHE_BLOCK = 64  # cached prompt tokens come in blocks, like real prompt caches


class BadRequest(ValueError):
    """A request body the server cannot read; answered with HTTP 400."""


@dataclass(frozen=True)
class ToolCallIn:
    """A tool call the assistant made earlier in the conversation."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Turn:
    """One message of the request: its role, its text, and any tool calls or tool-call id."""

    role: str
    text: str = ""
    tool_calls: tuple[ToolCallIn, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True)
class ChatRequest:
    """What the fake model reads from a request body."""

    model: str
    turns: list[Turn]
    tools: list[dict[str, Any]] = field(default_factory=list)
    seed: int | None = None

    @property
    def system(self) -> str:
        """The first system (or developer) message's text, or ''."""
        return next((t.text for t in self.turns if t.role in ("system", "developer")), "")

    @property
    def tool_names(self) -> set[str]:
        return {str(t.get("function", {}).get("name", "")) for t in self.tools}

    def conversation(self) -> list[Turn]:
        """Every turn but the system and developer messages."""
        return [t for t in self.turns if t.role not in ("system", "developer")]


@dataclass(frozen=True)
class ToolCallOut:
    """A tool call the fake model makes."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """The fake model's answer: text, or one tool call (parallel tool calls are never made)."""

    text: str = ""
    call: ToolCallOut | None = None


def parse_request(body: Any) -> ChatRequest:
    """Read a Chat Completions request body; raise BadRequest saying what is wrong."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    if body.get("stream"):
        raise BadRequest("streaming is not supported by the fake model; send stream=false")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty list")
    tools = body.get("tools") or []
    if not isinstance(tools, list):
        raise BadRequest("'tools' must be a list")
    seed = body.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise BadRequest("'seed' must be an integer")
    return ChatRequest(str(body.get("model", "fake")), [_turn(m, i) for i, m in enumerate(messages)], tools, seed)


def _turn(message: Any, index: int) -> Turn:
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise BadRequest(f"messages[{index}] must be an object with a 'role'")
    calls = tuple(
        ToolCallIn(str(c.get("id", "")), str(c["function"].get("name", "")), str(c["function"].get("arguments", "")))
        for c in message.get("tool_calls") or []
        if isinstance(c, dict) and isinstance(c.get("function"), dict)
    )
    return Turn(message["role"], _text(message.get("content")), calls, message.get("tool_call_id"))


def _text(content: Any) -> str:
    """Message content as plain text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def completion(
    request: ChatRequest,
    reply: Reply,
    completion_id: str,
    tool_chars: int | None = None,
    counts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A `chat.completion` object for the reply, with plausible usage (`tool_chars`: see `usage`), or
    `counts` when the caller has them."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.call is not None:
        call_id = call_id_for(request, completion_id)
        arguments = json.dumps(reply.call.arguments, ensure_ascii=False)
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": reply.call.name, "arguments": arguments}}
        ]
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.call is not None else "stop",
                "logprobs": None,
            }
        ],
        "usage": counts if counts is not None else usage(request, reply, tool_chars),
    }


def call_id_for(request: ChatRequest, reply_id: str) -> str:
    """A tool call's id, unique within the conversation (every format uses the same)."""
    return f"call_{len(request.turns)}_{reply_id[-8:]}"


def text_of(content: Any) -> str:
    """Message content as plain text: a string, or the text parts of a content list."""
    return _text(content)


def usage(request: ChatRequest, reply: Reply, tool_chars: int | None = None) -> dict[str, Any]:
    """Token counts of about one token per four characters; the prompt prefix counts as cached.

    `tool_chars` is the length of the tools' JSON when the caller knows it (`tools_chars`).
    """
    per_turn = [_tokens(_turn_chars(t)) + 4 for t in request.turns]
    tools = _tokens(tool_chars if tool_chars is not None else tools_chars(request.tools)) if request.tools else 0
    prompt = sum(per_turn) + tools
    prefix = prompt - (per_turn[-1] if per_turn else 0)
    cached = (prefix // _CACHE_BLOCK) * _CACHE_BLOCK
    out_chars = len(reply.text) + (len(json.dumps(reply.call.arguments)) + len(reply.call.name) if reply.call else 0)
    completion_tokens = _tokens(out_chars) + 1
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt + completion_tokens,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": 0},
    }


def tools_chars(tools: list[Any]) -> int:
    """The length of the tools' JSON, which the token count of a request's tools is based on."""
    return len(json.dumps(tools))


def _turn_chars(turn: Turn) -> int:
    return len(turn.text) + sum(len(c.name) + len(c.arguments) for c in turn.tool_calls)


def _tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def error_body(message: str, kind: str) -> dict[str, Any]:
    """An error in OpenAI's shape, which the SDK turns into the matching exception."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}
