"""The official SDKs' own types as oracles of the JSON statebox sends and reads (test-only).

OpenAI (Chat Completions, Responses) and Anthropic: the SDKs' request TypedDicts, validated with
pydantic with every TypedDict made to refuse unknown keys (the SDKs allow extras, an oracle must
not), and their response models. Bedrock: botocore's own service model of Converse, checked by
botocore's ParamValidator. Gemini: pydantic models of its documented JSON (gemini_shapes.py), as no
Gemini SDK is a dev dependency.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import SchemaValidator

from . import gemini_shapes

Check = Callable[[dict[str, Any]], None]  # raises AssertionError saying what does not fit


def _forbidding_extras(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("type") == "typed-dict":
            node["extra_behavior"] = "forbid"
        for value in node.values():
            _forbidding_extras(value)
    elif isinstance(node, list):
        for value in node:
            _forbidding_extras(value)
    return node


def _consumed(value: Any) -> Any:
    """Every lazily validated Iterable field, iterated (pydantic checks their items only then)."""
    if isinstance(value, dict):
        return {key: _consumed(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_consumed(item) for item in value]
    if type(value).__name__ == "ValidatorIterator":
        return [_consumed(item) for item in value]
    return value


def typed_dict_check(typed_dict: Any) -> Check:
    validator = SchemaValidator(_forbidding_extras(copy.deepcopy(TypeAdapter(typed_dict).core_schema)))

    def check(body: dict[str, Any]) -> None:
        try:
            _consumed(validator.validate_python(body))
        except ValidationError as exc:
            raise AssertionError(f"{typed_dict.__name__} refuses the body:\n{exc}\nbody: {body}") from None

    return check


def model_check(model: Any) -> Check:
    def check(body: dict[str, Any]) -> None:
        try:
            model.model_validate(body)
        except ValidationError as exc:
            raise AssertionError(f"{model.__name__} refuses it:\n{exc}\nbody: {body}") from None

    return check


def botocore_check(direction: str, model_id: str = "") -> Check:
    from botocore.session import get_session
    from botocore.validate import ParamValidator

    operation = get_session().get_service_model("bedrock-runtime").operation_model("Converse")
    shape = operation.input_shape if direction == "request" else operation.output_shape

    def check(body: dict[str, Any]) -> None:
        params = {"modelId": model_id, **body} if direction == "request" else body
        report = ParamValidator().validate(params, shape)
        if report.has_errors():
            raise AssertionError(f"botocore's Converse {direction} shape refuses it:\n{report.generate_report()}")

    return check


def request_check(provider: str) -> Check:
    """The oracle of `provider`'s request bodies."""
    if provider in ("openai", "azure"):
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

        return typed_dict_check(CompletionCreateParamsNonStreaming)
    if provider == "openai-responses":
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

        return typed_dict_check(ResponseCreateParamsNonStreaming)
    if provider == "anthropic":
        from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

        return typed_dict_check(MessageCreateParamsNonStreaming)
    if provider == "google":
        return model_check(gemini_shapes.GenerateContentRequest)
    return botocore_check("request", "anthropic.claude-3-5-sonnet-20240620-v1:0")


def response_check(provider: str) -> Check:
    """The oracle of `provider`'s reply bodies (used on the replies the tests serve)."""
    if provider in ("openai", "azure"):
        from openai.types.chat import ChatCompletion

        return model_check(ChatCompletion)
    if provider == "openai-responses":
        from openai.types.responses import Response

        return model_check(Response)
    if provider == "anthropic":
        from anthropic.types import Message

        return model_check(Message)
    if provider == "google":
        return model_check(gemini_shapes.GenerateContentResponse)
    return botocore_check("response")
