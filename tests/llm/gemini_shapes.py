"""The Gemini API's generateContent request and response, as its reference documents the JSON
(camelCase fields; a Part holds exactly one kind of data). No Gemini SDK is a dev dependency, so
these pydantic models are the oracle for what statebox sends to and reads from `google:` models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

NAME_PATTERN = r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$"
FinishReason = Literal[
    "FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST",
    "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL",
]  # fmt: skip


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FunctionCall(Shape):
    id: str | None = None
    name: str = Field(pattern=NAME_PATTERN)
    args: dict[str, Any] | None = None


class FunctionResponse(Shape):
    id: str | None = None
    name: str = Field(pattern=NAME_PATTERN)
    response: dict[str, Any]


class Part(Shape):
    text: str | None = None
    functionCall: FunctionCall | None = None
    functionResponse: FunctionResponse | None = None
    thought: bool | None = None
    thoughtSignature: str | None = None

    @model_validator(mode="after")
    def _one_kind_of_data(self) -> Part:
        kinds = [k for k in ("text", "functionCall", "functionResponse") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a Part holds exactly one of text, functionCall, functionResponse; got {kinds}")
        return self


class Content(Shape):
    role: Literal["user", "model"] | None = None
    parts: list[Part] = Field(min_length=1)


class FunctionDeclaration(Shape):
    name: str = Field(pattern=NAME_PATTERN)
    description: str
    parameters: dict[str, Any] | None = None
    parametersJsonSchema: dict[str, Any] | None = None


class Tool(Shape):
    functionDeclarations: list[FunctionDeclaration]


class FunctionCallingConfig(Shape):
    mode: Literal["AUTO", "ANY", "NONE", "VALIDATED"]
    allowedFunctionNames: list[str] | None = None

    @model_validator(mode="after")
    def _names_only_with_any(self) -> FunctionCallingConfig:
        if self.allowedFunctionNames is not None and self.mode != "ANY":
            raise ValueError("allowedFunctionNames is only for mode ANY")
        return self


class ToolConfig(Shape):
    functionCallingConfig: FunctionCallingConfig


class ThinkingConfig(Shape):
    thinkingBudget: int | None = None
    includeThoughts: bool | None = None
    thinkingLevel: Literal["MINIMAL", "LOW", "MEDIUM", "HIGH"] | None = None


class GenerationConfig(Shape):
    temperature: float | None = Field(default=None, ge=0, le=2)
    maxOutputTokens: int | None = Field(default=None, gt=0)
    seed: int | None = None
    thinkingConfig: ThinkingConfig | None = None


class GenerateContentRequest(Shape):
    contents: list[Content] = Field(min_length=1)
    systemInstruction: Content | None = None
    tools: list[Tool] | None = None
    toolConfig: ToolConfig | None = None
    generationConfig: GenerationConfig | None = None


class Candidate(Shape):
    content: Content | None = None
    finishReason: FinishReason | None = None
    index: int | None = None


class PromptFeedback(Shape):
    blockReason: Literal["SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT", "IMAGE_SAFETY"] | None = None


class UsageMetadata(Shape):
    promptTokenCount: int | None = None
    cachedContentTokenCount: int | None = None
    candidatesTokenCount: int | None = None
    thoughtsTokenCount: int | None = None
    toolUsePromptTokenCount: int | None = None
    totalTokenCount: int | None = None


class GenerateContentResponse(Shape):
    candidates: list[Candidate] | None = None
    promptFeedback: PromptFeedback | None = None
    usageMetadata: UsageMetadata | None = None
    modelVersion: str | None = None
    responseId: str | None = None
