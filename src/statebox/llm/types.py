"""Provider-neutral data passed to and returned from a model client."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal["system", "user", "assistant", "tool"]


class ToolCall(BaseModel):
    """One tool call requested by the model.

    `raw_arguments` is the JSON text exactly as the model produced it. When it is not a
    JSON object, `arguments` is None and `parse_error` says why: a model mistake the agent
    loop shows back to the model, never an exception.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: str
    parse_error: str | None = None

    @classmethod
    def from_raw(cls, id: str, name: str, raw_arguments: str) -> ToolCall:
        """Parse the model's argument text; an empty text means no arguments."""
        if not raw_arguments.strip():
            return cls(id=id, name=name, arguments={}, raw_arguments=raw_arguments)
        try:
            parsed = json.loads(raw_arguments)
        except json.JSONDecodeError as exc:
            error = f"tool arguments are not valid JSON: {exc}"
            return cls(id=id, name=name, arguments=None, raw_arguments=raw_arguments, parse_error=error)
        if not isinstance(parsed, dict):
            error = f"tool arguments must be a JSON object, got {type(parsed).__name__}"
            return cls(id=id, name=name, arguments=None, raw_arguments=raw_arguments, parse_error=error)
        return cls(id=id, name=name, arguments=parsed, raw_arguments=raw_arguments)

    @classmethod
    def from_arguments(cls, id: str, name: str, arguments: dict[str, Any]) -> ToolCall:
        """Build a call from already-parsed arguments (Anthropic returns objects)."""
        return cls(id=id, name=name, arguments=arguments, raw_arguments=json.dumps(arguments))


ReasoningType = Literal["thinking", "redacted_thinking", "reasoning", "reasoning_item", "thought_signature"]


class ReasoningBlock(BaseModel):
    """The model's reasoning in one reply, as the provider returned it.

    Sent back unchanged with the assistant turn that made it, by the provider that made it:
    - `thinking` (Anthropic, Bedrock: `text` and its `signature`) and `redacted_thinking`
      (opaque `data`);
    - `reasoning_item` (OpenAI Responses: the item's `id`, its summary as `text`, its
      `encrypted_content` as `data`);
    - `thought_signature` (Gemini: the opaque `signature` of the part it came on; `id` is the
      tool call it belongs to, None for a text part).
    `reasoning` is reasoning text (OpenAI-compatible servers, Gemini's thought summaries),
    recorded but not sent back.
    """

    model_config = ConfigDict(frozen=True)

    type: ReasoningType
    text: str = ""
    signature: str | None = None
    data: str | None = None
    id: str | None = None


class Message(BaseModel):
    """One conversation turn.

    `tool_calls` and `reasoning` belong on assistant messages; `tool_call_id` and `is_error` on tool
    messages. Anthropic receives `is_error` as a flag; OpenAI has no such flag, so the
    content of an error result should say that it is an error.
    System messages are sent to Anthropic as the top-level system prompt, in order.
    """

    role: Role
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    is_error: bool = False
    reasoning: list[ReasoningBlock] = Field(default_factory=list)

    @model_validator(mode="after")
    def _tool_results_name_their_call(self) -> Message:
        if self.role == "tool" and not self.tool_call_id:
            raise ValueError("a tool message needs the tool_call_id of the call it answers")
        return self


class ToolDef(BaseModel):
    """A tool offered to the model; `input_schema` is a JSON Schema object."""

    name: str
    description: str
    input_schema: dict[str, Any]


class Usage(BaseModel):
    """Token counts of one or more calls, the same meaning for every provider.

    - `input`: prompt tokens billed at the full input rate (neither read from nor written
      to a prompt cache).
    - `cached_input`: prompt tokens read from the prompt cache.
    - `cache_write`: prompt tokens written to the prompt cache (Anthropic only).
    - `output`: generated tokens, reasoning included.
    - `reasoning`: the part of `output` spent on reasoning (a breakdown, not an extra).

    The whole prompt is `input + cached_input + cache_write`.
    """

    model_config = ConfigDict(frozen=True)

    input: int = 0
    cached_input: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input=self.input + other.input,
            cached_input=self.cached_input + other.cached_input,
            cache_write=self.cache_write + other.cache_write,
            output=self.output + other.output,
            reasoning=self.reasoning + other.reasoning,
        )


class Sampling(BaseModel):
    """Generation settings sent with every call; None leaves the provider's default.

    `thinking_budget` turns on Anthropic's extended thinking with that many tokens (it must
    be below `max_tokens`); OpenAI-compatible endpoints do not get it.
    `max_tokens` goes out as `max_completion_tokens` to api.openai.com, as `max_tokens` to
    other OpenAI-compatible servers, and defaults to 4096 for Anthropic, which requires it.
    Anthropic takes neither seed nor temperature (its Messages API has none); they are not sent
    there, nor a seed to Bedrock or the Responses API. `reasoning_effort` is OpenAI's
    `reasoning_effort` (Responses: `reasoning.effort`), Anthropic's `output_config.effort` and
    Gemini's `thinkingLevel`; `thinking_budget` is also Gemini's `thinkingBudget` and, on Bedrock,
    Anthropic's thinking in `additionalModelRequestFields`.
    """

    model_config = ConfigDict(frozen=True)

    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    reasoning_effort: str | None = None
    thinking_budget: int | None = None
    parallel_tool_calls: bool = False


FINISH_REASONS = ("stop", "tool_calls", "length", "content_filter", "refusal", "pause_turn")


class Completion(BaseModel):
    """The model's reply to one `complete` call.

    `finish_reason` is one of FINISH_REASONS whatever the provider calls it (a refusal's text is
    in `text`), or the provider's own word when none of them fits.
    `reasoning` holds the reply's reasoning blocks (see ReasoningBlock); put them on the
    assistant Message of this reply so they go back with it. `latency_s` covers every
    attempt and back-off wait, not the wait for a concurrency slot; `retries` counts
    attempts after the first. `cost_usd` is None when no price is known for the model.
    """

    text: str
    tool_calls: list[ToolCall] = Field(default_factory=list)
    reasoning: list[ReasoningBlock] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float | None = None
    model: str
    finish_reason: str | None = None
    latency_s: float = 0.0
    retries: int = 0
