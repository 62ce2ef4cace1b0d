"""Adapter for the native Anthropic Messages API, with prompt caching and extended thinking."""

from __future__ import annotations

import json
from typing import Any

from ._endpoint import EndpointClient, Reply
from ._wire import alternating, count, dumps, join_object, join_turns, member, members, str_or_none
from .retry import ContextWindowExceeded, MalformedResponse
from .toolbox import PreparedTools
from .types import Message, ReasoningBlock, Sampling, ToolCall, ToolDef, Usage

DEFAULT_MAX_TOKENS = 4096  # the API requires a limit
API_VERSION = "2023-06-01"
_CACHE_CONTROL = {"type": "ephemeral"}
_DIALECT = "anthropic"
_SENT_BACK = ("thinking", "redacted_thinking")
CONTEXT_FULL = "model_context_window_exceeded"


class AnthropicClient(EndpointClient):
    """`anthropic:MODEL` over Messages, as plain JSON over HTTP."""

    provider = "anthropic"
    price_provider = "anthropic"
    key_env = ("ANTHROPIC_API_KEY",)
    base_url_env = ("ANTHROPIC_BASE_URL",)
    default_base_url = "https://api.anthropic.com"

    def _url(self, root: str) -> str:
        return root + "/v1/messages"

    def _headers(self, api_key: str) -> dict[str, str]:
        return {"x-api-key": api_key, "anthropic-version": API_VERSION}

    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        head: dict[str, Any] = {"model": self.model, "max_tokens": sampling.max_tokens or DEFAULT_MAX_TOKENS}
        if len(tools):
            head["tool_choice"] = _tool_choice_param(tool_choice, sampling.parallel_tool_calls)
        if sampling.reasoning_effort is not None:
            head["output_config"] = {"effort": sampling.reasoning_effort}
        if sampling.thinking_budget is not None:
            head["thinking"] = {"type": "enabled", "budget_tokens": sampling.thinking_budget}
        # No temperature: the Messages API (as its SDK types it, anthropic 2.x) takes none.
        parts = members(head)
        system = [m.content for m in messages if m.role == "system" and m.content]
        if system:
            blocks = [self._cached_text(_DIALECT, text, _text_block) for text in system[:-1]]
            blocks.append(self._cached_text(_DIALECT + "-last", system[-1], _cached_text_block))
            parts.append(member("system", b"[" + b",".join(blocks) + b"]"))
        parts.append(member("messages", join_turns(self._turns(messages), "content")))
        if len(tools):
            parts.append(member("tools", tools.encoded(_DIALECT, _encode_tools)))
        return join_object(parts)

    def _turns(self, messages: list[Message]) -> list[tuple[str, list[bytes]]]:
        """Alternating user/assistant turns of encoded blocks; tool results travel in user turns, first."""
        turns = alternating(  # the API refuses empty text blocks: alternating drops empty turns
            ("assistant" if m.role == "assistant" else "user", self._cached_message(_DIALECT, m, _encoded_blocks))
            for m in messages
            if m.role != "system"
        )
        return [(role, _results_first(blocks)) for role, blocks in turns]

    def _read(self, data: dict[str, Any]) -> Reply:
        blocks = data.get("content")
        if data.get("stop_reason") == CONTEXT_FULL:
            raise ContextWindowExceeded("the reply stopped: the model's context window is full")
        if not isinstance(blocks, list):
            raise MalformedResponse(f"response has no content: {dumps(data)[:200].decode(errors='replace')}")
        text: list[str] = []
        calls: list[ToolCall] = []
        reasoning: list[ReasoningBlock] = []
        for block in blocks:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                text.append(str(block.get("text") or ""))
            elif kind == "tool_use":
                calls.append(_tool_call(block))
            elif kind == "thinking":
                thought, signature = str(block.get("thinking") or ""), str_or_none(block.get("signature"))
                reasoning.append(ReasoningBlock(type="thinking", text=thought, signature=signature))
            elif kind == "redacted_thinking":
                reasoning.append(ReasoningBlock(type="redacted_thinking", data=str_or_none(block.get("data"))))
        return Reply(
            text="".join(text),
            tool_calls=calls,
            usage=_usage(data.get("usage")),
            model=str_or_none(data.get("model")),
            finish_reason=_finish(str_or_none(data.get("stop_reason"))),
            reasoning=reasoning,
        )


_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls", "max_tokens": "length"}


def _finish(stop_reason: str | None) -> str | None:
    """The neutral word for a stop reason (refusal and pause_turn are already neutral)."""
    return _FINISH.get(stop_reason, stop_reason) if stop_reason is not None else None


def _text_block(text: str) -> bytes:
    return dumps({"type": "text", "text": text})


def _cached_text_block(text: str) -> bytes:
    return dumps({"type": "text", "text": text, "cache_control": _CACHE_CONTROL})


_Block = tuple[bool, bytes]  # (is a tool result, the block's JSON)


def _encoded_blocks(message: Message) -> tuple[_Block, ...]:
    return tuple((block["type"] == "tool_result", dumps(block)) for block in _blocks(message))


def _results_first(blocks: list[_Block]) -> list[bytes]:
    """A turn's blocks with its tool results first, in order (the API wants them before any text)."""
    results = [block for is_result, block in blocks if is_result]
    if not results:
        return [block for _, block in blocks]
    return results + [block for is_result, block in blocks if not is_result]


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": message.tool_call_id,
            "is_error": message.is_error,
        }
        if message.content:
            result["content"] = message.content
        return [result]
    # Thinking blocks go back first and unchanged: the API checks them when tools are used.
    blocks: list[dict[str, Any]] = [_reasoning_param(r) for r in message.reasoning if r.type in _SENT_BACK]
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        # The API takes only objects; a malformed call goes back as an empty one.
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}})
    return blocks


def _reasoning_param(block: ReasoningBlock) -> dict[str, Any]:
    if block.type == "redacted_thinking":
        return {"type": "redacted_thinking", "data": block.data or ""}
    return {"type": "thinking", "thinking": block.text, "signature": block.signature or ""}


def _encode_tools(tools: tuple[ToolDef, ...]) -> bytes:
    params = [_tool_param(tool) for tool in tools]
    if params:
        params[-1]["cache_control"] = _CACHE_CONTROL
    return dumps(params)


def _tool_param(tool: ToolDef) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}


def _tool_choice_param(tool_choice: str | None, parallel: bool) -> dict[str, Any]:
    if tool_choice == "none":
        return {"type": "none"}
    if tool_choice in (None, "auto"):
        choice: dict[str, Any] = {"type": "auto"}
    elif tool_choice == "required":
        choice = {"type": "any"}
    else:
        choice = {"type": "tool", "name": tool_choice}
    if not parallel:
        choice["disable_parallel_tool_use"] = True
    return choice


def _tool_call(block: dict[str, Any]) -> ToolCall:
    call_id, name, arguments = str(block.get("id") or ""), str(block.get("name") or ""), block.get("input")
    if isinstance(arguments, dict):
        return ToolCall.from_arguments(call_id, name, arguments)
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall.from_raw(call_id, name, raw)


def _usage(raw: Any) -> Usage:
    """input_tokens already excludes cache reads and writes; output includes thinking."""
    if not isinstance(raw, dict):
        return Usage()
    details = raw.get("output_tokens_details")
    return Usage(
        input=count(raw.get("input_tokens")),
        cached_input=count(raw.get("cache_read_input_tokens")),
        cache_write=count(raw.get("cache_creation_input_tokens")),
        output=count(raw.get("output_tokens")),
        reasoning=count(details.get("thinking_tokens")) if isinstance(details, dict) else 0,
    )
