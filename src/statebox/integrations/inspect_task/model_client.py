"""The model Inspect provides, behind statebox's `ModelClient`, so the attempt loop runs unchanged.

Every Inspect model provider works this way (OpenAI-compatible, Anthropic, `mockllm`, ...):
statebox's messages and tool definitions are translated to Inspect's, its output back.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Unpack

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
)
from inspect_ai.tool import ToolCall as InspectToolCall, ToolCallError, ToolInfo, ToolParams

from statebox.integrations.inspect_task import inspect_private
from statebox.llm._endpoint import ROLE_HEADER
from statebox.llm.client import CallOptions, ModelClient
from statebox.llm.types import Completion, Message, ToolCall, ToolDef, Usage


class InspectModelClient(ModelClient):
    """One Inspect `Model`; Inspect does the retries, limits and logging of every call."""

    def __init__(self, model: Model, config: GenerateConfig | None = None) -> None:
        super().__init__(f"inspect:{model}")
        self.model = model
        self.config = config or GenerateConfig()  # merged into every call's (e.g. parallel tool calls off)
        self._tools: dict[int, list[ToolInfo]] = {}  # per tool list object: its Inspect form, built once

    async def complete(
        self, messages: list[Message], tools: Iterable[ToolDef] | None = None, **options: Unpack[CallOptions]
    ) -> Completion:
        t0 = time.perf_counter()
        infos = self._tool_infos(tools) if tools is not None else []
        headers = self._headers(options.get("role"))
        config = self.config.merge(GenerateConfig(seed=options.get("seed"), extra_headers=headers))
        output = await self.model.generate([to_chat_message(m) for m in messages], tools=infos, config=config)
        return to_completion(output, str(self.model), time.perf_counter() - t0)

    def _headers(self, role: str | None) -> dict[str, str] | None:
        """As from every statebox client, the role as the `x-statebox-role` header, added to the headers the
        model would send anyway: a call's headers replace, not extend, the model's configuration's and,
        for the model under evaluation, the eval's (`--extra-headers`), so those are repeated here."""
        if not role:
            return None
        headers = dict(self.model.config.extra_headers or {})
        if self.model is inspect_private.active_model():
            headers.update(inspect_private.active_generate_config().extra_headers or {})
        return {**headers, **(self.config.extra_headers or {}), ROLE_HEADER: role}

    def _tool_infos(self, tools: Iterable[ToolDef]) -> list[ToolInfo]:
        key = id(tools)
        if key not in self._tools:
            self._tools[key] = [tool_info(t) for t in tools]
        return self._tools[key]


def tool_info(tool: ToolDef) -> ToolInfo:
    """An Inspect tool description from a statebox one (same JSON Schema)."""
    schema = {k: v for k, v in tool.input_schema.items() if k in ("properties", "required", "additionalProperties")}
    return ToolInfo(name=tool.name, description=tool.description, parameters=ToolParams.model_validate(schema))


def to_chat_message(message: Message) -> ChatMessage:
    """A statebox message as Inspect's chat message."""
    if message.role == "system":
        return ChatMessageSystem(content=message.content)
    if message.role == "user":
        return ChatMessageUser(content=message.content)
    if message.role == "tool":
        error = ToolCallError("unknown", message.content) if message.is_error else None
        return ChatMessageTool(content=message.content, tool_call_id=message.tool_call_id, error=error)
    calls = [
        InspectToolCall(id=c.id, function=c.name, arguments=c.arguments or {}, parse_error=c.parse_error)
        for c in message.tool_calls
    ]
    return ChatMessageAssistant(content=message.content, tool_calls=calls or None)


def to_completion(output: ModelOutput, model: str, latency_s: float) -> Completion:
    """Inspect's model output as statebox's completion (a malformed call stays a model mistake)."""
    message = output.message
    calls = [_tool_call(c) for c in message.tool_calls or []]
    usage = Usage()
    if output.usage is not None:
        cached = output.usage.input_tokens_cache_read or 0
        usage = Usage(
            input=max(output.usage.input_tokens - cached, 0),
            cached_input=cached,
            cache_write=output.usage.input_tokens_cache_write or 0,
            output=output.usage.output_tokens,
            reasoning=output.usage.reasoning_tokens or 0,
        )
    finish = output.choices[0].stop_reason if output.choices else None
    return Completion(
        text=message.text, tool_calls=calls, usage=usage, model=model, finish_reason=finish, latency_s=latency_s
    )


def _tool_call(call: InspectToolCall) -> ToolCall:
    if call.parse_error:
        return ToolCall(
            id=call.id,
            name=call.function,
            arguments=None,
            raw_arguments=str(call.arguments),
            parse_error=call.parse_error,
        )
    return ToolCall.from_arguments(call.id, call.function, dict(call.arguments))
