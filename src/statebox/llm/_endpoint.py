"""What every HTTP provider shares: the key, the endpoint, concurrency slots, retries, timing and cost.

A provider subclass says where its endpoint is (`_url`), how it authenticates (`_headers`, or
`_signer` for headers computed per request), how it writes a request (`_encode`) and reads a
reply (`_read`). Everything else, retries and error classification included, is the same.
"""

from __future__ import annotations

import asyncio
import os
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, Unpack

from ._http import JsonEndpoint, classify
from ._memo import EncodedParts, message_key
from ._transport import Signer
from .client import CallOptions, ClientSettings, ModelClient
from .pricing import Pricer, price_table_for
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
MAX_CONTINUATIONS = 3  # a reply paused by the provider (pause_turn) is continued at most this often


@dataclass(frozen=True)
class Reply:
    """What one successful request yields, before timing and cost are added.

    `finish_reason` is one of stop, tool_calls, length, content_filter, refusal, pause_turn, or
    the provider's own word when none of these fits.
    """

    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    model: str | None
    finish_reason: str | None
    reasoning: list[ReasoningBlock] = field(default_factory=list)


@dataclass(frozen=True)
class ProviderOption:
    """An option a provider takes (`make_client(options={name: value})`), else read from `env`."""

    name: str
    help: str
    env: tuple[str, ...] = ()
    default: str | None = None


class EndpointClient(ModelClient):
    """A ModelClient calling an HTTP API; providers encode requests and read replies."""

    provider: ClassVar[str]  # the name it is registered under
    price_provider: ClassVar[str]  # genai-prices' provider id
    key_env: ClassVar[tuple[str, ...]] = ()  # the first one set holds the key
    base_url_env: ClassVar[tuple[str, ...]] = ()  # read when no base URL is given, as the SDKs do
    default_base_url: ClassVar[str | None] = None
    options_declared: ClassVar[tuple[ProviderOption, ...]] = ()

    def __init__(self, spec: str, **settings: Unpack[ClientSettings]) -> None:
        super().__init__(spec, settings.get("sampling"))
        base_url, api_key, prices = settings.get("base_url"), settings.get("api_key"), settings.get("prices")
        max_concurrency, retry, options = (
            settings.get("max_concurrency", 8),
            settings.get("retry"),
            settings.get("options"),
        )
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
        self.model = parse_spec(spec)[1]
        self.base_url = base_url
        self.retry = retry or RetryPolicy()
        self._options = self._checked_options(options or {})
        self._prices = prices
        self._pricer = Pricer(spec, prices, self.price_provider)
        self._slots = asyncio.Semaphore(max_concurrency)
        self._parts = EncodedParts(max(_MIN_PARTS, _PARTS_PER_SLOT * max_concurrency))
        self.root = self._root()
        self._endpoint = Endpoint(self.provider, spec, self.root, self.key_env[0] if self.key_env else "credentials")
        try:
            self._http = JsonEndpoint(
                self._url(self.root),
                self._headers(self._resolve_api_key(api_key)),
                timeout_s=self.retry.timeout_s,
                max_connections=max_concurrency,
                options=self.retry.http,
                signer=self._signer(),
            )
        except ValueError as exc:
            raise ValueError(f"{spec}: {exc}") from None

    async def complete(
        self, messages: list[Message], tools: Iterable[ToolDef] | None = None, **options: Unpack[CallOptions]
    ) -> Completion:
        tool_choice, seed, role = options.get("tool_choice"), options.get("seed"), options.get("role")
        sampling = self.sampling if seed is None else self.sampling.model_copy(update={"seed": seed})
        offered = prepared(tools)
        extra = {ROLE_HEADER: role} if role else None
        async with self._slots:
            started = time.monotonic()
            reply, retries = await self._send(self._encode(messages, offered, tool_choice, sampling), extra)
            for _ in range(MAX_CONTINUATIONS):
                if reply.finish_reason != "pause_turn":
                    break
                # The provider paused a long turn: send it back as it stands, and it goes on from there.
                partial = [*messages, Message(role="assistant", content=reply.text, reasoning=reply.reasoning)]
                more, more_retries = await self._send(self._encode(partial, offered, tool_choice, sampling), extra)
                reply, retries = _joined(reply, more), retries + more_retries
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

    async def _send(self, body: bytes, extra: dict[str, str] | None) -> tuple[Reply, int]:
        async def send() -> Reply:
            return self._read(await self._http.post(body, extra))

        return await call_with_retries(
            send,
            classify=lambda exc: classify(exc, self.retry.timeout_s),
            policy=self.retry,
            endpoint=self._endpoint,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def price_table(self) -> dict[str, Any] | None:
        return price_table_for(self.spec, self._prices, self.price_provider)

    def option(self, name: str) -> str | None:
        """A provider option: as given, else from its environment variables, else its default."""
        declared = next(o for o in self.options_declared if o.name == name)
        if name in self._options:
            return self._options[name]
        return next((os.environ[env] for env in declared.env if os.environ.get(env)), declared.default)

    def _checked_options(self, options: Mapping[str, str]) -> dict[str, str]:
        known = {o.name for o in self.options_declared}
        unknown = sorted(set(options) - known)
        if unknown:
            takes = ", ".join(sorted(known)) or "none"
            raise ValueError(f"{self.spec}: unknown option {unknown[0]!r} for {self.provider} (it takes: {takes})")
        return dict(options)

    def _root(self) -> str:
        """The base URL: given, else from the environment, else the provider's default."""
        root = self.base_url or next((os.environ[e] for e in self.base_url_env if os.environ.get(e)), None)
        root = root or self.default_base_url
        if not root:
            where = " or ".join(self.base_url_env) or "a base URL"
            raise ValueError(f"{self.spec} needs its endpoint: give --base-url or set {where}")
        return root.rstrip("/")

    def _resolve_api_key(self, explicit: str | None) -> str:
        """The explicit key, else the environment's, else a placeholder for a base URL."""
        key = explicit or next((os.environ[e] for e in self.key_env if os.environ.get(e)), None)
        if key:
            return key
        if self.base_url is not None:
            return PLACEHOLDER_KEY
        raise ValueError(
            f"{self.spec} needs an API key: set {' or '.join(self.key_env)}"
            + (" (or give --base-url for a local server)" if self.default_base_url else "")
        )

    def _cached_text(self, dialect: str, text: str, encode: Callable[[str], bytes]) -> bytes:
        """`encode(text)`, remembered: system prompts are the same on every call of an attempt."""
        return self._parts.get((dialect, text), encode, text)

    def _cached_message(self, dialect: str, message: Message, encode: Callable[[Message], T]) -> T:
        """`encode(message)`, remembered: each call resends the conversation, of which little is new."""
        return self._parts.get(message_key(dialect, message), encode, message)

    def _signer(self) -> Signer | None:
        """Headers computed per request from its body (request signing, expiring tokens); none by default."""
        return None

    @abstractmethod
    def _url(self, root: str) -> str:
        """The URL every request of this client is POSTed to."""

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


def _joined(first: Reply, more: Reply) -> Reply:
    """A paused reply and its continuation, as one turn."""
    return Reply(
        text=first.text + more.text,
        tool_calls=[*first.tool_calls, *more.tool_calls],
        usage=first.usage + more.usage,
        model=more.model or first.model,
        finish_reason=more.finish_reason,
        reasoning=[*first.reasoning, *more.reasoning],
    )
