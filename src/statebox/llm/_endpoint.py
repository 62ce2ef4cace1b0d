"""What both HTTP adapters share: the key, concurrency slots, retries, timing and cost."""

from __future__ import annotations

import asyncio
import os
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ._http import JsonEndpoint, classify
from ._memo import EncodedParts, message_key
from .client import ModelClient
from .pricing import PriceOverrides, Pricer, price_table_for
from .retry import Endpoint, RetryPolicy, call_with_retries
from .spec import parse_spec
from .toolbox import PreparedTools, prepared
from .types import Completion, Message, ReasoningBlock, Sampling, ToolCall, ToolDef, Usage

T = TypeVar("T")

ROLE_HEADER = "x-statebox-role"  # agent | customer | judge: who in statebox is asking

PLACEHOLDER_KEY = "not-needed"
# Encoded messages kept per client: a conversation's worth for every request in flight, and some.
_PARTS_PER_SLOT = 64
_MIN_PARTS = 1024


@dataclass(frozen=True)
class Reply:
    """What one successful request yields, before timing and cost are added."""

    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    model: str | None
    finish_reason: str | None
    reasoning: list[ReasoningBlock] = field(default_factory=list)


class EndpointClient(ModelClient):
    """A ModelClient calling an HTTP API; adapters encode requests and read replies."""

    provider: str
    key_env: str
    base_url_env: str  # read when no base URL is given, as the SDKs do
    default_base_url: str
    path: str  # appended to the base URL

    def __init__(
        self,
        spec: str,
        *,
        base_url: str | None,
        api_key: str | None,
        sampling: Sampling | None,
        max_concurrency: int,
        retry: RetryPolicy | None,
        prices: PriceOverrides | None,
    ) -> None:
        super().__init__(spec, sampling)
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
        self.model = parse_spec(spec)[1]
        self.base_url = base_url
        self.retry = retry or RetryPolicy()
        self._prices = prices
        self._pricer = Pricer(spec, prices)
        self._slots = asyncio.Semaphore(max_concurrency)
        self._endpoint = Endpoint(self.provider, spec, base_url, self.key_env)
        self._parts = EncodedParts(max(_MIN_PARTS, _PARTS_PER_SLOT * max_concurrency))
        key = self._resolve_api_key(api_key)
        root = (base_url or os.environ.get(self.base_url_env) or self.default_base_url).rstrip("/")
        self._http = JsonEndpoint(
            root + self.path,
            self._headers(key),
            timeout_s=self.retry.timeout_s,
            max_connections=max_concurrency,
        )

    async def complete(
        self,
        messages: list[Message],
        tools: Iterable[ToolDef] | None = None,
        *,
        tool_choice: str | None = None,
        seed: int | None = None,
        role: str | None = None,
    ) -> Completion:
        sampling = self.sampling if seed is None else self.sampling.model_copy(update={"seed": seed})
        body = self._encode(messages, prepared(tools), tool_choice, sampling)
        extra = {ROLE_HEADER: role} if role else None

        async def send() -> Reply:
            return self._read(await self._http.post(body, extra))

        async with self._slots:
            started = time.monotonic()
            reply, retries = await call_with_retries(
                send,
                classify=lambda exc: classify(exc, self.retry.timeout_s),
                policy=self.retry,
                endpoint=self._endpoint,
            )
            latency = time.monotonic() - started
        return Completion(
            text=reply.text,
            tool_calls=reply.tool_calls,
            reasoning=reply.reasoning,
            usage=reply.usage,
            cost_usd=self._pricer.cost(reply.usage),
            model=reply.model or self.model,
            finish_reason=reply.finish_reason,
            latency_s=latency,
            retries=retries,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def price_table(self) -> dict[str, Any] | None:
        return price_table_for(self.spec, self._prices)

    def _resolve_api_key(self, explicit: str | None) -> str:
        """The explicit key, else the environment's, else a placeholder for a base URL."""
        key = explicit or os.environ.get(self.key_env)
        if key:
            return key
        if self.base_url is not None:
            return PLACEHOLDER_KEY
        raise ValueError(
            f"{self.spec} needs an API key: set {self.key_env}"
            + (" (or give --base-url for a local server)" if self.provider == "openai" else "")
        )

    def _cached_text(self, dialect: str, text: str, encode: Callable[[str], bytes]) -> bytes:
        """`encode(text)`, remembered: system prompts are the same on every call of an attempt."""
        return self._parts.get((dialect, text), encode, text)

    def _cached_message(self, dialect: str, message: Message, encode: Callable[[Message], T]) -> T:
        """`encode(message)`, remembered: each call resends the conversation, of which little is new."""
        return self._parts.get(message_key(dialect, message), encode, message)

    @abstractmethod
    def _headers(self, api_key: str) -> dict[str, str]:
        """Authentication and version headers."""

    @abstractmethod
    def _encode(
        self, messages: list[Message], tools: PreparedTools, tool_choice: str | None, sampling: Sampling
    ) -> bytes:
        """The request body."""

    @abstractmethod
    def _read(self, data: dict[str, Any]) -> Reply:
        """The reply in a 2xx body; MalformedResponse when it holds none."""
