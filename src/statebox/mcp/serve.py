"""Serving one attempt as an MCP server, over stdio or streamable HTTP (`statebox serve`).

When the server ends (stdin closed, SIGINT or SIGTERM), `on_end(attempt)` runs, so the
operator can collect effects and verdict, and then the attempt is closed. Nothing about
the ending is sent to the agent.
"""

from __future__ import annotations

import inspect
import os
import signal
from collections.abc import Callable

import anyio
from mcp.server.stdio import stdio_server

from statebox.mcp.hosted import HostedAttempt, OnEnd
from statebox.mcp.http_serving import bind_socket, serve_socket_until_signalled, watching_signals
from statebox.mcp.server import build_server

MCP_PATH = "/mcp"


async def serve_stdio(attempt: HostedAttempt, on_end: OnEnd | None = None) -> None:
    """Serve `attempt` on this process's stdin/stdout until stdin closes or a signal arrives."""
    ending = _Ending(attempt, on_end)
    server = build_server(attempt)
    try:
        async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as tg:
            tg.start_soon(_end_on_signal, ending)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()
    finally:
        await ending.run()


async def serve_http(
    attempt: HostedAttempt,
    host: str = "127.0.0.1",
    port: int = 8000,
    on_end: OnEnd | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve `attempt` over stateless streamable HTTP at `http://HOST:PORT/mcp` until a signal.

    `on_ready` gets the endpoint URL once it accepts connections (port 0 picks a free port).
    Raises CannotListenError, before the attempt is served or ended, when the address cannot be bound.
    """
    sock = bind_socket(host, port)
    app = build_server(attempt).streamable_http_app(
        streamable_http_path=MCP_PATH, stateless_http=True, json_response=True, host=host
    )

    def announce(url: str) -> None:
        if on_ready is not None:
            on_ready(url + MCP_PATH)

    try:
        await serve_socket_until_signalled(app, sock, on_ready=announce)
    finally:
        await _Ending(attempt, on_end).run()


class _Ending:
    """The end of a served attempt, which runs once however the serving stops."""

    def __init__(self, attempt: HostedAttempt, on_end: OnEnd | None) -> None:
        """Remember what to do; `run()` does it (shielded from cancellation) the first time."""
        self._attempt = attempt
        self._on_end = on_end
        self._done = False

    async def run(self) -> None:
        if self._done:
            return
        self._done = True
        with anyio.CancelScope(shield=True):
            try:
                if self._on_end is not None:
                    outcome = self._on_end(self._attempt)
                    if inspect.isawaitable(outcome):
                        await outcome
            finally:
                await self._attempt.close()


async def _end_on_signal(ending: _Ending) -> None:
    async with watching_signals() as signals:
        async for signum in signals:
            await ending.run()
            # The SDK reads stdin in a worker thread that only a line or EOF wakes, so an
            # orderly unwind could hang; with the results written, die by the signal instead.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
