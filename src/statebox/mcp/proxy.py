"""Many isolated attempts behind one HTTP server (`statebox proxy`).

`run_proxy` serves until SIGINT/SIGTERM; `running_proxy` serves in the background for as
long as a block runs (tests, `statebox run --tools-via http`). Both refuse to listen
beyond loopback without a token, before binding anything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from statebox.mcp.hosted import AttemptFactory
from statebox.mcp.http_serving import serve_until_signalled, serving
from statebox.mcp.limits import ServingLimits
from statebox.mcp.proxy_app import DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_ATTEMPTS, create_proxy_app
from statebox.mcp.proxy_auth import check_bind, resolve_token

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7111


async def run_proxy(
    factory: AttemptFactory,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    token: str | None = None,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    on_ready: Callable[[str], None] | None = None,
    limits: ServingLimits | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> None:
    """Serve the proxy until SIGINT/SIGTERM; then close every attempt and return.

    `token` falls back to `$STATEBOX_TOKEN`. `on_ready` gets the base URL once serving.
    Raises InsecureBindError for a non-loopback host without a token.
    """
    token = resolve_token(token)
    check_bind(host, token)
    app = create_proxy_app(factory, token=token, idle_timeout_s=idle_timeout_s, host=host, max_attempts=max_attempts)
    await serve_until_signalled(app, host, port, on_ready=on_ready, limits=limits)


@asynccontextmanager
async def running_proxy(
    factory: AttemptFactory,
    host: str = DEFAULT_HOST,
    port: int = 0,
    token: str | None = None,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    limits: ServingLimits | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> AsyncIterator[str]:
    """Serve the proxy in the background while the block runs; yields its base URL.

    Port 0 (the default) picks a free port. `token` falls back to `$STATEBOX_TOKEN`.
    """
    token = resolve_token(token)
    check_bind(host, token)
    app = create_proxy_app(factory, token=token, idle_timeout_s=idle_timeout_s, host=host, max_attempts=max_attempts)
    async with serving(app, host, port, limits) as url:
        yield url
