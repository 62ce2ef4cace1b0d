"""The wire formats the fake model speaks: one module per API, each reading a request into the
shared ChatRequest and writing the fake's Reply in that API's reply shape.

A format names the route it serves (Starlette path syntax), the prefix its base URL ends with
(what a client is given as `--base-url`), and how its errors look. The scripted agent, customer
and judge never see which format carried the conversation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from statebox.fakemodel.protocol import ChatRequest, Reply

Api = Literal["openai", "responses", "azure", "anthropic", "google", "bedrock"]
APIS: tuple[str, ...] = get_args(Api)


@dataclass(frozen=True)
class WireFormat:
    """One API's request and reply shapes. `parse` gets the JSON body and the route's path parameters
    (and query); `write` gets the request, the reply, an id and the usage estimate (protocol.usage)."""

    api: Api
    route: str
    base_path: str
    parse: Callable[[Any, Mapping[str, str]], ChatRequest]
    write: Callable[[ChatRequest, Reply, str, dict[str, Any]], dict[str, Any]]
    error: Callable[[str, str], dict[str, Any]]


def wire_format(api: str) -> WireFormat:
    """The format for `api` (ValueError naming the known ones otherwise)."""
    if api not in APIS:
        raise ValueError(f"unknown --api {api!r}; choose one of {', '.join(APIS)}")
    from statebox.fakemodel.wire import anthropic, bedrock, chat, gemini, responses

    formats = {
        f.api: f for f in (chat.OPENAI, chat.AZURE, responses.FORMAT, anthropic.FORMAT, gemini.FORMAT, bedrock.FORMAT)
    }
    return formats[api]  # type: ignore[index]
