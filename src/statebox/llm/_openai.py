"""Adapter for OpenAI-compatible Chat Completions endpoints (OpenAI, vLLM, proxies)."""

from __future__ import annotations

from typing import Any

import openai

from ._endpoint import EndpointClient, Reply, SdkErrors, classify_sdk_error
from .retry import EndpointFailure, MalformedResponse
from .types import Message, Sampling, ToolCall, ToolDef, Usage

_ERRORS = SdkErrors(
    status=openai.APIStatusError,
    timeout=openai.APITimeoutError,
    connection=openai.APIConnectionError,
    base=openai.OpenAIError,
)
_NAMED_CHOICES = ("auto", "none", "required")


class OpenAIClient(EndpointClient):
    """`openai:MODEL` over Chat Completions; the SDK's own retries are off."""

    provider = "openai"
    key_env = "OPENAI_API_KEY"

    def __init__(self, spec: str, **options: Any) -> None:
        super().__init__(spec, **options)
        try:
            self._sdk = openai.AsyncOpenAI(
                api_key=self._resolve_api_key(),
                base_url=self.base_url,
                max_retries=0,
                timeout=self.retry.timeout_s,
            )
        except openai.OpenAIError as exc:
            raise ValueError(f"cannot create a client for {spec!r}: {exc}") from exc
        # OpenAI's reasoning models refuse `max_tokens`; many local servers only know it.
        self._max_tokens_key = "max_completion_tokens" if self.base_url is None else "max_tokens"

    async def aclose(self) -> None:
        await self._sdk.close()

    def _build_request(
        self, messages: list[Message], tools: list[ToolDef], tool_choice: str | None, sampling: Sampling
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [_message_param(message) for message in messages],
        }
        if tools:
            request["tools"] = [_tool_param(tool) for tool in tools]
            request["parallel_tool_calls"] = sampling.parallel_tool_calls
            if tool_choice is not None:
                request["tool_choice"] = _tool_choice_param(tool_choice)
        optional = {
            "temperature": sampling.temperature,
            "seed": sampling.seed,
            self._max_tokens_key: sampling.max_tokens,
            "reasoning_effort": sampling.reasoning_effort,
        }
        request.update({key: value for key, value in optional.items() if value is not None})
        return request

    async def _send(self, request: dict[str, Any]) -> Reply:
        response = await self._sdk.chat.completions.create(**request)
        choices = getattr(response, "choices", None)
        if not choices:
            raise MalformedResponse(f"response has no choices: {str(response)[:200]}")
        choice = choices[0]
        message = choice.message
        return Reply(
            text=message.content or "",
            tool_calls=_tool_calls(message.tool_calls or []),
            usage=_usage(response.usage),
            model=response.model,
            finish_reason=choice.finish_reason,
        )

    def _classify(self, exc: Exception) -> EndpointFailure | None:
        return classify_sdk_error(exc, _ERRORS, self.retry.timeout_s)


def _message_param(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [_tool_call_param(call) for call in message.tool_calls],
        }
    return {"role": message.role, "content": message.content}


def _tool_call_param(call: ToolCall) -> dict[str, Any]:
    # The model's own text goes back, malformed or not, so it can see what it sent.
    function = {"name": call.name, "arguments": call.raw_arguments}
    return {"id": call.id, "type": "function", "function": function}


def _tool_param(tool: ToolDef) -> dict[str, Any]:
    function = {"name": tool.name, "description": tool.description, "parameters": tool.input_schema}
    return {"type": "function", "function": function}


def _tool_choice_param(tool_choice: str) -> str | dict[str, Any]:
    if tool_choice in _NAMED_CHOICES:
        return tool_choice
    return {"type": "function", "function": {"name": tool_choice}}


def _tool_calls(raw_calls: list[Any]) -> list[ToolCall]:
    calls = []
    for index, raw in enumerate(raw_calls):
        function = getattr(raw, "function", None)
        if function is None:  # a non-function tool type; nothing the agent loop can run
            continue
        call_id = raw.id or f"call_{index}"
        calls.append(ToolCall.from_raw(call_id, function.name, function.arguments or ""))
    return calls


def _usage(raw: Any) -> Usage:
    """input = prompt_tokens - cached_tokens; output = completion_tokens (with reasoning)."""
    if raw is None:
        return Usage()
    prompt_details = getattr(raw, "prompt_tokens_details", None)
    output_details = getattr(raw, "completion_tokens_details", None)
    cached = (getattr(prompt_details, "cached_tokens", None) or 0) if prompt_details else 0
    reasoning = (getattr(output_details, "reasoning_tokens", None) or 0) if output_details else 0
    prompt = raw.prompt_tokens or 0
    return Usage(
        input=max(prompt - cached, 0),
        cached_input=cached,
        output=raw.completion_tokens or 0,
        reasoning=reasoning,
    )
