"""What both HTTP adapters share: concurrency slots, retries, timing and cost."""

from __future__ import annotations

import asyncio
import os
import time
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

from .client import ModelClient
from .pricing import PriceOverrides, cost_usd, price_table_for
from .retry import (
    Endpoint,
    EndpointFailure,
    MalformedResponse,
    RetryPolicy,
    call_with_retries,
    retry_after_from_headers,
)
from .spec import parse_spec
from .types import Completion, Message, Sampling, ToolCall, ToolDef, Usage

PLACEHOLDER_KEY = "not-needed"


@dataclass(frozen=True)
class Reply:
    """What one successful request yields, before timing and cost are added."""

    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    model: str | None
    finish_reason: str | None


@dataclass(frozen=True)
class SdkErrors:
    """An SDK's exception classes, so one function can classify both SDKs' errors."""

    status: type[Exception]
    timeout: type[Exception]
    connection: type[Exception]
    base: type[Exception]


class EndpointClient(ModelClient):
    """A ModelClient calling an HTTP API; adapters build, send and read requests."""

    provider: str
    key_env: str

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
        self._api_key = api_key
        self._prices = prices
        self._slots = asyncio.Semaphore(max_concurrency)
        self._endpoint = Endpoint(self.provider, spec, base_url, self.key_env)

    async def complete(
        self,
        messages: list[Message],
        tools: list[ToolDef] | None = None,
        *,
        tool_choice: str | None = None,
        seed: int | None = None,
    ) -> Completion:
        sampling = self.sampling if seed is None else self.sampling.model_copy(update={"seed": seed})
        request = self._build_request(messages, tools or [], tool_choice, sampling)
        async with self._slots:
            started = time.monotonic()
            reply, retries = await call_with_retries(
                lambda: self._send(request),
                classify=self._classify,
                policy=self.retry,
                endpoint=self._endpoint,
            )
            latency = time.monotonic() - started
        return Completion(
            text=reply.text,
            tool_calls=reply.tool_calls,
            usage=reply.usage,
            cost_usd=cost_usd(self.spec, reply.usage, self._prices),
            model=reply.model or self.model,
            finish_reason=reply.finish_reason,
            latency_s=latency,
            retries=retries,
        )

    def price_table(self) -> dict[str, Any] | None:
        return price_table_for(self.spec, self._prices)

    def _resolve_api_key(self) -> str | None:
        """The explicit key, else the environment's, else a placeholder for a base URL."""
        key = self._api_key or os.environ.get(self.key_env)
        if key is None and self.base_url is not None:
            return PLACEHOLDER_KEY
        return key

    @abstractmethod
    def _build_request(
        self, messages: list[Message], tools: list[ToolDef], tool_choice: str | None, sampling: Sampling
    ) -> dict[str, Any]:
        """The SDK call's keyword arguments."""

    @abstractmethod
    async def _send(self, request: dict[str, Any]) -> Reply:
        """Send one request; raise the SDK's error or MalformedResponse on failure."""

    @abstractmethod
    def _classify(self, exc: Exception) -> EndpointFailure | None:
        """Describe an endpoint failure; None for exceptions that are not one."""


def classify_sdk_error(exc: Exception, errors: SdkErrors, timeout_s: float) -> EndpointFailure | None:
    """Map an SDK exception to an EndpointFailure, or None if it is not an SDK error."""
    if isinstance(exc, MalformedResponse):
        return EndpointFailure(status=200, message=str(exc))
    if isinstance(exc, errors.status):
        response = getattr(exc, "response", None)
        headers = response.headers if response is not None else {}
        status = int(getattr(exc, "status_code", 0))
        message = getattr(exc, "message", str(exc))
        return EndpointFailure.from_status(status, message, retry_after_from_headers(headers))
    if isinstance(exc, errors.timeout):
        return EndpointFailure(status=None, message=f"request timed out after {timeout_s:g} s")
    if isinstance(exc, errors.connection):
        cause = exc.__cause__ or exc
        return EndpointFailure(status=None, message=f"connection failed: {cause!r}")
    if isinstance(exc, errors.base):
        return EndpointFailure(status=None, message=str(exc), retryable=False)
    return None
