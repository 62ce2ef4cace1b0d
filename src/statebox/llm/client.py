"""The model client interface and `make_client`, which finds the provider of a spec in the registry."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import Any, Self, TypedDict, Unpack

from .pricing import PriceOverrides
from .registry import provider_class
from .retry import RetryPolicy
from .spec import parse_spec
from .types import Completion, Message, Sampling, ToolDef


class CallOptions(TypedDict, total=False):
    """The options of one `ModelClient.complete` call, each keyword-only and optional (what they mean: there)."""

    tool_choice: str | None
    seed: int | None
    role: str | None


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
        self, messages: list[Message], tools: Iterable[ToolDef] | None = None, **options: Unpack[CallOptions]
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


class ClientSettings(TypedDict, total=False):
    """How `make_client` (and every provider's client) is configured; every key optional."""

    base_url: str | None
    api_key: str | None
    sampling: Sampling | None
    max_concurrency: int
    retry: RetryPolicy | None
    prices: PriceOverrides | None
    options: Mapping[str, str] | None


def make_client(spec: str, **settings: Unpack[ClientSettings]) -> ModelClient:
    """A client for `PROVIDER:MODEL`, the provider found in the registry (`statebox.llm.registry`).

    Keys and endpoints come from the arguments, else from the provider's environment variables
    (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...: docs/models.md); a `base_url` without a key sends a
    placeholder so local servers work; what is missing is a ValueError before any request.
    `options` are the provider's own (e.g. azure's `api_version`). Requests are plain JSON over
    aiohttp: no provider SDK is involved. At most `max_concurrency` requests are in flight at once;
    `retry` says how each is tried (timeouts and transport limits included).
    """
    provider, _ = parse_spec(spec)
    return provider_class(provider)(spec, **settings)
