"""Bounded retries of a failing endpoint: Retry-After first, else backoff with full jitter."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal, TypeVar

from ._transport import HttpOptions
from .errors import ConfigurationError, ContextOverflowError, InfrastructureError

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({408, 429})
FailureKind = Literal["endpoint", "configuration", "context_overflow"]
_ERROR_CLASSES: dict[str, type[InfrastructureError]] = {
    "endpoint": InfrastructureError,
    "configuration": ConfigurationError,
    "context_overflow": ContextOverflowError,
}


@dataclass(frozen=True)
class RetryPolicy:
    """How long to keep trying one call; `rng` and `sleep` are injectable for tests.

    `timeout_s` bounds each request from start to end; `http` holds the transport's other limits
    (connect and read timeouts, the response size cap); `max_delay` caps both the backoff and
    Retry-After.
    """

    max_retries: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0
    timeout_s: float = 120.0
    http: HttpOptions = field(default_factory=HttpOptions)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep, repr=False, compare=False)

    def delay(self, retry: int, retry_after_s: float | None) -> float:
        """Seconds to wait before retry number `retry` (0-based)."""
        if retry_after_s is not None:
            return min(max(retry_after_s, 0.0), self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * 2**retry)
        return self.rng.uniform(0.0, ceiling)


@dataclass(frozen=True)
class EndpointFailure:
    """A provider-neutral view of one failed request; status None means no response.

    `kind`: "configuration" (a bad key, no access, an unknown model: every call would fail
    alike), "context_overflow" (the prompt does not fit the model), else "endpoint".
    """

    status: int | None
    message: str
    retry_after_s: float | None = None
    retryable: bool = True
    kind: FailureKind = "endpoint"

    @classmethod
    def from_status(cls, status: int, message: str, retry_after_s: float | None = None) -> EndpointFailure:
        """Retry 408, 429 and 5xx; any other status is the request's fault."""
        retryable = status in RETRYABLE_STATUSES or status >= 500
        return cls(status, message, retry_after_s, retryable)


class MalformedResponse(Exception):
    """The endpoint answered 2xx with something that is not a reply (retried like a 5xx)."""


class ContextWindowExceeded(Exception):
    """A 2xx reply that stopped because the context window was full (Anthropic's and Bedrock's
    `model_context_window_exceeded`): a context overflow, like a 400 saying so."""


@dataclass(frozen=True)
class Endpoint:
    """Who is being called, for error messages."""

    provider: str
    spec: str
    base_url: str | None
    key_env: str


def parse_retry_after(value: str, *, now: datetime | None = None) -> float | None:
    """Seconds from a Retry-After value (delta-seconds or HTTP date); None if unreadable."""
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def retry_after_from_headers(headers: Mapping[str, str]) -> float | None:
    """Read `retry-after-ms` (OpenAI) or `retry-after`; header names are case-insensitive."""
    lowered = {key.lower(): value for key, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000.0, 0.0)
        except ValueError:
            pass
    seconds = lowered.get("retry-after")
    return parse_retry_after(seconds) if seconds is not None else None


async def call_with_retries(
    send: Callable[[], Awaitable[T]],
    *,
    classify: Callable[[Exception], EndpointFailure | None],
    policy: RetryPolicy,
    endpoint: Endpoint,
) -> tuple[T, int]:
    """Run `send` until it succeeds; return its result and the number of retries.

    `classify` turns an exception into an EndpointFailure, or None to let it
    propagate unchanged. A failure that is not retryable, or one left when the budget is
    spent, is raised as InfrastructureError (ConfigurationError, ContextOverflowError by kind).
    """
    retry = 0
    while True:
        try:
            return await send(), retry
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            if not failure.retryable or retry >= policy.max_retries:
                raise _give_up(endpoint, failure, attempts=retry + 1) from exc
        await policy.sleep(policy.delay(retry, failure.retry_after_s))
        retry += 1


def _give_up(endpoint: Endpoint, failure: EndpointFailure, *, attempts: int) -> InfrastructureError:
    message = failure.message
    if failure.status in (401, 403):
        message += f" (check the API key, e.g. {endpoint.key_env})"
    return _ERROR_CLASSES[failure.kind](
        provider=endpoint.provider,
        spec=endpoint.spec,
        base_url=endpoint.base_url,
        status=failure.status,
        attempts=attempts,
        message=message,
    )
