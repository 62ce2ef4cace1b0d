"""The one error a model client raises when the endpoint, not the model, failed."""

from __future__ import annotations

from functools import partial
from typing import Any


class InfrastructureError(Exception):
    """The model endpoint could not produce a reply; never counted against the agent.

    Raised after the retry budget is spent (connection errors, timeouts, 5xx, 429) and at
    once for requests the endpoint refuses (400, 401, 404 ...). `status` is the last HTTP
    status, None when no response arrived; `attempts` counts requests sent.
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
        return (partial(InfrastructureError, **fields), ())

    def _describe(self) -> str:
        where = self.base_url or f"the default {self.provider} endpoint"
        status = f"HTTP {self.status}" if self.status is not None else "no response"
        tries = "attempt" if self.attempts == 1 else "attempts"
        return f"{self.spec} at {where}: {status} after {self.attempts} {tries}: {self.message}"
