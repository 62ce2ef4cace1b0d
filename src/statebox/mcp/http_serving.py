"""Running an ASGI app with uvicorn, in the background or until SIGINT/SIGTERM.

The owner handles signals, not uvicorn: uvicorn's own handlers would re-raise the signal
after shutdown, killing the process before the caller could write the attempt's results.
Every server reads requests within `ServingLimits` (limits.py): bodies and WebSocket messages
capped in size, request heads and bodies in time.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

import anyio
import uvicorn
from starlette.types import ASGIApp

from statebox.mcp.errors import CannotListenError
from statebox.mcp.limits import BodyLimit, ServingLimits
from statebox.mcp.slow_clients import deadline_protocol
from statebox.private_api import require

logger = logging.getLogger(__name__)

STARTUP_TIMEOUT_S = 300.0  # includes the app's lifespan, which may start tool-server templates (τ-bench: litellm)


# uvicorn has no public switch for its signal handlers; `Server.serve` installs them in `capture_signals`,
# which the subclass below overrides: the one place statebox relies on that name, checked on import.
require(uvicorn.Server, ("capture_signals",), distribution="uvicorn", needed_by="statebox.mcp.http_serving")


class _OwnerSignalsServer(uvicorn.Server):
    """A uvicorn server that leaves signal handling to whoever runs it."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port` (port 0 picks a free port); CannotListenError if taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as e:
        raise CannotListenError(host, port, e) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise CannotListenError(host, port, e) from None
    return sock


def base_url(sock: socket.socket) -> str:
    """`http://host:port` for a bound socket, bracketing IPv6 hosts."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@asynccontextmanager
async def serving(
    app: ASGIApp, host: str = "127.0.0.1", port: int = 0, limits: ServingLimits | None = None
) -> AsyncIterator[str]:
    """Serve `app` in a background task while the block runs; yields its base URL."""
    sock = bind_socket(host, port)
    server = _new_server(app, limits or ServingLimits())
    async with anyio.create_task_group() as tg:
        tg.start_soon(_serve, server, sock)
        try:
            await _wait_started(server)
            yield base_url(sock)
        finally:
            server.should_exit = True


async def serve_until_signalled(
    app: ASGIApp,
    host: str,
    port: int,
    on_ready: Callable[[str], None] | None = None,
    limits: ServingLimits | None = None,
) -> None:
    """Serve `app` until SIGINT or SIGTERM, then shut down gracefully and return.

    `on_ready` gets the base URL once the server accepts connections.
    """
    await serve_socket_until_signalled(app, bind_socket(host, port), on_ready, limits)


async def serve_socket_until_signalled(
    app: ASGIApp,
    sock: socket.socket,
    on_ready: Callable[[str], None] | None = None,
    limits: ServingLimits | None = None,
) -> None:
    """`serve_until_signalled` on a socket already bound (by `bind_socket`)."""
    server = _new_server(app, limits or ServingLimits())
    async with anyio.create_task_group() as tg:
        tg.start_soon(_exit_on_signal, server)
        if on_ready is not None:
            tg.start_soon(_announce, server, sock, on_ready)
        await _serve(server, sock)
        tg.cancel_scope.cancel()


def _new_server(app: ASGIApp, limits: ServingLimits) -> _OwnerSignalsServer:
    config = uvicorn.Config(
        BodyLimit(app, limits), lifespan="on", log_level="warning", access_log=False,
        http=deadline_protocol(limits.read_timeout_s), ws_max_size=limits.max_body_bytes,
    )
    return _OwnerSignalsServer(config)


async def _serve(server: uvicorn.Server, sock: socket.socket) -> None:
    try:
        await server.serve(sockets=[sock])
    finally:
        sock.close()


async def _wait_started(server: uvicorn.Server) -> None:
    # uvicorn exposes no start event, only this flag.
    with anyio.fail_after(STARTUP_TIMEOUT_S):
        while not server.started:
            if server.should_exit:
                raise RuntimeError("the HTTP server stopped while starting; see its log")
            await anyio.sleep(0.005)


async def _announce(server: uvicorn.Server, sock: socket.socket, on_ready: Callable[[str], None]) -> None:
    await _wait_started(server)
    on_ready(base_url(sock))


async def _exit_on_signal(server: uvicorn.Server) -> None:
    async with watching_signals() as signals:
        async for signum in signals:
            logger.info("received %s; shutting down", signal.Signals(signum).name)
            server.should_exit = True
            return


@asynccontextmanager
async def watching_signals() -> AsyncIterator[AsyncIterator[int]]:
    """SIGINT/SIGTERM as an async iterator; one that never yields off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield _never()
        return
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as receiver:
        yield receiver


async def _never() -> AsyncIterator[int]:
    await anyio.sleep_forever()
    yield 0  # pragma: no cover - sleep_forever never returns
