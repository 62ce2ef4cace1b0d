"""Chat Completions, as OpenAI serves it and as Azure OpenAI serves it on a deployment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statebox.fakemodel.protocol import BadRequest, ChatRequest, Reply, completion, error_body, parse_request
from statebox.fakemodel.wire import WireFormat


def _write(request: ChatRequest, reply: Reply, reply_id: str, usage: dict[str, Any]) -> dict[str, Any]:
    return completion(request, reply, reply_id, counts=usage)


def _parse_azure(body: Any, params: Mapping[str, str]) -> ChatRequest:
    if not params.get("api-version"):
        raise BadRequest("the api-version query parameter is required")
    request = parse_request(body)
    return ChatRequest(params["deployment"], request.turns, request.tools, request.seed)


OPENAI = WireFormat("openai", "/v1/chat/completions", "/v1", lambda body, _: parse_request(body), _write, error_body)
AZURE = WireFormat("azure", "/openai/deployments/{deployment}/chat/completions", "", _parse_azure, _write, error_body)
