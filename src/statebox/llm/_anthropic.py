"""Adapter for the native Anthropic Messages API, with prompt caching."""

from __future__ import annotations

import json
from typing import Any

import anthropic

from ._endpoint import EndpointClient, Reply, SdkErrors, classify_sdk_error
from .retry import EndpointFailure, MalformedResponse
from .types import Message, Sampling, ToolCall, ToolDef, Usage

_ERRORS = SdkErrors(
    status=anthropic.APIStatusError,
    timeout=anthropic.APITimeoutError,
    connection=anthropic.APIConnectionError,
    base=anthropic.AnthropicError,
)
DEFAULT_MAX_TOKENS = 4096  # the API requires a limit


class AnthropicClient(EndpointClient):
    """`anthropic:MODEL` over Messages; the SDK's own retries are off."""

    provider = "anthropic"
    key_env = "ANTHROPIC_API_KEY"

    def __init__(self, spec: str, **options: Any) -> None:
        super().__init__(spec, **options)
        try:
            self._sdk = anthropic.AsyncAnthropic(
                api_key=self._resolve_api_key(),
                base_url=self.base_url,
                max_retries=0,
                timeout=self.retry.timeout_s,
            )
        except anthropic.AnthropicError as exc:
            raise ValueError(f"cannot create a client for {spec!r}: {exc}") from exc

    async def aclose(self) -> None:
        await self._sdk.close()

    def _build_request(
        self, messages: list[Message], tools: list[ToolDef], tool_choice: str | None, sampling: Sampling
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": sampling.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": _turns(messages),
        }
        system: list[dict[str, Any]] = [
            {"type": "text", "text": m.content} for m in messages if m.role == "system" and m.content
        ]
        if system:
            system[-1]["cache_control"] = _cache_control()
            request["system"] = system
        if tools:
            request["tools"] = [_tool_param(tool) for tool in tools]
            request["tools"][-1]["cache_control"] = _cache_control()
            request["tool_choice"] = _tool_choice_param(tool_choice, sampling.parallel_tool_calls)
        if sampling.reasoning_effort is not None:
            request["output_config"] = {"effort": sampling.reasoning_effort}
        if sampling.temperature is not None:
            # This SDK version has no `temperature` argument; the API still takes it.
            request["extra_body"] = {"temperature": sampling.temperature}
        return request

    async def _send(self, request: dict[str, Any]) -> Reply:
        response = await self._sdk.messages.create(**request)
        blocks = getattr(response, "content", None)
        if blocks is None:
            raise MalformedResponse(f"response has no content: {str(response)[:200]}")
        text = "".join(block.text for block in blocks if block.type == "text")
        calls = [_tool_call(block) for block in blocks if block.type == "tool_use"]
        return Reply(
            text=text,
            tool_calls=calls,
            usage=_usage(response.usage),
            model=response.model,
            finish_reason=response.stop_reason,
        )

    def _classify(self, exc: Exception) -> EndpointFailure | None:
        return classify_sdk_error(exc, _ERRORS, self.retry.timeout_s)


def _turns(messages: list[Message]) -> list[dict[str, Any]]:
    """Alternating user/assistant turns; tool results travel in user turns, first."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if not blocks:  # the API refuses empty text blocks
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:
        turn["content"].sort(key=lambda block: block["type"] != "tool_result")
    return turns


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
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        # The API takes only objects; a malformed call goes back as an empty one.
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}})
    return blocks


def _cache_control() -> dict[str, str]:
    return {"type": "ephemeral"}


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


def _tool_call(block: Any) -> ToolCall:
    arguments = block.input
    if isinstance(arguments, dict):
        return ToolCall.from_arguments(block.id, block.name, arguments)
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall.from_raw(block.id, block.name, raw)


def _usage(raw: Any) -> Usage:
    """input_tokens already excludes cache reads and writes; output includes thinking."""
    if raw is None:
        return Usage()
    details = getattr(raw, "output_tokens_details", None)
    return Usage(
        input=raw.input_tokens or 0,
        cached_input=getattr(raw, "cache_read_input_tokens", None) or 0,
        cache_write=getattr(raw, "cache_creation_input_tokens", None) or 0,
        output=raw.output_tokens or 0,
        reasoning=(getattr(details, "thinking_tokens", None) or 0) if details else 0,
    )
