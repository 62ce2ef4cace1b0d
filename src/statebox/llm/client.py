"""The model client interface and `make_client`, which picks an adapter from a spec."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Self

from .pricing import PriceOverrides
from .retry import RetryPolicy
from .spec import parse_spec
from .types import Completion, Message, Sampling, ToolDef


class ModelClient(ABC):
    """One model behind one endpoint; safe to share between concurrent attempts."""

    def __init__(self, spec: str, sampling: Sampling | None = None) -> None:
        self._spec = spec
        self._sampling = sampling or Sampling()

    @property
    def spec(self) -> str:
        """The model spec, e.g. `openai:gpt-4o`."""
        return self._spec

    @property
    def sampling(self) -> Sampling:
        return self._sampling

    @abstractmethod
    async def complete(
        self,
        messages: list[Message],
        tools: Iterable[ToolDef] | None = None,
        *,
        tool_choice: str | None = None,
        seed: int | None = None,
        role: str | None = None,
    ) -> Completion:
        """Ask the model for its next turn.

        `tools` may be a PreparedTools, built once per attempt, so the schemas are encoded
        once rather than on every call. `tool_choice` (used only when tools are given): None for the provider's default,
        "auto", "none", "required", or a tool name to force that tool. `seed`, when given,
        replaces `sampling.seed` for this call (e.g. one seed per attempt). `role` (agent, customer,
        judge) is sent as the `x-statebox-role` header, so a server can tell statebox's roles apart
        without reading the prompt.
        Raises InfrastructureError when the endpoint fails; what the model got wrong is
        returned, not raised.
        """

    def price_table(self) -> dict[str, Any] | None:
        """The prices used for `cost_usd`, for the run manifest; None if unknown."""
        return None

    async def aclose(self) -> None:
        """Release connections; the client is not used afterwards."""
        return None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


def make_client(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    sampling: Sampling | None = None,
    max_concurrency: int = 8,
    retry: RetryPolicy | None = None,
    prices: PriceOverrides | None = None,
) -> ModelClient:
    """A client for `openai:MODEL` (any Chat Completions endpoint) or `anthropic:MODEL`.

    Keys come from `api_key` or OPENAI_API_KEY / ANTHROPIC_API_KEY; with a `base_url` and
    no key, a placeholder is sent so local servers work; with neither, ValueError (before any
    request). Requests are plain JSON over httpx: no provider SDK is involved. At most `max_concurrency`
    requests of this client are in flight at once.
    """
    provider, _ = parse_spec(spec)
    options: dict[str, Any] = {
        "base_url": base_url,
        "api_key": api_key,
        "sampling": sampling,
        "max_concurrency": max_concurrency,
        "retry": retry,
        "prices": prices,
    }
    if provider == "openai":
        from ._openai import OpenAIClient

        return OpenAIClient(spec, **options)
    from ._anthropic import AnthropicClient

    return AnthropicClient(spec, **options)
