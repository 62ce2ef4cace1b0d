"""Adapter for OpenAI-compatible Chat Completions endpoints (OpenAI, vLLM, proxies)."""

from __future__ import annotations

import os
from typing import Any, ClassVar

from ._endpoint import EndpointClient, Reply
from ._wire import count, dumps, join_object, member, members, str_or_none
from .retry import MalformedResponse
from .strict_mode import is_strict_valid
from .toolbox import PreparedTools
from .types import Message, ReasoningBlock, Sampling, ToolCall, ToolDef, Usage

_NAMED_CHOICES = ("auto", "none", "required")
_DIALECT = "openai"
_FINISH = {"function_call": "tool_calls"}  # the old name; the others are already the neutral words


class OpenAIClient(EndpointClient):
    """`openai:MODEL` over Chat Completions (OpenAI, or any compatible server), as plain JSON over HTTP."""

    provider = "openai"
    price_provider = "openai"
    key_env = ("OPENAI_API_KEY",)
    base_url_env = ("OPENAI_BASE_URL",)
    default_base_url: ClassVar[str | None] = "https://api.openai.com/v1"

    def __init__(self, spec: str, **arguments: Any) -> None:
        super().__init__(spec, **arguments)
        # OpenAI's reasoning models refuse `max_tokens`; many local servers only know it.
        self._max_tokens_key = "max_completion_tokens" if self.root == self.default_base_url else "max_tokens"

    def _url(self, root: str) -> str:
        return root + "/chat/completions"

    def _headers(self, api_key: str) -> dict[str, str]:
        headers = {"authorization": f"Bearer {api_key}"}
        for env, header in (("OPENAI_ORG_ID", "openai-organization"), ("OPENAI_PROJECT_ID", "openai-project")):
            if os.environ.get(env):
                headers[header] = os.environ[env]
        return headers

    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        head: dict[str, Any] = {"model": self.model, **self._tool_options(tools, tool_choice, sampling)}
        optional = {
            "temperature": sampling.temperature,
            "seed": sampling.seed,
            self._max_tokens_key: sampling.max_tokens,
            "reasoning_effort": sampling.reasoning_effort,
        }
        head.update({key: value for key, value in optional.items() if value is not None})
        parts = members(head)
        parts.append(member("messages", b"[" + b",".join(self._message(m) for m in messages) + b"]"))
        if len(tools):
            parts.append(member("tools", tools.encoded(_DIALECT, _encode_tools)))
        return join_object(parts)

    def _tool_options(self, tools: PreparedTools, tool_choice: str | None, sampling: Sampling) -> dict[str, Any]:
        """How the offered tools may be called: nothing when none are offered, no choice for the server's default."""
        if not len(tools):
            return {}
        options: dict[str, Any] = {"parallel_tool_calls": sampling.parallel_tool_calls}
        if tool_choice is not None:
            options["tool_choice"] = tool_choice if tool_choice in _NAMED_CHOICES else self._forced_tool(tool_choice)
        return options

    def _forced_tool(self, name: str) -> dict[str, Any]:
        """The `tool_choice` that makes the model call the tool `name`."""
        return {"type": "function", "function": {"name": name}}

    def _message(self, message: Message) -> bytes:
        if message.role == "system":
            return self._cached_text(_DIALECT, message.content, _system_message)
        return self._cached_message(_DIALECT, message, _encode_message)

    def _read(self, data: dict[str, Any]) -> Reply:
        choices = data.get("choices")
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise MalformedResponse(f"response has no choices: {dumps(data)[:200].decode(errors='replace')}")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise MalformedResponse("response choice has no message")
        refusal = str_or_none(message.get("refusal"))
        finish = "refusal" if refusal else str_or_none(choice.get("finish_reason"))
        return Reply(
            text=refusal or _text(message.get("content")),
            tool_calls=_tool_calls(message.get("tool_calls") or []),
            usage=openai_usage(data.get("usage")),
            model=str_or_none(data.get("model")),
            finish_reason=_FINISH.get(finish or "", finish),
            reasoning=_reasoning(message),
        )


def _system_message(content: str) -> bytes:
    return dumps({"role": "system", "content": content})


def _encode_message(message: Message) -> bytes:
    return dumps(_message_param(message))


def _message_param(message: Message) -> dict[str, Any]:
    """A message as Chat Completions takes it (reasoning text is never sent back)."""
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


def _encode_tools(tools: tuple[ToolDef, ...]) -> bytes:
    return dumps([_tool_param(tool) for tool in tools])


def _tool_param(tool: ToolDef) -> dict[str, Any]:
    function = {"name": tool.name, "description": tool.description, "parameters": tool.input_schema,
                "strict": is_strict_valid(tool.input_schema)}  # strict mode only for a schema it accepts
    return {"type": "function", "function": function}


def _text(content: Any) -> str:
    """Message content: a string, or (some servers) a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _tool_calls(raw_calls: Any) -> list[ToolCall]:
    if not isinstance(raw_calls, list):
        raise MalformedResponse("tool_calls is not a list")
    calls = []
    for index, raw in enumerate(raw_calls):
        function = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(function, dict):  # a non-function tool type; nothing the agent loop can run
            continue
        call_id = raw.get("id") or f"call_{index}"
        arguments = function.get("arguments")
        raw_arguments = arguments if isinstance(arguments, str) else dumps(arguments).decode() if arguments else ""
        calls.append(ToolCall.from_raw(str(call_id), str(function.get("name") or ""), raw_arguments))
    return calls


def _reasoning(message: dict[str, Any]) -> list[ReasoningBlock]:
    """Reasoning text some servers return beside the content (vLLM, DeepSeek, OpenRouter)."""
    text = message.get("reasoning_content") or message.get("reasoning")
    return [ReasoningBlock(type="reasoning", text=text)] if isinstance(text, str) and text else []


def openai_usage(raw: Any, input_key: str = "prompt_tokens", output_key: str = "completion_tokens") -> Usage:
    """The usage of an OpenAI reply, whose token counts sit under `input_key` and `output_key` (Chat Completions'
    prompt/completion_tokens, the Responses API's input/output_tokens), each with its `KEY_details`:
    input = the input count less the cache reads and writes; output = the output count (reasoning included)."""
    if not isinstance(raw, dict):
        return Usage()
    input_details = raw.get(f"{input_key}_details") or {}
    output_details = raw.get(f"{output_key}_details") or {}
    cached = count(input_details.get("cached_tokens")) if isinstance(input_details, dict) else 0
    written = count(input_details.get("cache_write_tokens")) if isinstance(input_details, dict) else 0
    reasoning = count(output_details.get("reasoning_tokens")) if isinstance(output_details, dict) else 0
    return Usage(
        input=max(count(raw.get(input_key)) - cached - written, 0),
        cached_input=cached,
        cache_write=written,
        output=count(raw.get(output_key)),
        reasoning=reasoning,
    )
