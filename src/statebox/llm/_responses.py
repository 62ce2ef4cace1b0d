"""OpenAI's Responses API: reasoning carried from turn to turn without the server keeping state.

Every request says `store: false` and asks for `reasoning.encrypted_content`: the reply's
reasoning items (id, summary, encrypted content) come back as `reasoning_item` blocks, go on the
assistant message, and are sent back as input items before that turn's message and tool calls,
so a reasoning model keeps its reasoning across tool calls as the API intends.
"""

from __future__ import annotations

from typing import Any

from ._endpoint import Reply
from ._openai import OpenAIClient, openai_usage
from ._wire import dumps, join_object, member, members, str_or_none
from .retry import MalformedResponse
from .strict_mode import is_strict_valid
from .toolbox import PreparedTools
from .types import Message, ReasoningBlock, Sampling, ToolCall, ToolDef

_DIALECT = "responses"
_INCOMPLETE = {"max_output_tokens": "length", "content_filter": "content_filter"}
_INCLUDE = dumps(["reasoning.encrypted_content"])


class ResponsesClient(OpenAIClient):
    """`openai-responses:MODEL` over POST /responses (OpenAI, or a server that speaks it)."""

    provider = "openai-responses"
    price_provider = "openai"

    def _url(self, root: str) -> str:
        return root + "/responses"

    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        head: dict[str, Any] = {"model": self.model, "store": False, **self._tool_options(tools, tool_choice, sampling)}
        optional = {
            "temperature": sampling.temperature,
            "max_output_tokens": sampling.max_tokens,
            "reasoning": {"effort": sampling.reasoning_effort} if sampling.reasoning_effort else None,
        }
        head.update({key: value for key, value in optional.items() if value is not None})
        parts = members(head)
        parts.append(member("include", _INCLUDE))
        items = [item for m in messages for item in self._cached_message(_DIALECT, m, _encoded_items)]
        parts.append(member("input", b"[" + b",".join(items) + b"]"))
        if len(tools):
            parts.append(member("tools", tools.encoded(_DIALECT, _encode_tools)))
        return join_object(parts)

    def _forced_tool(self, name: str) -> dict[str, Any]:
        return {"type": "function", "name": name}

    def _read(self, data: dict[str, Any]) -> Reply:
        output = data.get("output")
        if not isinstance(output, list):
            raise MalformedResponse(f"response has no output: {dumps(data)[:200].decode(errors='replace')}")
        if data.get("status") == "failed":
            raise MalformedResponse(f"the response failed: {dumps(data.get('error'))[:200].decode(errors='replace')}")
        text: list[str] = []
        calls: list[ToolCall] = []
        reasoning: list[ReasoningBlock] = []
        refused = False
        for item in output:
            kind = item.get("type") if isinstance(item, dict) else None
            if kind == "message":
                for part in item.get("content") or []:
                    if isinstance(part, dict) and part.get("type") == "output_text":
                        text.append(str(part.get("text") or ""))
                    elif isinstance(part, dict) and part.get("type") == "refusal":
                        text.append(str(part.get("refusal") or ""))
                        refused = True
            elif kind == "function_call":
                call_id = str(item.get("call_id") or item.get("id") or f"call_{len(calls)}")
                calls.append(ToolCall.from_raw(call_id, str(item.get("name") or ""), _arguments(item)))
            elif kind == "reasoning":
                reasoning.append(_reasoning_block(item))
        return Reply(
            text="".join(text),
            tool_calls=calls,
            usage=openai_usage(data.get("usage"), "input_tokens", "output_tokens"),
            model=str_or_none(data.get("model")),
            finish_reason=_finish(data, refused, bool(calls)),
            reasoning=reasoning,
        )


def _finish(data: dict[str, Any], refused: bool, called: bool) -> str:
    if refused:
        return "refusal"
    if data.get("status") == "incomplete":
        details = data.get("incomplete_details")
        reason = details.get("reason") if isinstance(details, dict) else None
        return _INCOMPLETE.get(str(reason), str(reason or "incomplete"))
    return "tool_calls" if called else "stop"


def _arguments(item: dict[str, Any]) -> str:
    arguments = item.get("arguments")
    return arguments if isinstance(arguments, str) else dumps(arguments).decode() if arguments else ""


def _reasoning_block(item: dict[str, Any]) -> ReasoningBlock:
    summary = item.get("summary") or []
    text = "\n\n".join(str(p.get("text") or "") for p in summary if isinstance(p, dict))
    return ReasoningBlock(
        type="reasoning_item",
        id=str_or_none(item.get("id")),
        text=text,
        data=str_or_none(item.get("encrypted_content")),
    )


def _encoded_items(message: Message) -> tuple[bytes, ...]:
    return tuple(dumps(item) for item in _items(message))


def _items(message: Message) -> list[dict[str, Any]]:
    """The input items of one message: reasoning first, then the text, then the tool calls."""
    if message.role == "tool":
        return [{"type": "function_call_output", "call_id": message.tool_call_id, "output": message.content}]
    if message.role != "assistant":
        return [{"role": message.role, "content": message.content}]
    items: list[dict[str, Any]] = [_reasoning_param(r) for r in message.reasoning if r.type == "reasoning_item"]
    if message.content:
        items.append({"role": "assistant", "content": message.content})
    for call in message.tool_calls:
        items.append({"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.raw_arguments})
    return items


def _reasoning_param(block: ReasoningBlock) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "reasoning", "id": block.id or "", "summary": []}
    if block.text:
        item["summary"] = [{"type": "summary_text", "text": block.text}]
    if block.data is not None:
        item["encrypted_content"] = block.data
    return item


def _encode_tools(tools: tuple[ToolDef, ...]) -> bytes:
    return dumps([_tool_param(tool) for tool in tools])


def _tool_param(tool: ToolDef) -> dict[str, Any]:
    # strict when strict mode accepts the schema (every built-in one); an external server's may not
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.input_schema,
        "strict": is_strict_valid(tool.input_schema),
    }
