"""The errors a model client raises when the endpoint, not the model's reply, failed."""

from __future__ import annotations

from functools import partial
from typing import Any


class InfrastructureError(Exception):
    """The model endpoint could not produce a reply; never counted against the agent.

    Raised after the retry budget is spent (connection errors, timeouts, 5xx, 429) and at
    once for requests the endpoint refuses (400, 401, 404 ...). `status` is the last HTTP
    status, None when no response arrived; `attempts` counts requests sent. Two kinds are
    told apart by subclass: ConfigurationError and ContextOverflowError.
    """

    def __init__(
        self,
        *,
        provider: str,
        spec: str,
        base_url: str | None,
        status: int | None,
        attempts: int,
        message: str,
    ) -> None:
        self.provider = provider
        self.spec = spec
        self.base_url = base_url
        self.status = status
        self.attempts = attempts
        self.message = message
        super().__init__(self._describe())

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only fields: rebuild from them so the error survives pickling.
        fields = {key: getattr(self, key) for key in ("provider", "spec", "base_url", "status", "attempts", "message")}
        return (partial(type(self), **fields), ())

    def _describe(self) -> str:
        where = self.base_url or f"the default {self.provider} endpoint"
        status = f"HTTP {self.status}" if self.status is not None else "no response"
        tries = "attempt" if self.attempts == 1 else "attempts"
        return f"{self.spec} at {where}: {status} after {self.attempts} {tries}: {self.message}"


class ConfigurationError(InfrastructureError):
    """The endpoint refused the client itself (401, 403, 404): a bad key, no access, an unknown
    model or URL. Every call would fail the same way, so a campaign stops at the first."""


class ContextOverflowError(InfrastructureError):
    """The conversation no longer fits the model's context window (a 400 saying so).

    What the agent's conversation became, not an infrastructure failure: the LLM agent ends
    its attempt with finish reason `context_overflow`.
    """
