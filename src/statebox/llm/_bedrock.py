"""Amazon Bedrock's Converse API, each request signed with SigV4 by botocore (the optional extra).

`bedrock:MODEL_ID` posts to `https://bedrock-runtime.REGION.amazonaws.com/model/MODEL_ID/converse`.
Credentials and region come from AWS's standard chain as botocore reads it (AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, AWS_PROFILE and ~/.aws, SSO, instance and container
roles; AWS_REGION); botocore signs, statebox never computes a signature itself. Reasoning
(`reasoningContent`, with its signature, or redacted) goes back with the turn it came in.
"""

from __future__ import annotations

import importlib
import os
import urllib.parse
from typing import Any

from ._endpoint import EndpointClient, ProviderOption, Reply
from ._transport import Signer
from ._wire import alternating, count, dumps, join_object, join_turns, member, str_or_none
from .retry import ContextWindowExceeded, MalformedResponse
from .toolbox import PreparedTools
from .types import Message, ReasoningBlock, Sampling, ToolCall, ToolDef, Usage

_DIALECT = "bedrock"
_FINISH = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
}
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


class BedrockClient(EndpointClient):
    """`bedrock:MODEL_ID` (a model id, inference profile or ARN) over Converse."""

    provider = "bedrock"
    price_provider = "aws"
    base_url_env = ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL")
    options_declared = (ProviderOption("region", "the AWS region", env=("AWS_REGION", "AWS_DEFAULT_REGION")),)

    def __init__(self, spec: str, **arguments: Any) -> None:
        self._botocore: Any = None
        self._region: str | None = None
        super().__init__(spec, **arguments)

    def _root(self) -> str:
        """The endpoint: given, from AWS's variables, else the region's; botocore's session and the
        region, which the signer needs too, are found on the way."""
        explicit = self.base_url or next((v for v in map(_env, self.base_url_env) if v), None)
        self._botocore = _botocore_session(self.spec, required=not _is_local(explicit))
        self._region = self.option("region") or (self._botocore and self._botocore.get_config_variable("region"))
        if explicit:
            return explicit.rstrip("/")
        if not self._region:
            raise ValueError(f"{self.spec} needs an AWS region: set AWS_REGION (or the profile's region)")
        return f"https://bedrock-runtime.{self._region}.amazonaws.com"

    def _resolve_api_key(self, explicit: str | None) -> str:
        return ""  # requests are signed (see _signer), not sent with a key

    def _url(self, root: str) -> str:
        return f"{root}/model/{urllib.parse.quote(self.model, safe='')}/converse"

    def _headers(self, api_key: str) -> dict[str, str]:
        return {}

    def _signer(self) -> Signer | None:
        credentials = self._botocore.get_credentials() if self._botocore is not None else None
        if credentials is None:
            if _is_local(self.root):  # a local stand-in (the fake model) takes unsigned requests
                return None
            raise ValueError(
                f"{self.spec} found no AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, "
                "~/.aws, SSO or an instance role)"
            )
        auth = importlib.import_module("botocore.auth")
        requests = importlib.import_module("botocore.awsrequest")
        url, region = self._url(self.root), self._region or "us-east-1"

        def sign(body: bytes) -> dict[str, str]:
            request = requests.AWSRequest(
                method="POST", url=url, data=body, headers={"content-type": "application/json"}
            )
            auth.SigV4Auth(credentials.get_frozen_credentials(), "bedrock", region).add_auth(request)
            return {k: v for k, v in request.headers.items() if k.lower() != "content-type"}

        return sign

    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        parts = [member("messages", self._turns(messages))]
        system = [{"text": m.content} for m in messages if m.role == "system" and m.content]
        if system:
            parts.append(member("system", self._cached_text(_DIALECT, dumps(system).decode(), str.encode)))
        inference = {"maxTokens": sampling.max_tokens, "temperature": sampling.temperature}
        inference = {key: value for key, value in inference.items() if value is not None}
        if inference:
            parts.append(member("inferenceConfig", dumps(inference)))
        if len(tools):
            choice = _tool_choice(tool_choice)
            encoded_tools = tools.encoded(_DIALECT, _encode_tools)
            config = b'{"tools":' + encoded_tools + (b',"toolChoice":' + dumps(choice) if choice else b"") + b"}"
            parts.append(member("toolConfig", config))
        if sampling.thinking_budget is not None:  # Anthropic's models on Bedrock, in their own words
            thinking = {"thinking": {"type": "enabled", "budget_tokens": sampling.thinking_budget}}
            parts.append(member("additionalModelRequestFields", dumps(thinking)))
        return join_object(parts)

    def _turns(self, messages: list[Message]) -> bytes:
        """Alternating user/assistant turns; tool results travel in user turns."""
        turns = alternating(
            ("assistant" if m.role == "assistant" else "user", self._cached_message(_DIALECT, m, _encoded_blocks))
            for m in messages
            if m.role != "system"
        )
        return join_turns(turns, "content")

    def _read(self, data: dict[str, Any]) -> Reply:
        output = data.get("output")
        message = output.get("message") if isinstance(output, dict) else None
        if not isinstance(message, dict) or not isinstance(message.get("content"), list):
            raise MalformedResponse(f"response has no output message: {dumps(data)[:200].decode(errors='replace')}")
        text: list[str] = []
        calls: list[ToolCall] = []
        reasoning: list[ReasoningBlock] = []
        for block in message["content"]:
            if not isinstance(block, dict):
                continue
            if isinstance(block.get("text"), str):
                text.append(block["text"])
            elif isinstance(block.get("toolUse"), dict):
                calls.append(_tool_call(block["toolUse"]))
            elif isinstance(block.get("reasoningContent"), dict):
                reasoning.append(_reasoning(block["reasoningContent"]))
        stop = str_or_none(data.get("stopReason"))
        if stop == "model_context_window_exceeded":
            raise ContextWindowExceeded("the reply stopped: the model's context window is full")
        finish = _FINISH.get(stop, stop) if stop is not None else None
        return Reply("".join(text), calls, _usage(data.get("usage")), None, finish, reasoning)


def _env(name: str) -> str | None:
    return os.environ.get(name) or None


def _is_local(url: str | None) -> bool:
    return url is not None and (urllib.parse.urlsplit(url).hostname or "") in _LOCAL_HOSTS


def _botocore_session(spec: str, *, required: bool) -> Any:
    try:
        session = importlib.import_module("botocore.session")
    except ImportError:
        if not required:
            return None
        raise ValueError(
            f"{spec} needs the optional package botocore to sign requests: pip install 'statebox[bedrock]'"
        ) from None
    return session.get_session()


def _encoded_blocks(message: Message) -> tuple[bytes, ...]:
    return tuple(dumps(block) for block in _blocks(message))


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        result = {
            "toolUseId": message.tool_call_id,
            "content": [{"text": message.content or "(no output)"}],
            "status": "error" if message.is_error else "success",
        }
        return [{"toolResult": result}]
    blocks: list[dict[str, Any]] = [_reasoning_param(r) for r in message.reasoning if r.type in _SENT_BACK]
    if message.content:
        blocks.append({"text": message.content})
    for call in message.tool_calls:
        # Converse takes only objects; a malformed call goes back as an empty one.
        blocks.append({"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments or {}}})
    return blocks


_SENT_BACK = ("thinking", "redacted_thinking")


def _reasoning_param(block: ReasoningBlock) -> dict[str, Any]:
    if block.type == "redacted_thinking":
        return {"reasoningContent": {"redactedContent": block.data or ""}}
    text: dict[str, Any] = {"text": block.text}
    if block.signature is not None:
        text["signature"] = block.signature
    return {"reasoningContent": {"reasoningText": text}}


def _reasoning(content: dict[str, Any]) -> ReasoningBlock:
    if "redactedContent" in content:
        return ReasoningBlock(type="redacted_thinking", data=str_or_none(content.get("redactedContent")))
    found = content.get("reasoningText")
    text: dict[str, Any] = found if isinstance(found, dict) else {}
    return ReasoningBlock(
        type="thinking", text=str(text.get("text") or ""), signature=str_or_none(text.get("signature"))
    )


def _tool_call(block: dict[str, Any]) -> ToolCall:
    call_id, name, arguments = str(block.get("toolUseId") or ""), str(block.get("name") or ""), block.get("input")
    if isinstance(arguments, dict):
        return ToolCall.from_arguments(call_id, name, arguments)
    return ToolCall.from_raw(call_id, name, dumps(arguments).decode() if arguments is not None else "")


def _encode_tools(tools: tuple[ToolDef, ...]) -> bytes:
    specs = [
        {"toolSpec": {"name": t.name, "description": t.description, "inputSchema": {"json": t.input_schema}}}
        for t in tools
    ]
    return dumps(specs)


def _tool_choice(tool_choice: str | None) -> dict[str, Any] | None:
    """Converse has no "none": the tools stay offered and the model's default applies."""
    if tool_choice is None or tool_choice in ("none", "auto"):
        return {"auto": {}} if tool_choice == "auto" else None
    if tool_choice == "required":
        return {"any": {}}
    return {"tool": {"name": tool_choice}}


def _usage(raw: Any) -> Usage:
    """inputTokens excludes the cache reads and writes, as on Anthropic's own API."""
    if not isinstance(raw, dict):
        return Usage()
    return Usage(
        input=count(raw.get("inputTokens")),
        cached_input=count(raw.get("cacheReadInputTokens")),
        cache_write=count(raw.get("cacheWriteInputTokens")),
        output=count(raw.get("outputTokens")),
    )
